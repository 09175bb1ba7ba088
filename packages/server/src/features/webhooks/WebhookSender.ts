import { HttpClientRequest } from "@effect/platform"
import { Cause, Effect, Layer, Option, Schema } from "effect"
import * as Crypto from "node:crypto"
import * as Os from "node:os"
import { SwitchyardConfig } from "../../platform/Config.js"
import { CredentialCipher } from "../../platform/crypto/CredentialCipher.js"
import { type BufferedAnswer, OutboundHttp, type OutboundFailure } from "../../platform/outboundHttp/OutboundHttp.js"
import { checkOutboundUrl } from "../../platform/outboundHttp/OutboundUrlGuard.js"
import { WebhookWakeup } from "./WebhookOutbox.js"
import { webhookSignature } from "./webhookSignature.js"
import { type AttemptOutcome, type ClaimedDelivery, WebhooksRepo } from "./WebhooksRepo.js"
import { recordWebhookAttempt } from "../../platform/metrics/ServerMetrics.js"

/** Only the status matters; a receiver's long answer is not read past this. */
const MAX_ANSWER_BYTES = 64 * 1024
const MAX_RETRY_AFTER_SECONDS = 86_400

/** `Retry-After` as seconds: a number of seconds or an HTTP date. */
export const retryAfterSeconds = (value: string | undefined, now: number): number | undefined => {
  if (value === undefined) return undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) return Math.min(Number(text), MAX_RETRY_AFTER_SECONDS)
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.min(Math.max(0, (at - now) / 1000), MAX_RETRY_AFTER_SECONDS)
}

/** The body every attempt sends: `data` is spliced in as stored, so each attempt sends the same bytes. */
export const webhookBody = (claimed: ClaimedDelivery) =>
  `{"id":${JSON.stringify(claimed.event_id)},"type":${JSON.stringify(claimed.event_type)},"created_at":${
    JSON.stringify(claimed.event_created_at.toISOString())
  },"sequence":${claimed.sequence},"data":${claimed.data}}`

const describeOutboundFailure = (failure: OutboundFailure, timeoutMs: number) => {
  switch (failure._tag) {
    case "OutboundTimeout":
      return `no answer within ${timeoutMs} ms`
    case "OutboundTooLarge":
      return `answer longer than ${MAX_ANSWER_BYTES} bytes`
    case "OutboundUnreachable": {
      const cause = failure.cause as { readonly message?: unknown; readonly code?: unknown; readonly cause?: unknown }
      const inner = cause?.cause as { readonly message?: unknown } | undefined
      const message = typeof inner?.message === "string" ? inner.message : typeof cause?.message === "string" ? cause.message : String(cause)
      return `unreachable: ${message}`.slice(0, 500)
    }
  }
}

/**
 * Sends due deliveries: signs each per Standard Webhooks, treats any 2xx as delivered, backs
 * off with jitter along the configured schedule (never sooner than the receiver's
 * `Retry-After`), disables an endpoint that answers 410 Gone.
 */
