import type * as oauth from "oauth4webapi"
import type { OAuth2Method } from "./OAuth2Method.js"

/**
 * The authorization server as oauth4webapi wants it, built from the connector's endpoints (we
 * do no discovery). Its issuer is the authorization endpoint's origin, or the `iss` a callback
 * carries (RFC 9207) when that is on the origin of one of the method's endpoints.
 */
export const authorizationServer = (method: OAuth2Method, issuer?: string): oauth.AuthorizationServer => ({
  issuer: issuer ?? new URL(method.authorizationUrl).origin,
  authorization_endpoint: method.authorizationUrl,
  token_endpoint: method.tokenUrl
})

/** The callback's `iss`, when it names a server of this method; `false` when it names another. */
export const callbackIssuer = (method: OAuth2Method, callbackUrl: URL): string | undefined | false => {
  const iss = callbackUrl.searchParams.get("iss")
  if (iss === null) return undefined
  let origin: string
  try {
    origin = new URL(iss).origin
  } catch {
    return false
  }
  const ours = [new URL(method.authorizationUrl).origin, new URL(method.tokenUrl).origin]
  return ours.includes(origin) ? iss : false
}
