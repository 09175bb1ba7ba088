import type { Ctx } from "../http/ctx.js"
import { route, type Route } from "../router.js"
import { OAUTH_SCOPES, type AuthorizationRequest, type OAuthState } from "./grants.js"

/**
 * The authorization endpoint: `GET /oauth/authorize` (also at `/authorize`, Lever's path:
 * https://auth.lever.co/authorize) checks the client and redirect URI (a bad one gets a 400 page,
 * never a redirect), then the rest (errors go back to the redirect URI) and shows a consent page;
 * its Allow and Deny forms POST back, and the answer redirects with `code` and `state`, or
 * `error=access_denied`.
 */

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : "&#39;"))

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d1f24}
main{max-width:28rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 3px #0003}
h1{font-size:1.4rem;margin-top:0}.actions{display:flex;gap:1rem;margin-top:1.5rem}
button{font:inherit;padding:.6rem 1.4rem;border-radius:6px;border:2px solid #1d4ed8;cursor:pointer}
button:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.allow{background:#1d4ed8;color:#fff}.deny{background:#fff;color:#1d4ed8}`

/**
 * `formAction` names where a form on the page may lead: the consent forms answer with a
 * redirect to the client, and browsers apply `form-action` to that redirect too.
 */
const page = (ctx: Ctx, status: number, title: string, body: string, formAction = "'self'"): void => {
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>
${body}
</main></body>
</html>
`
  ctx.res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "content-length": String(Buffer.byteLength(html)),
    "cache-control": "no-store",
    "x-frame-options": "DENY",
    "content-security-policy": `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'`
  })
  ctx.res.end(ctx.method === "HEAD" ? undefined : html)
}

const errorPage = (ctx: Ctx, message: string): void =>
  page(ctx, 400, "Authorization error", `<h1>Authorization error</h1>\n<p role="alert">${escapeHtml(message)}</p>`)

/** 302 to `redirectUri` with `params` added to its query. */
const redirect = (ctx: Ctx, redirectUri: string, params: Record<string, string | undefined>): void => {
  const url = new URL(redirectUri)
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value)
  ctx.res.writeHead(302, { location: url.toString(), "cache-control": "no-store", "content-length": "0" })
  ctx.res.end()
}

const consentPage = (ctx: Ctx, state: OAuthState, request: AuthorizationRequest): void => {
  const app = escapeHtml(state.client.name)
  const scopes = request.scope
    .split(" ")
    .filter((s) => s !== "")
    .map((s) => `<li><code>${escapeHtml(s)}</code></li>`)
    .join("")
  const form = (decision: "allow" | "deny", label: string): string =>
    `<form method="post" action="/oauth/authorize"><input type="hidden" name="request_id" value="${escapeHtml(request.id)}"><input type="hidden" name="decision" value="${decision}"><button type="submit" class="${decision}">${label}</button></form>`
  page(
    ctx,
    200,
    `Authorize ${state.client.name}`,
    `<h1>Authorize ${app}</h1>
<p>${app} wants to access your recruiting data in the Switchyard sandbox (Lever look-alike) with these permissions:</p>
<ul>${scopes}</ul>
<div class="actions">${form("allow", "Allow")}${form("deny", "Deny")}</div>`,
    `'self' ${new URL(request.redirectUri).origin}`
  )
}

const one = (query: URLSearchParams, name: string): string | undefined => query.get(name) ?? undefined

/**
 * The APIs a token may be asked for (`audience`, which Lever requires and the sandbox does not):
 * this server's `/v1/` and Lever's own, so a client written for Lever works unchanged.
 */
const audienceAllowed = (ctx: Ctx, audience: string): boolean => audience === `${ctx.origin}/v1/` || audience === "https://api.lever.co/v1/"

export const authorizeRoutes = (state: OAuthState, options: { readonly requirePkce: boolean }): ReadonlyArray<Route> => {
  const authorize = (ctx: Ctx): void => {
    const q = ctx.query
    const clientId = one(q, "client_id")
    const redirectUri = one(q, "redirect_uri")
    if (clientId === undefined || clientId !== state.client.clientId) return errorPage(ctx, "Unknown client_id.")
    if (redirectUri === undefined || !state.redirectUriAllowed(redirectUri)) return errorPage(ctx, "redirect_uri is missing or not registered for this client.")
    const back = (error: string, description: string): void => redirect(ctx, redirectUri, { error, error_description: description, state: one(q, "state") })
    if (one(q, "response_type") !== "code") return back("unsupported_response_type", "response_type must be code")
    const audience = one(q, "audience")
    // as Auth0 (behind auth.lever.co) answers an unknown audience
    if (audience !== undefined && !audienceAllowed(ctx, audience)) return back("access_denied", `Service not found: ${audience}`)
    const scope = (one(q, "scope") ?? OAUTH_SCOPES.join(" ")).split(" ").filter((s) => s !== "")
    const unknown = scope.filter((s) => !(OAUTH_SCOPES as ReadonlyArray<string>).includes(s))
    if (unknown.length > 0 || scope.length === 0) return back("invalid_scope", `Unknown scope: ${unknown.join(" ")}`)
    const challenge = one(q, "code_challenge")
    const method = one(q, "code_challenge_method")
    if (challenge === undefined) {
      if (options.requirePkce) return back("invalid_request", "code_challenge is required (PKCE, S256)")
    } else {
      if (method !== "S256") return back("invalid_request", "code_challenge_method must be S256")
      if (!/^[A-Za-z0-9_-]{43}$/.test(challenge)) return back("invalid_request", "code_challenge must be base64url(SHA-256(code_verifier))")
    }
    const request = state.addAuthorizationRequest({ clientId, redirectUri, state: one(q, "state"), scope: scope.join(" "), codeChallenge: challenge })
    consentPage(ctx, state, request)
  }
  return [
    route("GET", "/oauth/authorize", authorize),
    route("GET", "/authorize", authorize),
    route("POST", "/oauth/authorize", (ctx) => {
      const form = ctx.body() as Record<string, unknown>
      const id = typeof form["request_id"] === "string" ? form["request_id"] : ""
      const request = state.takeAuthorizationRequest(id)
      if (request === undefined) return errorPage(ctx, "This authorization request is unknown, already answered or expired. Start again from the application.")
      if (form["decision"] === "allow") redirect(ctx, request.redirectUri, { code: state.issueCode(request), state: request.state })
      else redirect(ctx, request.redirectUri, { error: "access_denied", error_description: "The user denied access", state: request.state })
    })
  ]
}
