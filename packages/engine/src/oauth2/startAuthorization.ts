import { Effect } from "effect"
import * as oauth from "oauth4webapi"
import type { OAuth2Method } from "./OAuth2Method.js"

/**
 * The URL to send the user's browser to: the method's authorization URL with its extra
 * parameters, then ours (`response_type=code`, `client_id`, `redirect_uri`, `state`, `scope`)
 * and, unless the method opts out of PKCE, an S256 `code_challenge`. Keep `codeVerifier`
 * (a secret) with `state` until the callback comes back.
 */
export const startAuthorization = (
  method: OAuth2Method,
  request: { readonly clientId: string; readonly redirectUri: string; readonly state: string }
): Effect.Effect<{ readonly url: string; readonly codeVerifier: string | undefined }> =>
  Effect.promise(async () => {
    const url = new URL(method.authorizationUrl)
    const query = url.searchParams
    for (const [name, value] of Object.entries(method.authorizationParams)) query.set(name, value)
    query.set("response_type", "code")
    query.set("client_id", request.clientId)
    query.set("redirect_uri", request.redirectUri)
    query.set("state", request.state)
    if (method.scope !== undefined) query.set("scope", method.scope)
    query.delete("code_challenge")
    query.delete("code_challenge_method")
    let codeVerifier: string | undefined
    if (method.pkce) {
      codeVerifier = oauth.generateRandomCodeVerifier()
      query.set("code_challenge", await oauth.calculatePKCECodeChallenge(codeVerifier))
      query.set("code_challenge_method", "S256")
    }
    return { url: url.toString(), codeVerifier }
  })
