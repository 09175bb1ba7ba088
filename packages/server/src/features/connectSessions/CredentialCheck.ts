import {
  type ActionError,
  type AuthenticationMethod,
  credentialSecrets,
  type ParsedConnector,
  runAction
} from "@switchyard/engine"
import { Effect, Either } from "effect"
import { providerAddresses } from "../accounts/providerAddresses.js"
import { incomingCall } from "../actions/incomingCall.js"
import { providerCallSummary } from "../actions/providerCallSummary.js"
import { redactActionFailure } from "../actions/redactActionFailure.js"
import { RunAnswers } from "../actions/RunAnswers.js"
import { RequestLog } from "../requestLogs/RequestLog.js"
import { SwitchyardConfig } from "../../platform/Config.js"
import { projectContact } from "../projects/projectContact.js"
import { ProjectsRepo } from "../projects/ProjectsRepo.js"
import { callerKey, type ProviderCaller, ProviderHttp } from "../../platform/outboundHttp/ProviderHttp.js"
import { ConnectCredentialsRefused, ConnectProviderUnreachable } from "./ConnectSessionErrors.js"

export interface CredentialsToCheck {
  readonly projectId: string
  readonly connector: ParsedConnector
  readonly connectorName: string
  readonly methodName: string
  readonly method: AuthenticationMethod
  readonly credentials: Readonly<Record<string, unknown>>
  readonly settings: Readonly<Record<string, unknown>>
  /** Whom the calls are for in the outbound limits and the request log (no account exists yet). */
  readonly caller: ProviderCaller
}

/** The method's `testActions`, each `{action, required}` (a bare id is required). */
const testActionsOf = (method: AuthenticationMethod) =>
  (method.testActions ?? []).map((entry) =>
    typeof entry === "string" ? { action: entry, required: true } : { action: entry.action, required: entry.required !== false }
  )

/**
 * The provider never answered the check with a verdict on the credentials: no connection,
 * no answer in time, or only server errors after every retry.
 */
export const isUnreachable = (failure: ActionError): boolean =>
  failure._tag === "ProviderTransportError"
    ? failure.reason === "unreachable" || failure.reason === "timeout" || failure.reason === "unavailable"
    : failure._tag === "ProviderHttpError" && failure.status >= 500

/**
 * Runs the connector's `testActions` with credentials an end user entered, before anything
 * is stored: the first required one that fails refuses the link with the provider's reason,
 * or, when the provider could not be reached, with a sentence the end user can act on.
 * Calls go out like any action call (outbound policy, rate limits, retries), redacted, and
 * each check lands in the request log (source type `connect`) with its technical detail.
 */
export class CredentialCheck extends Effect.Service<CredentialCheck>()("Switchyard/CredentialCheck", {
  effect: Effect.gen(function*() {
    const providerHttp = yield* ProviderHttp
    const requestLog = yield* RequestLog
    const runAnswers = yield* RunAnswers
    const projects = yield* ProjectsRepo
    const config = yield* SwitchyardConfig

    /**
     * The end user's sentence for a provider the page could not reach; the detail (already
     * free of secrets) goes to the server log.
     */
    const unreachable = (projectId: string, connectorName: string, detail: string) =>
      Effect.gen(function*() {
        yield* Effect.logWarning(`connect page: ${connectorName} could not be reached: ${detail}`)
        const project = yield* projects.findProject(projectId)
        return new ConnectProviderUnreachable({
          connectorName,
          contact: projectContact(project._tag === "Some" ? project.value.name : undefined),
          detail
        })
      })

    const refusal = (
      input: CredentialsToCheck,
      failure: ActionError
    ): Effect.Effect<ConnectCredentialsRefused | ConnectProviderUnreachable> =>
      isUnreachable(failure)
        ? unreachable(input.projectId, input.connectorName, failure.message)
        : Effect.succeed(new ConnectCredentialsRefused({ connectorName: input.connectorName, failure }))

    const check = (input: CredentialsToCheck): Effect.Effect<void, ConnectCredentialsRefused | ConnectProviderUnreachable> =>
      Effect.gen(function*() {
        const secrets = [...credentialSecrets(input.connector, input.credentials)]
        const settings = input.settings
        const provider = input.connector.definition.info.key
        for (const test of testActionsOf(input.method)) {
          const started = Date.now()
          const { calls, exit } = yield* providerHttp.withTransport({
            caller: input.caller,
            provider,
            requestsPerSecond: input.connector.definition.rateLimit?.mainRatelimit
          }, runAction(input.connector, test.action, {}, {
            credentials: input.credentials,
            settings,
            authMethod: input.methodName,
            ...providerAddresses(input.connector.definition, settings)
          }).pipe(Effect.mapError((failure) => redactActionFailure(failure, secrets))))
          const failure = Either.getLeft(yield* Effect.either(exit))
          yield* requestLog.record({
            projectId: input.projectId,
            accountId: callerKey(input.caller),
            provider,
            incoming: yield* incomingCall(config.publicUrl),
            kind: "connect",
            action: test.action,
            status: failure._tag === "Some" ? runAnswers.answerOf(failure.value).status : 200,
            durationMs: Date.now() - started,
            providerCalls: calls.map(providerCallSummary),
            // the run's own message, with the detail the end user is not shown
            error: failure._tag === "Some" ? failure.value.message : null,
            at: new Date(started)
          })
          if (failure._tag === "Some" && test.required) return yield* Effect.flip(refusal(input, failure.value))
        }
      }).pipe(Effect.withSpan("CredentialCheck.check", {
        captureStackTrace: false,
        attributes: { "switchyard.connector.key": input.connector.definition.info.key }
      }))

    return { check, unreachable } as const
  }),
  dependencies: [ProviderHttp.Default, RequestLog.Default, ProjectsRepo.Default]
}) {}
