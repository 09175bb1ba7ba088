import {
  type ActionError,
  ActionInputError,
  canonicalJson,
  credentialSecrets,
  defaultRunLimits,
  ForeignFailure,
  inputsFromRequest,
  PROXY_ACTION_ID,
  type ProxyCall,
  type ProviderResponse,
  type ProviderTransport,
  runAction,
  type RunContext,
  sendProxyRequest,
  sha256Hex
} from "@switchyard/engine"
import { Effect, Exit, Option } from "effect"
import { providerAddresses } from "../accounts/providerAddresses.js"
import type { AccountBlocked, AccountNotFound } from "../accounts/AccountErrors.js"
import { LastRequestTracker } from "../accounts/LastRequestTracker.js"
import { SwitchyardConfig } from "../../platform/Config.js"
import { ActionNotFound } from "../connectors/ConnectorErrors.js"
import { TokenRefresher } from "../tokenRefresh/TokenRefresher.js"
import { ProviderCaller, ProviderHttp, type RawCall, type RecordedCall, redactCall } from "../../platform/outboundHttp/ProviderHttp.js"
import { loggedBody } from "../../platform/outboundHttp/loggedBody.js"
import { type AccountContext, AccountContexts } from "../accounts/AccountContext.js"
import { redactActionFailure } from "./redactActionFailure.js"
import {
  ActionNotEnabled,
  type ActionRunError,
  AnswerMisfit,
  IdempotencyConflict,
  IdempotencyKeyReused,
  ProxyNotSupported
} from "./ActionRunErrors.js"
import { IdempotencyRepo } from "./IdempotencyRepo.js"
import { RunAnswers } from "./RunAnswers.js"
import { incomingCall } from "./incomingCall.js"
import { providerCallSummary } from "./providerCallSummary.js"
import { RequestLog, type RequestLogEntry } from "../requestLogs/RequestLog.js"

export interface ActionRequestParts {
  readonly query?: Readonly<Record<string, unknown>> | undefined
  readonly path?: Readonly<Record<string, unknown>> | undefined
  readonly body?: unknown
  readonly headers?: Readonly<Record<string, string>> | undefined
}

export interface RunOptions {
  readonly kind: "rpc" | "unified" | "mcp"
  /** Flat inputs, used as they are (unified and MCP calls); otherwise assembled from the parts. */
  readonly inputs?: Readonly<Record<string, unknown>> | undefined
  readonly idempotencyKey?: string | undefined
  /** `stream` passes downloaded files on unread (the unified download); JSON answers need `bytes`. */
  readonly downloads?: "bytes" | "stream" | undefined
  /** The account as this request already resolved it (MCP lists the tools from it), not read again. */
  readonly context?: AccountContext | undefined
  /**
   * What keeps a run's result from being answered, as `path: expectation` issues (a unified
   * record that does not fit its schema), or undefined: checked before the run is logged, so a
   * refused result fails the run as `AnswerMisfit` (502) in the log too. Not run on a replay.
   */
  readonly accept?: ((result: ActionRunResult) => string | undefined) | undefined
}

export interface ActionRunResult {
  /** The key of the account's connector: the provider an answer came from, as errors name it. */
  readonly provider: string
  readonly data: unknown
  readonly next: unknown
  /** The provider calls, redacted; computed only when asked for. */
  readonly raw: () => ReadonlyArray<RawCall>
}

const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60
/** Added to the longest a run may last before its claim counts as abandoned even if its process lives. */
const ABANDONED_MARGIN_MS = 60_000
const readActionTypes = new Set(["list", "get"])
/**
 * A failure met inside a run (by its refresh hook or its claim's watch), outside the engine's
 * own failures: the engine carries it through as the run's `ForeignFailure` and the run fails
 * with it as it is (never redacted: it carries no provider data).
 */
type FailureWithinRun = AccountBlocked | AccountNotFound | IdempotencyConflict

