import { HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import { parseRetryAfter } from "@switchyard/api"
import {
  type ProviderRequest,
  type ProviderResponse,
  ProviderTransport,
  ProviderTransportError,
  StreamedBody
} from "@switchyard/engine"
import { Chunk, Clock, Data, Duration, Effect, Either, type Exit, Option, Ref, Stream } from "effect"
import { SwitchyardConfig } from "../Config.js"
import { contentLengthOf, errorCodeOf, neverConnected, OutboundHttp } from "./OutboundHttp.js"
import { makeOutboundVerdicts, VerdictKey } from "./OutboundVerdicts.js"
import { AccountLimiters, type AccountLimits } from "./AccountLimiters.js"
import { type Admission, rateOf, type Refusal } from "./ProviderSlots.js"
import { RateLimitStore } from "./RateLimitStore.js"
import type { RateLimitStoreUnavailable } from "./SharedRateLimits.js"
import { redactText, redactValue } from "./Redaction.js"
import type { CallRecorder, RecordedCall } from "./CallRecorder.js"
import { answerOutcome, metricsEnabled, recordProviderCall, recordRateLimitRefusal, recordRateLimitWait } from "../metrics/ServerMetrics.js"
import {
  defaultRetryPolicy,
  RetryableAnswer,
  retryableStatus,
  retriedAfterFailure,
  type RetryPolicy,
  retrySchedule,
  UndeliveredCall
} from "./RetryPolicy.js"

export { type CallRecorder, type RawCall, type RecordedCall, redactCall } from "./CallRecorder.js"

/**
 * Whom provider calls are made for: an account, or a connect session checking or exchanging
 * what an end user entered before any account exists.
 */
export type ProviderCaller = Data.TaggedEnum<{
  Account: { readonly accountId: string }
  ConnectSession: { readonly sessionId: string }
}>
export const ProviderCaller = Data.taggedEnum<ProviderCaller>()

/**
 * The caller's key: its share of a provider's rate limit and concurrency (in this process and
 * in the shared store), its name in spans and in the request log. A connect session's is
 * `connect-session:<id>`, so it never shares an account's.
 */
export const callerKey = (caller: ProviderCaller): string =>
  caller._tag === "Account" ? caller.accountId : `connect-session:${caller.sessionId}`

/** What calls for one caller may do against its provider. */
export interface TransportOptions {
  readonly caller: ProviderCaller
  /** The provider as errors name it (the connector key), e.g. "greenhouse". */
  readonly provider?: string | undefined
  /** The connector action this call is part of (its span and metrics name it), e.g. "ats_list_applications". */
  readonly action?: string | undefined
  /** Requests per second the provider tolerates per account, and so per caller (the connector's rateLimit). */
  readonly requestsPerSecond?: number | undefined
  readonly policy?: Partial<RetryPolicy> | undefined
}

/** A caller's transport for `withTransport`, and where its calls are recorded. */
export interface CallerTransport extends TransportOptions {
  /** A recorder others add to as well (a run's token refresh records its call there); default one of its own. */
  readonly recorder?: CallRecorder | undefined
}

/** How an effect run with a caller's transport ended, and the provider calls it made. */
export interface WithCalls<A, E> {
  readonly exit: Exit.Exit<A, E>
  /**
   * In the order they were made, as recorded: each carries its secrets, and is shown only
   * redacted (`redactCall`, or the request log's summary), on demand, as redacting costs.
   */
  readonly calls: ReadonlyArray<RecordedCall>
}

const MAX_RESPONSE_BYTES = 20 * 1024 * 1024
const MAX_CONCURRENT_PER_ACCOUNT = 8
/** Calls of one account that may wait for a connection or a rate slot; more answer 429. */
const MAX_WAITING_PER_ACCOUNT = 256

const isSuccess = (status: number) => status >= 200 && status < 300

/** The wait an admitted attempt has for its rate slot: the one place it is known (a metric of rate-limit waits goes here). */
const waitForRateSlot = (waitMs: number) =>
  // a zero sleep is still a timer (a millisecond or more on Node): an open slot goes at once
  waitMs > 0 ? Effect.sleep(Duration.millis(waitMs)) : Effect.void

/**
 * What a provider call's span says: method, host and port, connector, action and account. Never the
 * path, query or headers: connectors put credentials in all three.
 */
const callAttributes = (request: ProviderRequest, options: TransportOptions, caller: string): Record<string, unknown> => {
  const url = URL.canParse(request.url) ? new URL(request.url) : undefined
  return {
    "http.request.method": request.method,
    "server.address": url?.hostname ?? "(invalid URL)",
    ...(url === undefined || url.port === "" ? {} : { "server.port": Number(url.port) }),
    "switchyard.provider": options.provider ?? "(unknown)",
    "switchyard.connector.key": options.provider ?? "(unknown)",
    ...(options.action === undefined ? {} : { "switchyard.action.id": options.action }),
    // documented as the account's: a connect session's calls show its key, as the request log does
    "switchyard.account.id": caller
  }
}

/** Marks a body that claimed to be JSON and did not parse. */
const malformedJson = Symbol("malformedJson")

/** A JSON media type (`application/json`, `application/<name>+json`, with parameters) in a request's content-type header. */
const jsonMediaTypeOf = (headers: Readonly<Record<string, string>>): string | undefined => {
  const declared = Object.entries(headers).find(([name]) => name.toLowerCase() === "content-type")?.[1]
  return declared !== undefined && /^application\/(?:[\w.-]+\+)?json\s*(?:;.*)?$/i.test(declared.trim()) ? declared.trim() : undefined
}

const decodeBody = (bytes: Uint8Array, contentType: string | undefined, responseType: ProviderRequest["responseType"]) => {
  if (responseType === "bytes") return bytes
  const text = new TextDecoder().decode(bytes)
  if (text.length === 0) return null
  const claimsJson = contentType?.includes("json") === true
  if (claimsJson || /^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text) as unknown
    } catch {
      return claimsJson ? malformedJson : text
    }
  }
  return text
}

