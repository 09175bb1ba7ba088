import { type AuthenticationMethod, credentialSecrets, type ParsedConnector, ProviderTransport, runAction } from "@switchyard/engine"
import { Effect } from "effect"
import { redactActionFailure } from "../Actions/ActionErrors.js"
import { ProviderHttp } from "../Provider/ProviderHttp.js"
import { ConnectCredentialsRefused } from "./ConnectSessionErrors.js"

export interface CredentialsToCheck {
  readonly connector: ParsedConnector
  readonly connectorName: string
  readonly methodName: string
  readonly method: AuthenticationMethod
  readonly credentials: Readonly<Record<string, unknown>>
  readonly settings: Readonly<Record<string, unknown>>
  /** Who the calls are for in the outbound limits (no account exists yet). */
  readonly callerId: string
}

/** The method's `testActions`, each `{action, required}` (a bare id is required). */
const testActionsOf = (method: AuthenticationMethod) =>
  (method.testActions ?? []).map((entry) =>
    typeof entry === "string" ? { action: entry, required: true } : { action: entry.action, required: entry.required !== false }
  )

/**
 * Runs the connector's `testActions` with credentials an end user entered, before anything
 * is stored: the first required one that fails refuses the link with the provider's reason.
 * Calls go out like any action call (outbound policy, rate limits, retries), redacted.
 */
export class CredentialCheck extends Effect.Service<CredentialCheck>()("Switchyard/CredentialCheck", {
  effect: Effect.gen(function*() {
    const providerHttp = yield* ProviderHttp

    const check = (input: CredentialsToCheck): Effect.Effect<void, ConnectCredentialsRefused> =>
      Effect.gen(function*() {
        const secrets = [...credentialSecrets(input.connector, input.credentials)]
        const settings = input.settings
        for (const test of testActionsOf(input.method)) {
          const recorder = yield* providerHttp.recorder
          const transport = providerHttp.transport({
            accountId: input.callerId,
            provider: input.connector.definition.info.key,
            requestsPerSecond: input.connector.definition.rateLimit?.mainRatelimit
          }, recorder)
          const outcome = yield* runAction(input.connector, test.action, {}, {
            credentials: input.credentials,
            settings,
            authMethod: input.methodName,
            ...(typeof settings.base_url === "string" ? { baseUrl: settings.base_url } : {})
          }).pipe(
            Effect.provideService(ProviderTransport, transport),
            Effect.mapError((failure) => redactActionFailure(failure, secrets)),
            Effect.either
          )
          if (outcome._tag === "Left" && test.required) {
            return yield* new ConnectCredentialsRefused({ connectorName: input.connectorName, failure: outcome.left })
          }
        }
      }).pipe(Effect.withSpan("CredentialCheck.check", {
        captureStackTrace: false,
        attributes: { "switchyard.connector.key": input.connector.definition.info.key }
      }))

    return { check } as const
  }),
  dependencies: [ProviderHttp.Default]
}) {}
