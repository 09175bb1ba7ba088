import type { ConnectLinked, LinkConnectAccount } from "@switchyard/api"
import { Effect } from "effect"
import type { AccountRow } from "../accounts/AccountsRepo.js"
import { type ConnectChoice, ConnectChoices } from "./ConnectChoice.js"
import { ConnectCompletion } from "./ConnectCompletion.js"
import { isAuthorizationCode } from "../connectors/authenticationMethods.js"
import { ProviderCaller } from "../../platform/outboundHttp/ProviderHttp.js"
import { checkFields } from "./connectFields.js"
import { InvalidConnectLink } from "./ConnectSessionErrors.js"
import { ConnectSessions } from "./ConnectSessions.js"
import { ConnectSessionsRepo } from "./ConnectSessionsRepo.js"
import { CredentialCheck } from "./CredentialCheck.js"

/** Refused attempts after which a session fails for good. */
export const MAX_FAILED_ATTEMPTS = 5

/** The session's redirect_url with the linked account added (`account_id`, `connector_key`). */
export const redirectWithAccount = (redirectUrl: string | null, accountId: string, connectorKey: string) => {
  if (redirectUrl === null) return null
  const url = new URL(redirectUrl)
  url.searchParams.set("account_id", accountId)
  url.searchParams.set("connector_key", connectorKey)
  return url.toString()
}

/**
 * Links an account from what an end user entered on the connect page: checks the session
 * and the pick, checks the credentials with the connector's test actions, then completes
 * the session into its account. A refusal stores nothing but the session's failure reason;
 * a provider that could not be reached stores nothing.
 */
export class ConnectLinking extends Effect.Service<ConnectLinking>()("Switchyard/ConnectLinking", {
  effect: Effect.gen(function*() {
    const sessions = yield* ConnectSessions
    const sessionsRepo = yield* ConnectSessionsRepo
    const choices = yield* ConnectChoices
    const credentialCheck = yield* CredentialCheck
    const completion = yield* ConnectCompletion

    /** Checks `credentials` for the choice and writes the account; refusals count against the session. */
    const checkAndComplete = (choice: ConnectChoice, credentials: Readonly<Record<string, unknown>>) =>
      Effect.gen(function*() {
        const { session } = choice
        const settings = yield* completion.settingsFor(session, choice.offered.key, choice.profile?.account_settings ?? {})
        yield* credentialCheck.check({
          projectId: session.project_id,
          connector: choice.connector,
          connectorName: choice.offered.name,
          methodName: choice.methodName,
          method: choice.method,
          credentials,
          settings,
          caller: ProviderCaller.ConnectSession({ sessionId: session.id })
        }).pipe(
          // only the provider's refusal is the end user's doing: an unreachable provider
          // does not use up the session's attempts
          Effect.tapErrorTag("ConnectCredentialsRefused", (refused) =>
            sessionsRepo.recordFailure(session.id, refused.message, MAX_FAILED_ATTEMPTS))
        )
        return yield* completion.complete({
          session,
          connectorKey: choice.offered.key,
          connectorName: choice.offered.name,
          connectorVersion: choice.version.version,
          connectorProfileId: choice.offered.connector_profile_id,
          methodName: choice.methodName,
          credentials,
          settings
        })
      })

    const linked = (choice: ConnectChoice, account: AccountRow): ConnectLinked => ({
      account_id: account.id,
      connector_key: choice.offered.key,
      redirect_url: redirectWithAccount(choice.session.redirect_url, account.id, choice.offered.key)
    })

    const link = (body: LinkConnectAccount) =>
      Effect.gen(function*() {
        const session = yield* sessions.authenticate(body.token)
        const choice = yield* choices.resolve(session, body)
        if (isAuthorizationCode(choice.method)) {
          return yield* new InvalidConnectLink({
            message: `${choice.offered.name} links with OAuth2: start it with POST /connect_sessions/oauth2/authorize`
          })
        }
        const credentials = yield* checkFields(choice.methodName, choice.method, choice.version.title, body.credentials)
        const account = yield* checkAndComplete(choice, credentials)
        return linked(choice, account)
      }).pipe(Effect.withSpan("ConnectLinking.link", { captureStackTrace: false }))

    return { link, checkAndComplete, linked } as const
  }),
  dependencies: [
    ConnectSessions.Default,
    ConnectSessionsRepo.Default,
    ConnectChoices.Default,
    CredentialCheck.Default,
    ConnectCompletion.Default
  ]
}) {}