/**
 * Provider HTTP: the live `ProviderTransport`, sending through `OutboundHttp`. Bounds each
 * attempt and the whole call, retries 429/408/5xx and connection errors as `retrySchedule`
 * allows, limits each account's rate and concurrency, refuses private addresses (SSRF) unless
 * allowed, bounds response size and records redacted calls.
 */
export class ProviderHttp extends Effect.Service<ProviderHttp>()("Switchyard/ProviderHttp", {
  scoped: Effect.gen(function*() {
    const config = yield* SwitchyardConfig
    const outbound = yield* OutboundHttp
    // without the store (units that build this service alone) limits are held in memory
    const shared = Option.getOrUndefined(yield* Effect.serviceOption(RateLimitStore))?.shared
    const limiters = new AccountLimiters({
      maxWaitMs: config.providerMaxQueueWaitMs,
      maxWaiting: MAX_WAITING_PER_ACCOUNT,
      maxConcurrent: MAX_CONCURRENT_PER_ACCOUNT
    })
    const configuredPolicy: RetryPolicy = {
      ...defaultRetryPolicy,
      maxAttempts: config.providerMaxAttempts,
      requestTimeout: Duration.millis(config.providerRequestTimeoutMs),
      deadline: Duration.millis(config.providerDeadlineMs)
    }
    const verdicts = yield* makeOutboundVerdicts(config.outboundAllowlist)

    /** A call refused before it is sent: 429 with the seconds until a slot would be its own. */
    const rateLimitedError = (refusal: Refusal, options: TransportOptions, url: string) => {
      const retryAfter = Math.max(1, Math.ceil(refusal.waitMs / 1000))
      const provider = options.provider ?? "the provider"
      return new ProviderTransportError({
        reason: "rate_limited",
        message: refusal.why === "rate"
          ? `too many calls to ${provider} for this account: its ${options.requestsPerSecond} requests per second are taken for the next ${retryAfter} s`
          : `too many calls to ${provider} are waiting for this account`,
        url,
        retryAfter
      })
    }

    /**
     * Admission with a shared store: this process's bound on waiting calls first (as in
     * memory), then the account's slot from the store. `bounded: false` is a retry.
     */
    const admitShared = (
      limits: AccountLimits,
      options: TransportOptions,
      caller: string,
      url: string,
      now: number,
      bounded: boolean
    ): Effect.Effect<Admission | Refusal, ProviderTransportError> => {
      const local = bounded ? limits.slots.admit(now) : limits.slots.admit(now, false)
      const rate = rateOf(options.requestsPerSecond)
      if (shared === undefined || local._tag === "Refused" || rate === undefined) return Effect.succeed(local)
      return shared.reserve(`${caller}:${options.requestsPerSecond}`, rate, bounded ? config.providerMaxQueueWaitMs : undefined).pipe(
        Effect.map((reservation): Admission | Refusal => {
          if (reservation.admitted) return { _tag: "Admitted", waitMs: reservation.waitMs }
          limits.slots.leave()
          return { _tag: "Refused", waitMs: reservation.waitMs, why: "rate" }
        }),
        Effect.onError(() => Effect.sync(() => limits.slots.leave())),
        Effect.catchTag("RateLimitStoreUnavailable", (failure) => Effect.fail(storeUnavailable(failure, url)))
      )
    }

    /**
     * The rate-limit store failed: the call is not sent, as its provider's limit could not be
     * kept, and not tried again (`unavailable`). Not logged per call (an outage would flood the
     * log): the Redis client logs when an outage starts and ends, and the answer (502) says why.
     */
    const storeUnavailable = (failure: RateLimitStoreUnavailable, url: string) =>
      new ProviderTransportError({
        reason: "unavailable",
        message: `the provider rate limit store is unavailable, so the call was not sent: ${failure.message}`,
        url
      })

    const checkProviderUrl = (url: string, foreign: boolean) =>
      Effect.suspend(() => verdicts.get(new VerdictKey(url, foreign))).pipe(
        Effect.flatMap(Either.match({ onLeft: (refusal) => refused(url, refusal.message), onRight: () => Effect.void }))
      )

    const refused = (url: string, message: string) =>
      new ProviderTransportError({ reason: "unreachable", message: `provider URL refused: ${message}`, url })

    const toHttpRequest = (request: ProviderRequest) => {
      let http = HttpClientRequest.make(request.method)(request.url).pipe(HttpClientRequest.setHeaders(request.headers))
      const body = request.body
      if (body?._tag === "Json") {
        // a JSON media type the connector declares (JSON:API's application/vnd.api+json) is the body's type
        const declared = jsonMediaTypeOf(request.headers)
        http = declared === undefined
          ? HttpClientRequest.bodyUnsafeJson(http, body.value)
          : HttpClientRequest.bodyText(http, JSON.stringify(body.value), declared)
      }
      if (body?._tag === "Form") http = HttpClientRequest.bodyUrlParams(http, Object.entries(body.value))
      if (body?._tag === "Bytes") http = HttpClientRequest.bodyUint8Array(http, body.value, body.contentType)
      return http
    }

    /** The body of an answer of the platform client (error answers to streamed downloads), failing past MAX_RESPONSE_BYTES. */
    const readBounded = (response: HttpClientResponse.HttpClientResponse, url: string, provider: string) =>
      response.stream.pipe(
        Stream.runFoldEffect({ size: 0, chunks: [] as Array<Uint8Array> }, (state, chunk) => {
          const size = state.size + chunk.length
          if (size > MAX_RESPONSE_BYTES) {
            return Effect.fail(new ProviderTransportError({
              reason: "too_large",
              message: `${provider} answered ${response.status} with a response larger than ${MAX_RESPONSE_BYTES} bytes`,
              url
            }))
          }
          state.chunks.push(chunk)
          return Effect.succeed({ size, chunks: state.chunks })
        }),
        Effect.map(({ chunks, size }) => {
          const bytes = new Uint8Array(size)
          let offset = 0
          for (const chunk of chunks) {
            bytes.set(chunk, offset)
            offset += chunk.length
          }
          return bytes
        })
      )

    const tooLarge = (url: string, size: number | undefined) =>
      new ProviderTransportError({
        reason: "too_large",
        message: `provider document ${size === undefined ? "" : `of ${size} bytes `}exceeds ${config.maxDownloadBytes} bytes`,
        url
      })

    /**
     * A 2xx body left on the socket: bounded by Content-Length up front and by counting as it
     * streams, failing when the provider goes quiet for `idle`. The client's response ends the
     * request (connection released) when its stream ends, fails or is interrupted; one never
     * run is aborted once garbage collected. So no scope here: closing one would cut the body.
     */
    const streamed = (response: HttpClientResponse.HttpClientResponse, url: string, idle: Duration.Duration) => {
      const announced = contentLengthOf(response.headers["content-length"])
      if (announced !== undefined && announced > config.maxDownloadBytes) {
        // running the body's stream (one chunk at most) aborts the request
        return Effect.zipRight(
          Effect.forkDaemon(Effect.ignore(Stream.runDrain(Stream.take(response.stream, 1)))),
          Effect.fail(tooLarge(url, announced))
        )
      }
      const bytes = Stream.suspend(() => {
        let size = 0
        return response.stream.pipe(
          Stream.mapError(() =>
            new ProviderTransportError({ reason: "unreachable", message: "provider connection failed during the download", url })
          ),
          Stream.timeoutFail(
            () => new ProviderTransportError({ reason: "timeout", message: `provider sent nothing for ${Duration.format(idle)}`, url }),
            idle
          ),
          Stream.mapChunksEffect((chunk) => {
            size += Chunk.reduce(chunk, 0, (total, part) => total + part.length)
            return size > config.maxDownloadBytes ? Effect.fail(tooLarge(url, undefined)) : Effect.succeed(chunk)
          })
        )
      })
      return Effect.succeed(new StreamedBody(bytes, announced))
    }

    /**
     * What an answer read whole says: its body parsed as the request's `responseType` asks. A 2xx
     * body that claims JSON and does not parse is the provider's fault (`invalid_response`, never
     * retried: a write may have been done).
     */
    const answerOf = (
      request: ProviderRequest,
      status: number,
      headers: Readonly<Record<string, string>>,
      bytes: Uint8Array,
      redactedUrl: string,
      provider: string
    ): Effect.Effect<ProviderResponse, ProviderTransportError> => {
      const body = decodeBody(bytes, headers["content-type"], request.responseType)
      if (body !== malformedJson) return Effect.succeed({ status, headers, body })
      const text = new TextDecoder().decode(bytes)
      return isSuccess(status)
        ? Effect.fail(new ProviderTransportError({
          reason: "invalid_response",
          message: `${provider} answered ${status} with a body that is not valid JSON`,
          url: redactedUrl,
          response: { status, headers, body: redactText(text, request.secrets) }
        }))
        : Effect.succeed({ status, headers, body: text })
    }

    const timedOut = (timeout: Duration.Duration, url: string) =>
      new ProviderTransportError({
        reason: "timeout",
        message: `provider did not answer within ${Duration.format(timeout)}`,
        url
      })

    /** No answer; `neverConnected`: nothing reached the provider, which the retry schedule is told. */
    const unreachable = (url: string, why: string, neverConnected: boolean) => {
      const failure = new ProviderTransportError({ reason: "unreachable", message: `provider unreachable: ${why}`, url })
      return neverConnected ? new UndeliveredCall({ failure }) : failure
    }

    /** One attempt whose answer is read whole (JSON, text or bytes), within `timeout`. */
    const bufferedAttempt = (request: ProviderRequest, timeout: Duration.Duration, redactedUrl: string, provider: string) =>
      (request.foreign === true ? outbound.foreignSend : outbound.send)(toHttpRequest(request), {
        timeoutMs: Duration.toMillis(timeout),
        maxBytes: MAX_RESPONSE_BYTES
      }).pipe(
        Effect.catchTags({
          OutboundTimeout: () => Effect.fail(timedOut(timeout, redactedUrl)),
          OutboundTooLarge: ({ status }) =>
            Effect.fail(new ProviderTransportError({
              reason: "too_large",
              message: `${provider} answered ${status} with a response larger than ${MAX_RESPONSE_BYTES} bytes`,
              url: redactedUrl
            })),
          OutboundUnreachable: ({ cause, neverConnected }) => {
            const code = errorCodeOf(cause)
            return Effect.fail(unreachable(redactedUrl, `connection failed${code === undefined ? "" : ` (${code})`}`, neverConnected))
          }
        }),
        Effect.flatMap((answer) => answerOf(request, answer.status, answer.headers, answer.bytes, redactedUrl, provider))
      )

    /**
     * One attempt of a `stream` request: a 2xx body is left on the socket (`idle` bounds each
     * wait of it), other answers are read whole, within `timeout` up to the answer.
     */
    const streamingAttempt = (
      request: ProviderRequest,
      timeout: Duration.Duration,
      redactedUrl: string,
      idle: Duration.Duration,
      provider: string
    ) =>
      (request.foreign === true ? outbound.foreignClient : outbound.client).execute(toHttpRequest(request)).pipe(
        Effect.flatMap((response) =>
          isSuccess(response.status)
            ? Effect.map(streamed(response, redactedUrl, idle), (body): ProviderResponse => ({
              status: response.status,
              headers: response.headers,
              body
            }))
            : Effect.flatMap(
              readBounded(response, redactedUrl, provider),
              (bytes) => answerOf(request, response.status, response.headers, bytes, redactedUrl, provider)
            )
        ),
        Effect.timeoutFail({ duration: timeout, onTimeout: () => timedOut(timeout, redactedUrl) }),
        Effect.catchTag("RequestError", "ResponseError", (error) =>
          Effect.fail(unreachable(
            redactedUrl,
            error.reason === "Transport" ? "connection failed" : error.reason,
            error._tag === "RequestError" && neverConnected(error.cause)
          )))
      )

    /** One attempt: a response of any status, or a transport failure. */
    const attempt = (
      request: ProviderRequest,
      timeout: Duration.Duration,
      redactedUrl: string,
      idle: Duration.Duration,
      provider: string
    ) =>
      request.responseType === "stream"
        ? streamingAttempt(request, timeout, redactedUrl, idle, provider)
        : bufferedAttempt(request, timeout, redactedUrl, provider)

    /** One admitted attempt: waits its rate slot and a connection permit; a retryable answer fails. */
    const admittedAttempt = (
      request: ProviderRequest,
      { permits, slots }: AccountLimits,
      admission: Admission,
      policy: RetryPolicy,
      deadline: number,
      redactedUrl: string,
      provider: string,
      number: number
    ) => {
      let waiting = true
      const leave = Effect.sync(() => {
        if (waiting) slots.leave()
        waiting = false
      })
      const timeout = Effect.map(
        Clock.currentTimeMillis,
        (now) => Duration.millis(Math.max(1, Math.min(Duration.toMillis(policy.requestTimeout), deadline - now)))
      )
      return waitForRateSlot(admission.waitMs).pipe(
        Effect.zipRight(permits.withPermits(1)(Effect.zipRight(
          leave,
          Effect.flatMap(timeout, (timeout) =>
            attempt(request, timeout, redactedUrl, policy.requestTimeout, provider).pipe(
              Effect.tap((response) => Effect.annotateCurrentSpan("http.response.status_code", response.status)),
              Effect.withSpan("ProviderHttp.attempt", {
                attributes: { "switchyard.provider.attempt": number },
                captureStackTrace: false
              })
            ))
        ))),
        Effect.ensuring(leave),
        Effect.filterOrElse(
          (response) => !retryableStatus(request.method, response.status),
          (response) => new RetryableAnswer({ response, retryAfter: parseRetryAfter(response.headers["retry-after"]) })
        )
      )
    }

    /** The call with its account's limits: admitted (or refused) once, then tried as `retrySchedule` allows. */
    const sendWithin = (
      limits: AccountLimits,
      request: ProviderRequest,
      options: TransportOptions,
      caller: string,
      recorder: CallRecorder | undefined
    ) =>
      Effect.gen(function*() {
        const policy = { ...configuredPolicy, ...options.policy }
        const redactedUrl = redactText(request.url, request.secrets)
        const provider = options.provider ?? "the provider"
        const started = yield* Clock.currentTimeMillis
        const deadline = started + Duration.toMillis(policy.deadline)
        const record = (response: ProviderResponse | null) =>
          recorder === undefined ? Effect.void : Effect.flatMap(Clock.currentTimeMillis, (now) =>
            Ref.update(recorder.calls, (calls) => [...calls, { request, response, durationMs: now - started }]))

        // only a new call may be refused: a retry of an admitted one takes its turn
        const first = shared === undefined
          ? limits.slots.admit(started)
          : yield* admitShared(limits, options, caller, redactedUrl, started, true)
        if (first._tag === "Refused") {
          recordRateLimitRefusal(options.provider, first.why)
          recordProviderCall(options.provider, options.action, "rate_limited", 0, 0)
          return yield* rateLimitedError(first, options, redactedUrl)
        }
        let attempts = 0
        const once = Effect.flatMap(Clock.currentTimeMillis, (now) => {
          if (attempts === 0 || shared === undefined) {
            const admission = attempts === 0 ? first : limits.slots.admit(now, false)
            attempts++
            recordRateLimitWait(options.provider, admission.waitMs)
            return admittedAttempt(request, limits, admission, policy, deadline, redactedUrl, provider, attempts)
          }
          return Effect.flatMap(admitShared(limits, options, caller, redactedUrl, now, false), (admission) => {
            attempts++
            recordRateLimitWait(options.provider, admission.waitMs)
            // unbounded: neither this process's slots nor the store refuse a retry
            return admittedAttempt(request, limits, admission as Admission, policy, deadline, redactedUrl, provider, attempts)
          })
        })
        const measured = (outcome: string) =>
          metricsEnabled()
            ? Effect.map(Clock.currentTimeMillis, (now) =>
              recordProviderCall(options.provider, options.action, outcome, attempts, (now - started) / 1000))
            : Effect.void
        const outcome = (status: number | undefined) =>
          Effect.annotateCurrentSpan({
            "switchyard.provider.attempts": attempts,
            ...(status === undefined ? {} : { "http.response.status_code": status })
          })
        return yield* once.pipe(
          retriedAfterFailure(retrySchedule(policy, request.method, deadline)),
          Effect.matchEffect({
            onSuccess: (response) =>
              Effect.zipRight(
                Effect.zipRight(outcome(response.status), measured(answerOutcome(response.status))),
                Effect.as(record(response), response)
              ),
            onFailure: (attemptFailure) => {
              // an undelivered call fails as any call without an answer; only the schedule told them apart
              const failure = attemptFailure._tag === "UndeliveredCall" ? attemptFailure.failure : attemptFailure
              if (failure._tag !== "RetryableAnswer") {
                return Effect.zipRight(
                  Effect.zipRight(outcome(failure.response?.status), measured(failure.reason)),
                  Effect.zipRight(record(failure.reason === "invalid_response" ? failure.response ?? null : null), failure)
                )
              }
              return Effect.zipRight(
                Effect.zipRight(
                  outcome(failure.response.status),
                  measured(failure.response.status === 429 ? "rate_limited" : "unavailable")
                ),
                Effect.zipRight(
                  record(failure.response),
                  new ProviderTransportError({
                    reason: failure.response.status === 429 ? "rate_limited" : "unavailable",
                    message: `provider answered ${failure.response.status} after ${attempts} attempt(s)`,
                    url: redactedUrl,
                    retryAfter: failure.retryAfter,
                    response: { ...failure.response, body: redactValue(failure.response.body, request.secrets) }
                  })
                )
              )
            }
          })
        )
      })

    const send = (options: TransportOptions, recorder: CallRecorder | undefined) => {
      const caller = callerKey(options.caller)
      return (request: ProviderRequest) =>
        Effect.zipRight(
          checkProviderUrl(request.url, request.foreign === true),
          // with a shared store, the process's slots only bound the calls waiting here
          limiters.use(caller, shared === undefined ? options.requestsPerSecond : undefined, (limits) =>
            sendWithin(limits, request, options, caller, recorder))
        ).pipe(
          Effect.withSpan("ProviderHttp.call", {
            kind: "client",
            attributes: callAttributes(request, options, caller),
            captureStackTrace: false
          })
        )
    }

    /** A transport for the calls of one caller (one run of an account's action, one credential check). */
    const transport = (options: TransportOptions, recorder?: CallRecorder) =>
      ProviderTransport.of({ send: send(options, recorder) })

    const recorder = Effect.map(Ref.make<ReadonlyArray<RecordedCall>>([]), (calls): CallRecorder => ({ calls }))

    /**
     * Runs `effect` with the caller's transport (its limits, retries and outbound policy), and
     * answers how it ended with the provider calls it made. A defect or an interruption is in
     * `exit` too: `yield* exit` passes it on as it came.
     */
    const withTransport = <A, E, R>(
      options: CallerTransport,
      effect: Effect.Effect<A, E, R>
    ): Effect.Effect<WithCalls<A, E>, never, Exclude<R, ProviderTransport>> =>
      Effect.gen(function*() {
        const { recorder: given, ...transportOptions } = options
        const calls = given ?? (yield* recorder)
        const exit = yield* Effect.exit(Effect.provideService(effect, ProviderTransport, transport(transportOptions, calls)))
        return { exit, calls: yield* Ref.get(calls.calls) }
      })

    return { transport, recorder, withTransport } as const
  })
}) {}
