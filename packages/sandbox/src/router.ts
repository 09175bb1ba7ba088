import type { Ctx } from "./http/ctx.js"

/** Path parameters by name, already URI-decoded. */
export type Params = Record<string, string>

export type Handler = (ctx: Ctx, params: Params) => void | Promise<void>

export type Route = {
  readonly method: string
  readonly regex: RegExp
  readonly names: ReadonlyArray<string>
  readonly handler: Handler
}

/** `"/v1/applications/:id/move"` → a route; params match one path segment (no `/` or `,`). */
export const route = (method: string, pattern: string, handler: Handler): Route => {
  const names: Array<string> = []
  const source = pattern
    .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
    .replace(/:([a-zA-Z_]+)/g, (_, name: string) => {
      names.push(name)
      return "([^/,]+)"
    })
  return { method, regex: new RegExp(`^${source}$`), names, handler }
}

/**
 * A `route` for a provider's own API: the pattern is put under `prefix`, and `guard` (which
 * throws to refuse, e.g. on bad credentials) runs before every handler.
 */
export const guardedRoutes =
  (options: { readonly prefix?: string; readonly guard: (ctx: Ctx, params: Params) => void }) =>
  (method: string, pattern: string, handler: Handler): Route =>
    route(method, `${options.prefix ?? ""}${pattern}`, (ctx, params) => {
      options.guard(ctx, params)
      return handler(ctx, params)
    })

/** The first route whose path and method match (GET routes answer HEAD too). */
export const findRoute = (
  routes: ReadonlyArray<Route>,
  method: string,
  path: string
): { route: Route; params: Params } | "method-not-allowed" | undefined => {
  let pathMatched = false
  for (const candidate of routes) {
    const match = candidate.regex.exec(path)
    if (match === null) continue
    pathMatched = true
    if (candidate.method !== method && !(candidate.method === "GET" && method === "HEAD")) continue
    const params: Params = {}
    candidate.names.forEach((name, index) => {
      params[name] = decodeURIComponent(match[index + 1] ?? "")
    })
    return { route: candidate, params }
  }
  return pathMatched ? "method-not-allowed" : undefined
}
