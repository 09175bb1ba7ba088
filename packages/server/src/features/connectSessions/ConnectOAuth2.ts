import type { ConnectLinked, StartConnectOAuth2 } from "@switchyard/api"
import {
  exchangeAuthorizationCode,
  type OAuth2Client,
  type OAuth2Error,
  oauth2Method,
  startAuthorization
} from "@switchyard/engine"
import { Clock, Data, Effect, Either, Option, Schema } from "effect"
import * as Crypto from "node:crypto"
import { SwitchyardConfig } from "../../platform/Config.js"
import { ProfileSetup } from "../connectorProfiles/ProfileSetup.js"
import { CredentialCipher } from "../../platform/crypto/CredentialCipher.js"
import { secretDigest } from "../../platform/crypto/secretDigest.js"
import { ProviderCaller, ProviderHttp } from "../../platform/outboundHttp/ProviderHttp.js"
import { type ConnectChoice, ConnectChoices } from "./ConnectChoice.js"
import { ConnectCompletion } from "./ConnectCompletion.js"
import { isAuthorizationCode } from "../connectors/authenticationMethods.js"
import { checkFields } from "./connectFields.js"
import { ConnectLinking, MAX_FAILED_ATTEMPTS } from "./ConnectLinking.js"
import { CredentialCheck } from "./CredentialCheck.js"
import { InvalidConnectLink } from "./ConnectSessionErrors.js"
import { ConnectSessions } from "./ConnectSessions.js"
import { ConnectSessionsRepo } from "./ConnectSessionsRepo.js"
import { OAuthAuthorizationsRepo } from "./OAuthAuthorizationsRepo.js"
import { oauthClientOf, oauthCredentials } from "../tokenRefresh/oauthCredentials.js"

/** How long a started authorization may come back (the consent screen, a login, MFA). */
export const AUTHORIZATION_TTL_SECONDS = 600

/** What an authorization keeps sealed until its callback: the PKCE verifier and the entered fields. */
const SealedAuthorization = Schema.Struct({
  codeVerifier: Schema.NullOr(Schema.String),
  fields: Schema.Record({ key: Schema.String, value: Schema.String })
})
type SealedAuthorization = typeof SealedAuthorization.Type

/** A callback that cannot link: what the end user reads, never a secret. */
export class OAuth2CallbackFailed extends Data.TaggedError("OAuth2CallbackFailed")<{
  readonly reason: string
  readonly connectorKey: string
  /** The session's project, once known (its page may be framed by the project's origins). */
  readonly projectId: string | null
}> {}

/**
 * OAuth2 linking from the connect page: `start` seals a PKCE verifier under a single-use
 * state (10 minutes) and answers the provider's consent URL; `finish` takes the provider's
 * redirect to `/connect/oauth2/{connector_key}/callback`, exchanges the code over the
 * outbound client, checks the tokens with the connector's test actions and completes the
 * session like a form link.
 */