const isFailureWithinRun = (failure: ActionError | FailureWithinRun): failure is FailureWithinRun =>
  failure._tag === "AccountBlocked" || failure._tag === "AccountNotFound" || failure._tag === "IdempotencyConflict"

/**
 * Runs one connector action for one account: account-state rules, profile enablement,
 * provider HTTP for the account, error mapping, request log and `last_request`, and for
 * writes with an Idempotency-Key a replay of the first result. The unified proxy's requests
 * go through the same account run (`proxy`).
 */
export class ActionRunner extends Effect.Service<ActionRunner>()("Switchyard/ActionRunner", {
  effect: Effect.gen(function*() {
    const contexts = yield* AccountContexts
    const providerHttp = yield* ProviderHttp
    const lastRequests = yield* LastRequestTracker
    const requestLog = yield* RequestLog
    const runAnswers = yield* RunAnswers
    const idempotency = yield* IdempotencyRepo
    const config = yield* SwitchyardConfig
    const refresher = yield* TokenRefresher
    // No run outlives the provider deadline or the action timeout: a claim older than both
    // (plus a margin) was abandoned, whatever its process's heartbeat says.
    const abandonedAfterSeconds = Math.ceil(
      (Math.max(config.providerDeadlineMs, defaultRunLimits.actionTimeoutMs) + ABANDONED_MARGIN_MS) / 1000
    )

    /**
     * One piece of provider work for an account (an action run, a proxy call): `last_request`,
     * the account's transport (its rate limit and retries), fresh OAuth2 credentials and their
     * renewal on a 401, every failure redacted of the account's secrets, and one request log
     * entry with the status and message the caller is answered with.
     */
    const runForAccount = <A>(
      projectId: string,
      accountId: string,
      context: AccountContext,
      started: number,
      kind: RequestLogEntry["kind"],
      logAction: string,
      work: (runContext: RunContext<FailureWithinRun>) => Effect.Effect<A, ActionError | FailureWithinRun, ProviderTransport>,
      /** Checked before each provider request (a keyed write's claim is still this process's). */
      beforeEachRequest?: Effect.Effect<void, IdempotencyConflict>,
      /** What keeps a finished run's value from being answered (see `RunOptions.accept`); undefined when nothing does. */
      accept?: (value: A, calls: ReadonlyArray<RecordedCall>) => string | undefined
    ): Effect.Effect<{ readonly value: A; readonly calls: ReadonlyArray<RecordedCall> }, ActionError | FailureWithinRun | AnswerMisfit> =>
      Effect.gen(function*() {
        // what must never leave in a capture, log or error: all but fields declared `secret: false`,
        // of every credentials the run uses (refreshed ones join)
        const secrets = [...credentialSecrets(context.connector, context.credentials)]
        const using = (credentials: Readonly<Record<string, unknown>>) => {
          if (credentials !== context.credentials) secrets.push(...credentialSecrets(context.connector, credentials))
          return credentials
        }
        // the run's calls and those of its token refresh, in the order they were made
        const recorder = yield* providerHttp.recorder
        const settings = context.account.settings
        // only accounts holding an authorization-code OAuth2 token ever refresh; others read nothing more
        const refreshable = refresher.refreshable(context)
        const refreshAccessToken = (rejectedAccessToken: string) =>
          refresher.afterRejection(context, rejectedAccessToken, recorder).pipe(
            Effect.map(using),
            Effect.flatMap((credentials) =>
              typeof credentials.accessToken === "string"
                ? Effect.succeed(credentials.accessToken)
                : Effect.fail(ActionInputError.fromIssues([{ input: "credentials.accessToken", message: "is missing after the refresh" }]))
            ),
            // an account found blocked or gone meanwhile is the caller's failure, not the run's
            Effect.mapError((failure) =>
              failure._tag === "AccountBlocked" || failure._tag === "AccountNotFound" ? new ForeignFailure(failure) : failure
            )
          )
        const run = Effect.gen(function*() {
          const credentials = refreshable ? using(yield* refresher.fresh(context, recorder)) : context.credentials
          return yield* work({
            credentials,
            settings,
            authMethod: context.account.auth_method ?? undefined,
            ...providerAddresses(context.connector.definition, settings),
            ...(refreshable ? { refreshAccessToken } : {}),
            ...(beforeEachRequest === undefined ? {} : { beforeEachRequest })
          })
        }).pipe(
          Effect.mapError((failure) => isFailureWithinRun(failure) ? failure : redactActionFailure(failure, secrets))
        )

        const runAndLog = Effect.gen(function*() {
          const { calls, exit: ran } = yield* providerHttp.withTransport({
            caller: ProviderCaller.Account({ accountId }),
            provider: context.version.key,
            action: logAction,
            requestsPerSecond: context.connector.definition.rateLimit?.mainRatelimit,
            recorder
          }, run)
          // a value the caller cannot be answered with fails the run here, so the log says what the caller gets
          const misfit = ran._tag === "Success" && accept !== undefined ? accept(ran.value, calls) : undefined
          const exit = misfit === undefined ? ran : Exit.fail(new AnswerMisfit({ provider: context.version.key, issues: misfit }))
          // the log keeps the status and message the caller is answered with
          const answer = exit._tag === "Failure" && exit.cause._tag === "Fail" ? runAnswers.answerOf(exit.cause.error) : undefined
          const status = exit._tag === "Success" ? 200 : answer?.status ?? 500
          yield* requestLog.record({
            projectId,
            accountId,
            provider: context.version.key,
            incoming: yield* incomingCall(config.publicUrl),
            kind,
            action: logAction,
            status,
            durationMs: Date.now() - started,
            providerCalls: calls.map((call) => {
              const summary = providerCallSummary(call)
              if (!context.requestLogBodies) return summary
              // redacting costs as much as for raw=true: paid only by projects that keep bodies
              const shown = redactCall(call)
              return { ...summary, requestBody: loggedBody(shown.body), responseBody: loggedBody(shown.response?.body) }
            }),
            error: answer?.message ?? null,
            at: new Date(started)
          })
          return { value: yield* exit, calls }
        })
        return yield* runAndLog
      })

    const execute = (
      projectId: string,
      accountId: string,
      actionId: string,
      parts: ActionRequestParts,
      options: RunOptions
    ): Effect.Effect<ActionRunResult, ActionRunError> =>
      Effect.gen(function*() {
        const started = Date.now()
        const context = options.context ?? (yield* contexts.resolve(projectId, accountId))
        yield* Effect.annotateCurrentSpan({
          "switchyard.connector.key": context.version.key,
          "switchyard.connector.version": context.version.version
        })
        const action = context.connector.definition.actions.find((candidate) => candidate.actionId === actionId)
        if (action === undefined) {
          return yield* new ActionNotFound({
            connectorKey: context.version.key,
            connectorVersion: context.version.version,
            actionId,
            kind: "action"
          })
        }
        if (context.profile !== undefined && !context.profile.enabled_actions.includes(actionId)) {
          return yield* new ActionNotEnabled({ actionId, profileId: context.profile.id })
        }
        yield* lastRequests.touch(accountId)
        const resultOf = (value: { readonly data: unknown; readonly next: unknown }, calls: ReadonlyArray<RecordedCall>): ActionRunResult => ({
          provider: context.version.key,
          data: value.data,
          next: value.next,
          raw: () => calls.map(redactCall)
        })
        const accept = options.accept === undefined
          ? undefined
          : (value: { readonly data: unknown; readonly next: unknown }, calls: ReadonlyArray<RecordedCall>) =>
            options.accept!(resultOf(value, calls))
        const runToResult = (beforeEachRequest?: Effect.Effect<void, IdempotencyConflict>) =>
          Effect.map(
            runForAccount(projectId, accountId, context, started, options.kind, actionId, (runContext) =>
              runAction(context.connector, actionId, options.inputs ?? inputsFromRequest(action, parts), {
                ...runContext,
                downloads: options.downloads
              }), beforeEachRequest, accept),
            ({ calls, value }) => resultOf(value, calls)
          )

        const key = options.idempotencyKey
        if (key === undefined || readActionTypes.has(action.actionType)) return yield* runToResult()
        const scope = { projectId, accountId, key }
        const requestHash = sha256Hex(canonicalJson({ actionId, parts, inputs: options.inputs ?? null }))
        // watched from before the claim: a missed heartbeat after it may have let another process take it over
        const stillOurs = idempotency.watch(scope)
        if (!(yield* idempotency.claim(scope, requestHash, IDEMPOTENCY_TTL_SECONDS, abandonedAfterSeconds))) {
          const existing = yield* idempotency.find(scope)
          if (Option.isNone(existing)) {
            return yield* new IdempotencyConflict({ key, state: "releasing", retryAfterSeconds: 1 })
          }
          if (existing.value.request_hash !== requestHash) {
            return yield* new IdempotencyKeyReused({ key })
          }
          if (existing.value.state === "running") {
            // a run of a process that was killed becomes recoverable within a few heartbeats
            return yield* new IdempotencyConflict({
              key,
              state: "running",
              retryAfterSeconds: config.instanceHeartbeatSeconds
            })
          }
          const stored = existing.value.response as { readonly data: unknown; readonly next: unknown }
          yield* Effect.annotateCurrentSpan("switchyard.idempotency.replayed", true)
          return { provider: context.version.key, data: stored.data, next: stored.next, raw: () => [] }
        }
        // a claim taken over stops the run before its next provider request: the other process runs the write
        const ours = Effect.flatMap(stillOurs, (held) =>
          held ? Effect.void : new IdempotencyConflict({ key, state: "taken_over", retryAfterSeconds: 1 }))
        return yield* runToResult(ours).pipe(
          Effect.tap((result) => idempotency.complete(scope, { data: result.data, next: result.next ?? null })),
          Effect.onError(() => idempotency.release(scope))
        )
      }).pipe(Effect.withSpan("ActionRunner.execute", {
        captureStackTrace: false,
        attributes: {
          "switchyard.call.kind": options.kind,
          "switchyard.project.id": projectId,
          "switchyard.account.id": accountId,
          "switchyard.action.id": actionId
        }
      }))

    /**
     * The caller's own request to the account's provider (`POST /unified/proxy`), with the
     * account's authentication, limits, retries and request log as an action run has them.
     * No profile enablement: the proxy is not an action of the connector.
     */
    const proxy = (
      projectId: string,
      accountId: string,
      call: ProxyCall
    ): Effect.Effect<ProviderResponse, ActionRunError | ProxyNotSupported> =>
      Effect.gen(function*() {
        const started = Date.now()
        const context = yield* contexts.resolve(projectId, accountId)
        if (context.connector.definition.baseUrl === undefined && typeof context.account.settings.base_url !== "string") {
          return yield* new ProxyNotSupported({ connectorKey: context.version.key, connectorVersion: context.version.version })
        }
        yield* lastRequests.touch(accountId)
        const { value } = yield* runForAccount(projectId, accountId, context, started, "unified", PROXY_ACTION_ID, (runContext) =>
          sendProxyRequest(context.connector, call, runContext))
        return value
      }).pipe(Effect.withSpan("ActionRunner.proxy", {
        captureStackTrace: false,
        attributes: { "switchyard.project.id": projectId, "switchyard.account.id": accountId }
      }))

    return { execute, proxy } as const
  }),
  dependencies: [
    AccountContexts.Default,
    ProviderHttp.Default,
    TokenRefresher.Default,
    LastRequestTracker.Default,
    RequestLog.Default,
    IdempotencyRepo.Default
  ]
}) {}
