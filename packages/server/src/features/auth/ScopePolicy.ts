import type { ApiKeyScope } from "@switchyard/api"

const readMethods = new Set(["GET", "HEAD", "OPTIONS"])

/** Whether a request with `method` only reads (what Read Only keys may send, and cookie requests may send from anywhere). */
export const isReadMethod = (method: string) => readMethods.has(method.toUpperCase())

/** The path families each narrow scope may use (spec, Authentication: scopes). */
const scopePaths: Record<Exclude<ApiKeyScope, "full_access" | "read_only">, ReadonlyArray<RegExp>> = {
  accounts: [/^\/v2\/accounts(\/|$)/, /^\/connect_sessions(\/|$)/],
  actions: [/^\/actions\/rpc\/?$/, /^\/mcp\/?$/, /^\/unified\//]
}

/** Key management: a key that may list or mint keys holds every scope, so only Full Access may. */
const fullAccessOnly = /^\/v2\/api_keys(\/|$)/

/** Whether a key with `scope` may make a `method` request to `path`. */
export const scopeAllows = (scope: ApiKeyScope, method: string, path: string): boolean => {
  if (fullAccessOnly.test(path)) return scope === "full_access"
  switch (scope) {
    case "full_access":
      return true
    case "read_only":
      return isReadMethod(method)
    default:
      return scopePaths[scope].some((pattern) => pattern.test(path))
  }
}