export class ConnectOAuth2 extends Effect.Service<ConnectOAuth2>()("Switchyard/ConnectOAuth2", {
  effect: Effect.gen(function*() {
    const sessions = yield* ConnectSessions
    const sessionsRepo = yield* ConnectSessionsRepo
    const choices = yield* ConnectChoices
    const completion = yield* ConnectCompletion
    const linking = yield* ConnectLinking
    const credentialCheck = yield* CredentialCheck
    const setups = yield* ProfileSetup
    const authorizations = yield* OAuthAuthorizationsRepo
    const cipher = yield* CredentialCipher
    const providerHttp = yield* ProviderHttp
    const config = yield* SwitchyardConfig

    const callbackUrl = (connectorKey: string) =>
      `${config.publicUrl}/connect/oauth2/${encodeURIComponent(connectorKey)}/callback`

    /** The method resolved with the profile's OAuth app and settings, and that app. */
    const resolveMethod = (choice: ConnectChoice, fields: Readonly<Record<string, string>>) =>
      Effect.gen(function*() {
        const invalid = (message: string) => new InvalidConnectLink({ message })
        if (choice.profile === undefined) {
          return yield* invalid(`${choice.offered.name} needs a connector profile holding the project's OAuth app`)
        }
        const setup = yield* setups.open(choice.session.project_id, choice.profile.id)
        const client = oauthClientOf(setup)
        if (client === undefined) {
          return yield* invalid(`connector profile ${choice.profile.id} has no clientId in its setup`)
        }
        const settings = yield* completion.settingsFor(choice.session, choice.offered.key, choice.profile.account_settings)
        const method = oauth2Method(choice.connector, choice.methodName, { credentials: { ...setup, ...fields }, settings })
        if (Either.isLeft(method)) return yield* invalid(`${choice.offered.name}: ${method.left.message}`)
        return { method: method.right, client, settings }
      })

    const start = (body: StartConnectOAuth2) =>
      Effect.gen(function*() {
        const session = yield* sessions.authenticate(body.token)
        const choice = yield* choices.resolve(session, body)
        if (!isAuthorizationCode(choice.method)) {
          return yield* new InvalidConnectLink({
            message: `${choice.offered.name} does not link with OAuth2: send its fields to POST /connect_sessions/link`
          })
        }
        const fields = yield* checkFields(choice.methodName, choice.method, choice.version.title, body.credentials ?? {})
        const { client, method } = yield* resolveMethod(choice, fields)
        const state = Crypto.randomBytes(32).toString("base64url")
        const redirectUri = callbackUrl(choice.offered.key)
        const { codeVerifier, url } = yield* startAuthorization(method, { clientId: client.clientId, redirectUri, state })
        const sealed = cipher.seal({ codeVerifier: codeVerifier ?? null, fields } satisfies SealedAuthorization)
        const now = yield* Clock.currentTimeMillis
        yield* authorizations.insert({
          state_hash: secretDigest(state),
          session_id: session.id,
          connector_key: choice.offered.key,
          connector_profile_id: choice.offered.connector_profile_id,
          auth_method: choice.methodName,
          sealed_ciphertext: sealed.ciphertext,
          sealed_key_id: sealed.keyId,
          redirect_uri: redirectUri,
          expires_at: new Date(now + AUTHORIZATION_TTL_SECONDS * 1000)
        })
        return { authorization_url: url }
      }).pipe(Effect.withSpan("ConnectOAuth2.start", { captureStackTrace: false }))

    const exchange = (
      choice: ConnectChoice,
      client: OAuth2Client,
      method: Parameters<typeof exchangeAuthorizationCode>[0],
      request: Parameters<typeof exchangeAuthorizationCode>[2]
    ) =>
      Effect.gen(function*() {
        const { exit } = yield* providerHttp.withTransport({
          caller: ProviderCaller.ConnectSession({ sessionId: choice.session.id }),
          provider: choice.offered.key
        }, exchangeAuthorizationCode(method, client, request))
        return yield* exit
      })

    /**
     * The provider's redirect. Every way it cannot link becomes an `OAuth2CallbackFailed`
     * with a message for the end user; a refusal by the provider counts against the session.
     */
    const finish = (connectorKey: string, url: URL): Effect.Effect<ConnectLinked & { readonly projectId: string }, OAuth2CallbackFailed> =>
      Effect.gen(function*() {
        const fail = (reason: string, projectId: string | null = null) =>
          new OAuth2CallbackFailed({ reason, connectorKey, projectId })
        const state = url.searchParams.get("state")
        if (state === null || state === "") {
          return yield* fail("The provider's answer carries no state: start again from the connect page")
        }
        const claimed = yield* authorizations.claim(secretDigest(state))
        if (Option.isNone(claimed)) {
          return yield* fail("This authorization is unknown or was already used: start again from the connect page")
        }
        const authorization = claimed.value
        if (authorization.connector_key !== connectorKey) {
          return yield* fail("The provider's answer does not belong to this connector (state mismatch)")
        }
        if (authorization.expires_at.getTime() <= (yield* Clock.currentTimeMillis)) {
          return yield* fail("The authorization took longer than 10 minutes: start again from the connect page")
        }
        const session = yield* sessions.resume(authorization.session_id).pipe(Effect.mapError((error) => fail(error.message)))
        const projectFail = (reason: string) => fail(reason, session.project_id)
        const choice = yield* choices.resolve(session, {
          connector_key: authorization.connector_key,
          connector_profile_id: authorization.connector_profile_id,
          auth_method: authorization.auth_method
        }).pipe(Effect.mapError((error) => projectFail(error.message)))
        const opened = yield* cipher.open(SealedAuthorization, {
          keyId: authorization.sealed_key_id,
          ciphertext: authorization.sealed_ciphertext
        }).pipe(Effect.orDie)
        const { client, method } = yield* resolveMethod(choice, opened.fields).pipe(
          Effect.mapError((error) => projectFail(error.message))
        )
        const refused = (error: OAuth2Error) =>
          // a token endpoint that could not be reached is no refusal: the end user learns whom to ask
          error.kind === "unreachable"
            ? Effect.flatMap(
              credentialCheck.unreachable(session.project_id, choice.offered.name, error.message),
              (unreachable) => Effect.fail(projectFail(unreachable.message))
            )
            : Effect.zipRight(
              sessionsRepo.recordFailure(session.id, `${choice.offered.name}: ${error.message}`, MAX_FAILED_ATTEMPTS),
              Effect.fail(projectFail(`${choice.offered.name} did not authorize the link: ${error.description ?? error.message}`))
            )
        const tokens = yield* exchange(choice, client, method, {
          callbackUrl: url,
          expectedState: state,
          redirectUri: authorization.redirect_uri,
          codeVerifier: opened.codeVerifier ?? undefined
        }).pipe(Effect.catchAll(refused))
        const credentials = oauthCredentials(opened.fields, tokens, yield* Clock.currentTimeMillis)
        const account = yield* linking.checkAndComplete(choice, credentials).pipe(
          Effect.mapError((error) => projectFail(error.message))
        )
        return { ...linking.linked(choice, account), projectId: session.project_id }
      }).pipe(Effect.withSpan("ConnectOAuth2.finish", {
        captureStackTrace: false,
        attributes: { "switchyard.connector.key": connectorKey }
      }))

    return { start, finish, callbackUrl } as const
  }),
  dependencies: [
    ConnectSessions.Default,
    ConnectSessionsRepo.Default,
    ConnectChoices.Default,
    ConnectCompletion.Default,
    ConnectLinking.Default,
    CredentialCheck.Default,
    ProfileSetup.Default,
    OAuthAuthorizationsRepo.Default,
    CredentialCipher.Default,
    ProviderHttp.Default
  ]
}) {}
