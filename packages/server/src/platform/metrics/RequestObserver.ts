import { type HttpApp, HttpMiddleware, HttpServerError, HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { Context, Effect, FiberRef } from "effect"
import { routerTarget } from "./routerTarget.js"
import { recordHttpRequest } from "./ServerMetrics.js"

/** Where the request guards leave the matched operation's path template for the observer. */
interface RouteSlot {
  route: string | undefined
}

const currentRouteSlot = FiberRef.unsafeMake<RouteSlot | undefined>(undefined)

/** Tells the observer which API operation (its path template) this request matched. */
export const noteRoute = (route: string) =>
  Effect.withFiberRuntime<void>((fiber) => {
    const slot = fiber.getFiberRef(currentRouteSlot)
    if (slot !== undefined) slot.route = route
    return Effect.void
  })

/** Paths served beside the HttpApi (on its router), which the guards do not match. */
const extraRoutes: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\/mcp\/?$/, "/mcp"],
  [/^\/openapi\.json$/, "/openapi.json"],
  [/^\/docs\/?$/, "/docs"],
  [/^\/favicon\.ico$/, "/favicon.ico"],
  [/^\/metrics$/, "/metrics"],
  [/^\/connect\/?$/, "/connect"],
  [/^\/connect\/assets\/[^/]+$/, "/connect/assets/:file"],
  [/^\/connect\/icons\/[^/]+$/, "/connect/icons/:file"],
  [/^\/connect\/oauth2\/[^/]+\/callback$/, "/connect/oauth2/:connector_key/callback"]
]

/** A bounded label for a request no API operation matched: a known extra route, else "unmatched". */
const extraRoute = (url: string) => {
  const { path } = routerTarget(url)
  for (const [pattern, route] of extraRoutes) if (pattern.test(path)) return route
  return "unmatched"
}

/**
 * Every request's metrics and its one log line (method, route template, status, duration,
 * trace and span ids when the request has a span). Never the raw path or query (ids, connect
 * tokens), headers or bodies.
 */
export const observeRequests = <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
  Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest>((fiber) => {
    const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
    const span = fiber.currentSpan
    const slot: RouteSlot = { route: undefined }
    const started = performance.now()
    return Effect.flatMap(Effect.exit(Effect.locally(app, currentRouteSlot, slot)), (exit) => {
      const seconds = (performance.now() - started) / 1000
      const status = exit._tag === "Success"
        ? exit.value.status
        : HttpServerError.causeResponseStripped(exit.cause)[0].status
      const route = slot.route ?? extraRoute(request.url)
      recordHttpRequest(request.method, route, status, seconds)
      if (fiber.getFiberRef(HttpMiddleware.loggerDisabled)) return exit
      return Effect.zipRight(
        Effect.annotateLogs(Effect.log("Sent HTTP response"), {
          "http.method": request.method,
          "http.route": route,
          "http.status": status,
          "duration_ms": Math.round(seconds * 100_000) / 100,
          ...(span === undefined ? {} : { trace_id: span.traceId, span_id: span.spanId })
        }),
        exit
      )
    })
  })
