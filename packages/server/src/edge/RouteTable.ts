import type { HttpApi, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Authentication, escapeRegExp } from "@switchyard/api"
import { Option } from "effect"

/** One API operation as the request guards see it: before the router has matched anything. */
export interface ApiRoute {
  readonly method: string
  readonly path: string
  /** Names of the `:param` segments, in order. */
  readonly params: ReadonlyArray<string>
  /** Whether the operation reads a JSON body. */
  readonly readsBody: boolean
  /** Whether the caller must authenticate (the Authentication middleware guards it). */
  readonly authenticated: boolean
  readonly pattern: RegExp
}

export interface RouteMatch {
  readonly route: ApiRoute
  /** Raw (still percent-encoded) path segments by parameter name. */
  readonly params: Readonly<Record<string, string>>
}

const toRoute = (
  group: HttpApiGroup.HttpApiGroup.AnyWithProps,
  endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
): ApiRoute => {
  const params: Array<string> = []
  const source = endpoint.path.split("/").map((segment) => {
    if (!segment.startsWith(":")) return escapeRegExp(segment)
    params.push(segment.slice(1).replace(/\?$/, ""))
    return "([^/]+)"
  }).join("/")
  return {
    method: endpoint.method,
    path: endpoint.path,
    params,
    readsBody: Option.isSome(endpoint.payloadSchema) && !["GET", "HEAD", "OPTIONS"].includes(endpoint.method),
    authenticated: [...group.middlewares, ...endpoint.middlewares].some((tag) => tag.key === Authentication.key),
    pattern: new RegExp(`^${source}/?$`)
  }
}

/**
 * The API's operations, matched by path alone: the router answers a wrong method with the same
 * `RouteNotFound` as an unknown path, and the guards must know a route before routing.
 */
export const routeTable = (api: HttpApi.HttpApi.Any) => {
  const routes: Array<ApiRoute> = []
  const { groups } = api as unknown as HttpApi.HttpApi.AnyWithProps
  for (const group of Object.values(groups) as Array<HttpApiGroup.HttpApiGroup.AnyWithProps>) {
    for (const endpoint of Object.values(group.endpoints)) routes.push(toRoute(group, endpoint))
  }
  const matching = (path: string): Array<RouteMatch> =>
    routes.flatMap((route) => {
      const found = route.pattern.exec(path)
      if (found === null) return []
      const params = Object.fromEntries(route.params.map((name, i) => [name, found[i + 1]!]))
      return [{ route, params }]
    })
  return {
    /** The operation for this method and path, if any (HEAD as GET, as the router serves it). */
    find: (method: string, path: string): RouteMatch | undefined => {
      const wanted = method === "HEAD" ? "GET" : method
      const candidates = matching(path).filter(({ route }) => route.method === wanted)
      // a literal segment beats a parameter (`/v2/accounts/filters` over `/v2/accounts/:id`)
      return candidates.sort((a, b) => a.route.params.length - b.route.params.length)[0]
    },
    /** The methods some operation on this path allows (empty when the path is unknown). */
    allowedMethods: (path: string): ReadonlyArray<string> => [...new Set(matching(path).map(({ route }) => route.method))]
  }
}

export type RouteTable = ReturnType<typeof routeTable>