export class WebhookSender extends Effect.Service<WebhookSender>()("Switchyard/WebhookSender", {
  effect: Effect.gen(function*() {
    const config = yield* SwitchyardConfig
    const repo = yield* WebhooksRepo
    const cipher = yield* CredentialCipher
    const outbound = yield* OutboundHttp
    const settings = config.webhooks
    /** This process, as the holder of the leases it takes. */
    const holder = `${Os.hostname()}/${process.pid}/${Crypto.randomUUID()}`

    const MAX_RETRY_AFTER_SECONDS = 86_400

    const secretsOf = (claimed: ClaimedDelivery) =>
      Effect.forEach(
        [
          { ciphertext: claimed.secret_ciphertext, keyId: claimed.secret_key_id },
          ...(claimed.previous_secret_ciphertext === null || claimed.previous_secret_key_id === null
            ? []
            : [{ ciphertext: claimed.previous_secret_ciphertext, keyId: claimed.previous_secret_key_id }])
        ],
        (sealed) => cipher.open(Schema.String, sealed)
      )

    /**
     * The failure of attempt number `claimed.attempts + 1`: when to try again, if at all. A
     * receiver's Retry-After is honoured up to a day: a year's wait would leave the delivery
     * pending long after its event stopped meaning anything.
     */
    const failed = (
      claimed: ClaimedDelivery,
      statusCode: number | null,
      error: string | null,
      retryAfter: number | undefined
    ): AttemptOutcome => {
      const scheduled = settings.retrySeconds[claimed.attempts]
      // ±20% so the retries of many deliveries that failed together do not arrive together
      const jittered = scheduled === undefined ? undefined : scheduled * (0.8 + 0.4 * Math.random())
      return {
        _tag: "Failed",
        statusCode,
        error,
        retryInSeconds: jittered === undefined ? Option.none() : Option.some(Math.max(jittered, Math.min(retryAfter ?? 0, MAX_RETRY_AFTER_SECONDS))),
        disableReason: null
      }
    }

    // A redirect is a failure like any other non-2xx: following it would call an address the
    // guard never vetted, and a receiver that moved can have its URL patched.
    const judge = (claimed: ClaimedDelivery, answer: BufferedAnswer): AttemptOutcome => {
      if (answer.status >= 200 && answer.status < 300) return { _tag: "Delivered", statusCode: answer.status }
      if (answer.status === 410) {
        return {
          _tag: "Failed",
          statusCode: 410,
          error: null,
          retryInSeconds: Option.none(),
          disableReason: "the endpoint answered 410 Gone"
        }
      }
      return failed(claimed, answer.status, null, retryAfterSeconds(answer.headers["retry-after"], Date.now()))
    }

    const attempt = (claimed: ClaimedDelivery): Effect.Effect<AttemptOutcome> =>
      Effect.gen(function*() {
        // Checked at every send as well as at create: DNS may now answer a private address.
        const url = yield* checkOutboundUrl(claimed.url, config.outboundAllowlist)
        const secrets = yield* secretsOf(claimed)
        const body = webhookBody(claimed)
        const timestamp = Math.floor(Date.now() / 1000)
        const request = HttpClientRequest.post(url.toString()).pipe(
          HttpClientRequest.bodyText(body, "application/json"),
          HttpClientRequest.setHeaders({
            "user-agent": "Switchyard-Webhooks/1",
            "webhook-id": claimed.event_id,
            "webhook-timestamp": String(timestamp),
            "webhook-signature": webhookSignature(secrets, claimed.event_id, timestamp, body)
          })
        )
        return yield* outbound.send(request, { timeoutMs: settings.timeoutMs, maxBytes: MAX_ANSWER_BYTES }).pipe(
          Effect.map((answer) => judge(claimed, answer)),
          Effect.catchAll((failure) =>
            Effect.succeed(
              failure._tag === "OutboundTooLarge"
                ? judge(claimed, { status: failure.status, headers: {}, bytes: new Uint8Array() })
                : failed(claimed, null, describeOutboundFailure(failure, settings.timeoutMs), undefined)
            )
          )
        )
      }).pipe(
        Effect.catchTags({
          OutboundUrlRefused: (refused) => Effect.succeed(failed(claimed, null, refused.message, undefined)),
          CipherError: (error) => Effect.succeed(failed(claimed, null, error.message, undefined)),
          SealedValueMismatch: (error) => Effect.succeed(failed(claimed, null, error.message, undefined))
        })
      )

    // Stopping mid-attempt gives the lease back, so the next process need not wait it out; the
    // receiver may have had the request already, which its dedup on webhook-id absorbs.
    // Its span names the delivery, endpoint, event type, attempt and outcome: never the URL
    // (receivers put tokens in it), the body, the signature or the receiver's error text.
    const deliver = (claimed: ClaimedDelivery) =>
      Effect.flatMap(
        attempt(claimed),
        (outcome) => {
          const result = outcome._tag === "Delivered" ? "delivered" : Option.isSome(outcome.retryInSeconds) ? "retrying" : "failed"
          recordWebhookAttempt(result)
          return Effect.zipRight(
            Effect.annotateCurrentSpan({
              "switchyard.webhook.outcome": result,
              ...(outcome.statusCode === null ? {} : { "http.response.status_code": outcome.statusCode })
            }),
            repo.recordAttempt(claimed, holder, outcome, settings.disableAfterSeconds)
          )
        }
      ).pipe(
        Effect.onInterrupt(() => repo.release(claimed.id, holder)),
        Effect.withSpan("WebhookSender.deliver", {
          kind: "producer",
          captureStackTrace: false,
          attributes: {
            "switchyard.webhook.delivery.id": claimed.id,
            "switchyard.webhook.endpoint.id": claimed.endpoint_id,
            "switchyard.webhook.event.type": claimed.event_type,
            "switchyard.webhook.attempt": claimed.attempts + 1
          }
        }),
        Effect.annotateLogs({ "webhook.delivery": claimed.id, "webhook.endpoint": claimed.endpoint_id })
      )

    /**
     * Claims one batch and sends it: an endpoint's deliveries one after another in event order,
     * endpoints side by side. The number claimed (a full batch means more may be due).
     */
    const claimAndSendBatch = Effect.gen(function*() {
      const claimed = yield* repo.claim(holder, settings.concurrency, settings.leaseSeconds)
      const byEndpoint = new Map<string, Array<ClaimedDelivery>>()
      for (const delivery of claimed) {
        const queue = byEndpoint.get(delivery.endpoint_id) ?? []
        queue.push(delivery)
        byEndpoint.set(delivery.endpoint_id, queue)
      }
      yield* Effect.forEach(
        byEndpoint.values(),
        (queue) => Effect.forEach(queue, deliver, { discard: true }),
        { concurrency: "unbounded", discard: true }
      )
      return claimed.length
    })

    return { claimAndSendBatch, holder } as const
  }),
  dependencies: [WebhooksRepo.Default, CredentialCipher.Default]
}) {}

