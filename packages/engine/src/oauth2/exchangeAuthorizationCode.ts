import { Effect } from "effect"
import * as oauth from "oauth4webapi"
import type { ProviderTransport } from "../ProviderTransport.js"
import { authorizationServer, callbackIssuer } from "./authorizationServer.js"
import { callAuthorizationServer } from "./callAuthorizationServer.js"
import { clientAuthentication, clientMetadata, type OAuth2Client } from "./OAuth2Client.js"
import { type OAuth2Error, oauth2Error } from "./OAuth2Error.js"
import type { OAuth2Method } from "./OAuth2Method.js"
import { type TokenSet, tokenSetOf } from "./TokenSet.js"

/**
 * The callback's answer, exchanged for tokens. The callback must carry the `state` we sent
 * (else `state_mismatch`, checked first); a provider's refusal on it (`error=access_denied`)
 * is a `provider_error` with its description. The code then goes to the token endpoint over
 * the `ProviderTransport` (client secret, code and verifier passed as secrets) with the same
 * `redirectUri` and the PKCE `codeVerifier` (`undefined`: none was sent). A refused code or
 * verifier is `invalid_grant`; other error answers `provider_error`; malformed answers
 * `invalid_response`; transport failures `unreachable`. Plain OAuth 2.0: nothing OpenID.
 */
export const exchangeAuthorizationCode = (
  method: OAuth2Method,
  client: OAuth2Client,
  callback: {
    /** The whole URL the provider redirected the browser to. */
    readonly callbackUrl: URL
    readonly expectedState: string
    readonly redirectUri: string
    readonly codeVerifier: string | undefined
  }
): Effect.Effect<TokenSet, OAuth2Error, ProviderTransport> => {
  const { callbackUrl, codeVerifier, expectedState, redirectUri } = callback
  const code = callbackUrl.searchParams.get("code") ?? undefined
  const secrets = [client.clientSecret, code, codeVerifier]
  const states = callbackUrl.searchParams.getAll("state")
  if (states.length !== 1 || states[0] !== expectedState) {
    return Effect.fail(oauth2Error({
      kind: "state_mismatch",
      message: states.length === 0
        ? "the callback carries no state: it does not answer an authorization we started"
        : "the callback's state does not match the authorization it should answer (a forged, replayed or stale callback)"
    }, secrets))
  }
  const issuer = callbackIssuer(method, callbackUrl)
  if (issuer === false) {
    return Effect.fail(oauth2Error({
      kind: "invalid_response",
      message: "the callback's iss names another authorization server than the connector's"
    }, secrets))
  }
  const as = authorizationServer(method, issuer)
  const metadata = clientMetadata(client)
  return callAuthorizationServer("exchanging the authorization code", method.tokenUrl, secrets, async (options) => {
    const parameters = oauth.validateAuthResponse(as, metadata, callbackUrl, expectedState)
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      metadata,
      clientAuthentication(client),
      parameters,
      redirectUri,
      codeVerifier ?? oauth.nopkce,
      options
    )
    return oauth.processAuthorizationCodeResponse(as, metadata, response)
  }).pipe(Effect.map((answer) => tokenSetOf(answer, method.defaultExpiresIn)))
}
