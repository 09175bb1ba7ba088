import type { Clock } from "../clock.js"
import type { Ctx } from "../http/ctx.js"
import { HttpError } from "../http/httpError.js"
import { sendJson } from "../http/responses.js"
import { route, type Route } from "../router.js"
import { authorizeRoutes } from "./authorize.js"
import type { LeverState } from "./data.js"
import type { OAuthState } from "./grants.js"
import { recruitingRoutes } from "./recruiting.js"
import { tokenRoutes } from "./token.js"

export {
  generateLever,
  LEVER_STAGE_TEXT,
  LEVER_STAGES,
  type LeverApplication,
  type LeverArchiveReason,
  type LeverOpportunity,
  type LeverPosting,
  type LeverState
} from "./data.js"
export { OAUTH_SCOPES, OAuthState, s256, type OAuthClient, type TokenSet } from "./grants.js"

/**
 * The OAuth2 provider: an authorization server (`/oauth/authorize` or `/authorize` consent page,
 * `/oauth/token`) guarding a recruiting API shaped like Lever's v1 (`/v1/opportunities` and their
 * applications, `/v1/postings`, `/v1/archive_reasons`); writes are stamped by `clock`.
 */
export const oauthRoutes = (options: {
  readonly state: OAuthState
  readonly requirePkce: boolean
  readonly data: () => LeverState
  readonly clock: Clock
}): ReadonlyArray<Route> => [
  ...authorizeRoutes(options.state, { requirePkce: options.requirePkce }),
  ...tokenRoutes(options.state),
  ...recruitingRoutes(options.state, options.data, options.clock)
]

const SECRET_FIELDS = new Set(["client_secret", "code", "code_verifier", "refresh_token", "access_token"])

/** The request log is served without authentication: form fields that are secrets show as "[redacted]". */
export const oauthLogBody = (ctx: Ctx): string => {
  const text = ctx.rawBody.subarray(0, 65536).toString("utf8")
  if (!(ctx.req.headers["content-type"] ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded")) return text
  const form = new URLSearchParams(text)
  for (const key of new Set(form.keys())) if (SECRET_FIELDS.has(key)) form.set(key, "[redacted]")
  return form.toString()
}

export const oauthNotFound = (ctx: Ctx): void => sendJson(ctx.res, 404, { code: "ResourceNotFound", message: "No such endpoint" })

const stringField = (body: Record<string, unknown>, name: string): string | undefined => {
  const value = body[name]
  if (value === undefined) return undefined
  if (typeof value !== "string" || value === "") throw new HttpError(400, { message: `${name} must be a non-empty string` })
  return value
}

/**
 * `/_sandbox/oauth` admin routes (on every origin): the provider's state and token-endpoint counts,
 * revoking grants (by refresh token, access token or client), and clearing the counts.
 */
export const oauthAdminRoutes = (state: OAuthState): ReadonlyArray<Route> => [
  route("GET", "/_sandbox/oauth", (ctx) => sendJson(ctx.res, 200, state.summary())),
  route("POST", "/_sandbox/oauth/revoke", (ctx) => {
    const body = ctx.body() as Record<string, unknown>
    const refreshToken = stringField(body, "refresh_token")
    const accessToken = stringField(body, "access_token")
    const clientId = stringField(body, "client_id")
    if (refreshToken === undefined && accessToken === undefined && clientId === undefined) {
      throw new HttpError(400, { message: "Give refresh_token, access_token or client_id" })
    }
    sendJson(ctx.res, 200, {
      revoked: state.revoke({ ...(refreshToken !== undefined ? { refreshToken } : {}), ...(accessToken !== undefined ? { accessToken } : {}), ...(clientId !== undefined ? { clientId } : {}) })
    })
  }),
  route("GET", "/_sandbox/oauth/token-requests", (ctx) => sendJson(ctx.res, 200, state.tokenRequests())),
  route("DELETE", "/_sandbox/oauth/token-requests", (ctx) => {
    state.clearTokenRequests()
    sendJson(ctx.res, 200, { cleared: true })
  })
]