/**
 * The delivery loop of this process, started with the server. Delivery is claimed in
 * PostgreSQL itself (`WebhooksRepo.claim`) rather than with pg-boss or graphile-worker: those
 * bring a second schema, their own migrations and a daemon or LISTEN connection, none of
 * which the embedded PGlite default can host, while one SKIP LOCKED query with a lease gives
 * several processes on one database each delivery once (at least once across a crash).
 */
export const WebhookWorkerLive = Layer.scopedDiscard(
  Effect.gen(function*() {
    const config = yield* SwitchyardConfig
    const sender = yield* WebhookSender
    const wakeup = yield* WebhookWakeup
    // a full batch goes round again at once; otherwise wait for the next poll
    const drain: Effect.Effect<void> = Effect.flatMap(
      sender.claimAndSendBatch,
      (count) => count >= config.webhooks.concurrency ? drain : Effect.void
    ).pipe(
      Effect.catchAllCause((cause) =>
        Effect.logWarning("webhook delivery round failed; the next poll tries again", Cause.squash(cause))
      )
    )
    // Between rounds, wait for the poll or for this process to commit deliveries
    // (`WebhookOutbox.transaction`), whichever comes first: a change made here is sent at once,
    // one made by another process on the same database within a poll. A wake-up during a round
    // is kept (the queue holds one) and starts the next round at once.
    yield* Effect.zipRight(drain, wakeup.wait(config.webhooks.pollMs)).pipe(
      Effect.forever,
      Effect.annotateLogs("job", "webhook_delivery"),
      Effect.forkScoped
    )
  })
).pipe(Layer.provide([WebhookSender.Default, WebhookWakeup.Default]))
