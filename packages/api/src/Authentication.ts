import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "@effect/platform"
import { Context, Schema } from "effect"
import { ForbiddenBody, UnauthorizedBody } from "./Errors.js"

/** API key scopes, as the spec's Authentication section names them. */
export const ApiKeyScope = Schema.Literal("full_access", "read_only", "accounts", "actions").annotations({
  identifier: "ApiKeyScope",
  description: "full_access: every operation; read_only: GET requests only; accounts: account management " +
    "(/v2/accounts, /connect_sessions); actions: action execution (/actions/rpc, /mcp, /unified/...)"
})
export type ApiKeyScope = typeof ApiKeyScope.Type

/** Who is calling: resolved from the API key by the authentication middleware. */
export interface Caller {
  readonly organizationId: string
  readonly projectId: string
  readonly apiKeyId: string
  readonly scope: ApiKeyScope
}

export class CurrentCaller extends Context.Tag("Switchyard/CurrentCaller")<CurrentCaller, Caller>() {}

/** HTTP Basic: the API key is the username, the password is empty. */
export const basic = HttpApiSecurity.basic.pipe(
  HttpApiSecurity.annotate(OpenApi.Description, "HTTP Basic with the API key as username and an empty password")
)

/** The web dashboard's session cookie, set by `POST /dashboard/session` (never an API key). */
export const DASHBOARD_SESSION_COOKIE = "switchyard_session"

export const dashboardSession = HttpApiSecurity.apiKey({ key: DASHBOARD_SESSION_COOKIE, in: "cookie" }).pipe(
  HttpApiSecurity.annotate(
    OpenApi.Description,
    "The web dashboard's session, opened with an API key by POST /dashboard/session; it acts with that key's scope. " +
      "Used only when the request has no Authorization header; a state-changing request it authenticates must send " +
      "an Origin of this server"
  )
)

/**
 * Schemes are tried in this order and the last one's failure is the answer, so Basic comes last:
 * a request without credentials is told about the API key. The server decides from the whole
 * request either way (an Authorization header wins over the cookie).
 */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Switchyard/Authentication", {
  failure: Schema.Union(UnauthorizedBody, ForbiddenBody),
  provides: CurrentCaller,
  security: { dashboardSession, basic }
}) {}
