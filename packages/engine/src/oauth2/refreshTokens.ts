import { Effect } from "effect"
import * as oauth from "oauth4webapi"
import type { ParsedConnector } from "../parseConnector.js"
import type { ProviderTransport } from "../ProviderTransport.js"
import type { ActionOutput } from "../run/RunLimits.js"
import { isRecord } from "../run/wireValues.js"
import { runAction } from "../runAction.js"
import type { ActionError } from "../RunErrors.js"
import { authorizationServer } from "./authorizationServer.js"
import { callAuthorizationServer } from "./callAuthorizationServer.js"
import { clientAuthentication, clientMetadata, type OAuth2Client } from "./OAuth2Client.js"
import { type OAuth2Error, oauth2Error } from "./OAuth2Error.js"
import type { OAuth2Method } from "./OAuth2Method.js"
import { type TokenSet, tokenSetOf } from "./TokenSet.js"

/**
 * New tokens for `refreshToken`. When the method names a `refreshAuthentication.action`, that
 * action runs (`runAction`, without the method's own authentication) with `refreshToken`,
 * `clientId` and `clientSecret` added to the credentials, and its output's `accessToken`,
 * `refreshToken`, `expiresIn` (or `access_token`, `refresh_token`, `expires_in`) are the
 * answer; a 400 or 401 whose body says `error: invalid_grant` is `invalid_grant`. Otherwise the
 * standard refresh_token grant goes to the token endpoint over the `ProviderTransport`.
 * An answer without a refresh token gives `refreshToken: undefined`: keep the old one.
 */
export const refreshTokens = (
  connector: ParsedConnector,
  method: OAuth2Method,
  client: OAuth2Client,
  account: {
    readonly credentials: Readonly<Record<string, unknown>>
    readonly settings: Readonly<Record<string, unknown>>
    readonly refreshToken: string
  }
): Effect.Effect<TokenSet, OAuth2Error, ProviderTransport> => {
  const secrets = [client.clientSecret, account.refreshToken]
  if (method.refreshAction !== undefined) return refreshWithAction(connector, method, method.refreshAction, client, account, secrets)
  const as = authorizationServer(method)
  const metadata = clientMetadata(client)
  return callAuthorizationServer("refreshing the access token", method.tokenUrl, secrets, async (options) => {
    const response = await oauth.refreshTokenGrantRequest(as, metadata, clientAuthentication(client), account.refreshToken, options)
    return oauth.processRefreshTokenResponse(as, metadata, response)
  }).pipe(Effect.map((answer) => tokenSetOf(answer, method.defaultExpiresIn)))
}

const refreshWithAction = (
  connector: ParsedConnector,
  method: OAuth2Method,
  actionId: string,
  client: OAuth2Client,
  account: Parameters<typeof refreshTokens>[3],
  secrets: ReadonlyArray<string | undefined>
): Effect.Effect<TokenSet, OAuth2Error, ProviderTransport> => {
  const credentials: Record<string, unknown> = {
    ...account.credentials,
    refreshToken: account.refreshToken,
    clientId: client.clientId
  }
  if (client.clientSecret !== undefined) credentials.clientSecret = client.clientSecret
  return runAction(connector, actionId, {}, {
    credentials,
    settings: account.settings,
    authMethod: method.name,
    withoutAuthentication: true
  }).pipe(
    Effect.mapError((error) => oauth2Error(actionFailure(actionId, error), secrets)),
    Effect.flatMap((output) => {
      const tokens = actionTokens(output, method.defaultExpiresIn)
      return tokens === undefined
        ? Effect.fail(oauth2Error({
          kind: "invalid_response",
          message: `refreshing the access token: the refresh action "${actionId}" answered no accessToken`
        }, secrets))
        : Effect.succeed(tokens)
    })
  )
}

const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined)

/** A provider's error body (JSON, or form-encoded text as older token endpoints send). */
const errorFields = (body: unknown): { error: string | undefined; description: string | undefined } => {
  let record: unknown = body
  if (typeof body === "string") {
    try {
      record = JSON.parse(body)
    } catch {
      record = Object.fromEntries(new URLSearchParams(body))
    }
  }
  return isRecord(record)
    ? { error: text(record.error), description: text(record.error_description) }
    : { error: undefined, description: undefined }
}

const actionFailure = (actionId: string, error: ActionError): ConstructorParameters<typeof OAuth2Error>[0] => {
  const prefix = `refreshing the access token: the refresh action "${actionId}"`
  switch (error._tag) {
    case "ProviderHttpError":
    case "CustomProviderError": {
      const status = error._tag === "ProviderHttpError" ? error.status : error.receivedStatus
      const { description, error: code } = errorFields(error.body)
      const grantGone = (status === 400 || status === 401) && code === "invalid_grant"
      return {
        kind: grantGone ? "invalid_grant" : "provider_error",
        message: `${prefix} failed: ${error.message}${code === undefined ? "" : ` (${code}${description === undefined ? "" : `: ${description}`})`}`,
        error: code,
        description,
        status
      }
    }
    case "ProviderTransportError":
      return {
        kind: error.reason === "invalid_response" ? "invalid_response" : "unreachable",
        message: `${prefix} got no usable answer (${error.reason}: ${error.message})`
      }
    case "ActionLimitError":
      return {
        kind: error.limit === "stepTimeout" || error.limit === "actionTimeout" ? "unreachable" : "invalid_response",
        message: `${prefix} stopped: ${error.message}`
      }
    case "ActionDefinitionError":
    case "ActionInputError":
      return { kind: "provider_error", message: `${prefix} cannot run: ${error.message}` }
  }
}

/** The tokens in a refresh action's output (StackOne's names, or the token endpoint's own). */
const actionTokens = (output: ActionOutput, defaultExpiresIn: number | undefined): TokenSet | undefined => {
  const data = Array.isArray(output.data) && output.data.length === 1 ? output.data[0] : output.data
  if (!isRecord(data)) return undefined
  const accessToken = text(data.accessToken) ?? text(data.access_token)
  if (accessToken === undefined) return undefined
  const rawExpiry = data.expiresIn ?? data.expires_in
  const expiresIn = typeof rawExpiry === "number" ? rawExpiry : typeof rawExpiry === "string" ? Number(rawExpiry) : Number.NaN
  return {
    accessToken,
    refreshToken: text(data.refreshToken) ?? text(data.refresh_token),
    expiresIn: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : defaultExpiresIn,
    scope: text(data.scope),
    tokenType: text(data.tokenType) ?? text(data.token_type)
  }
}
