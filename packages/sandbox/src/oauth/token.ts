import type { Ctx } from "../http/ctx.js"
import { basicAuth } from "../http/basicAuth.js"
import { sendJson } from "../http/responses.js"
import { route, type Route } from "../router.js"
import { OAuthError, type OAuthState } from "./grants.js"

/**
 * The token endpoint (RFC 6749 §3.2): form-encoded, the client authenticated by client_secret_post
 * or HTTP Basic; `authorization_code` (with PKCE) and `refresh_token` (rotating) grants; errors as
 * JSON `{error, error_description}` (§5.2), 401 for invalid_client and 400 otherwise.
 */

const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" }

const field = (form: Record<string, unknown>, name: string): string | undefined => {
  const value = form[name]
  return typeof value === "string" && value !== "" ? value : undefined
}

/** Basic credentials are form-urlencoded before base64 (RFC 6749 §2.3.1). */
const formDecode = (text: string): string => {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "))
  } catch {
    return text
  }
}

/** The authenticated client's id; throws invalid_client (or invalid_request for two methods at once). */
const authenticateClient = (ctx: Ctx, state: OAuthState, form: Record<string, unknown>): string => {
  const basic = basicAuth(ctx.req)
  let clientId: string | undefined
  let secret: string | undefined
  if (basic !== undefined) {
    if (field(form, "client_secret") !== undefined) throw new OAuthError("invalid_request", "Use one client authentication method, not Basic and client_secret together")
    clientId = formDecode(basic.user)
    secret = formDecode(basic.password)
    const bodyId = field(form, "client_id")
    if (bodyId !== undefined && bodyId !== clientId) throw new OAuthError("invalid_request", "client_id in the body differs from the Basic credentials")
  } else {
    clientId = field(form, "client_id")
    secret = field(form, "client_secret")
  }
  if (clientId === undefined || secret === undefined) throw new OAuthError("invalid_client", "Client authentication is required (client_secret_post or HTTP Basic)")
  if (clientId !== state.client.clientId || secret !== state.client.clientSecret) throw new OAuthError("invalid_client", "Client authentication failed")
  return clientId
}

export const tokenRoutes = (state: OAuthState): ReadonlyArray<Route> => [
  route("POST", "/oauth/token", (ctx) => {
    const isForm = (ctx.req.headers["content-type"] ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded")
    const form = isForm ? (ctx.body() as Record<string, unknown>) : {}
    const grantType = field(form, "grant_type")
    state.countCall(grantType ?? "")
    try {
      if (!isForm) throw new OAuthError("invalid_request", "The body must be application/x-www-form-urlencoded")
      const clientId = authenticateClient(ctx, state, form)
      if (grantType === undefined) throw new OAuthError("invalid_request", "grant_type is required")
      if (grantType === "authorization_code") {
        const code = field(form, "code")
        if (code === undefined) throw new OAuthError("invalid_request", "code is required")
        return sendJson(ctx.res, 200, state.exchangeCode(clientId, code, field(form, "redirect_uri"), field(form, "code_verifier")), NO_STORE)
      }
      if (grantType === "refresh_token") {
        const refreshToken = field(form, "refresh_token")
        if (refreshToken === undefined) throw new OAuthError("invalid_request", "refresh_token is required")
        return sendJson(ctx.res, 200, state.refresh(clientId, refreshToken, field(form, "scope")), NO_STORE)
      }
      throw new OAuthError("unsupported_grant_type", `grant_type ${grantType} is not supported (authorization_code, refresh_token)`)
    } catch (e) {
      if (!(e instanceof OAuthError)) throw e
      const status = e.error === "invalid_client" ? 401 : 400
      const challenge: Record<string, string> = status === 401 ? { "www-authenticate": 'Basic realm="sandbox-oauth"' } : {}
      sendJson(ctx.res, status, { error: e.error, error_description: e.description }, { ...NO_STORE, ...challenge })
    }
  })
]
