import { HttpApiBuilder, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NotFound } from "@switchyard/api"
import { Effect } from "effect"
import { loadDashboardAssets } from "./dashboardAssets.js"
import { dashboardNotBuiltPage, dashboardPage, dashboardPageHeaders } from "./dashboardPage.js"

/*
 * The dashboard: `GET /dashboard` (one page; its views are in the URL's fragment) and
 * `/dashboard/assets/{file}` (its script and style, gzipped when the browser accepts it).
 * Its data comes from the API itself, authenticated by the session cookie that
 * `/dashboard/session` sets (DashboardSessionLive.ts).
 */

const acceptsGzip = (request: HttpServerRequest.HttpServerRequest) =>
  /\bgzip\b/i.test(request.headers["accept-encoding"] ?? "")

export const DashboardPageLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const assets = yield* loadDashboardAssets

    const page = assets === undefined
      ? HttpServerResponse.text(dashboardNotBuiltPage, { status: 503, contentType: "text/html; charset=utf-8", headers: dashboardPageHeaders })
      : HttpServerResponse.text(dashboardPage, { contentType: "text/html; charset=utf-8", headers: dashboardPageHeaders })
    yield* router.get(
      "/dashboard",
      Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
        // The router also matches `/dashboard/`, where the page's relative asset paths would
        // miss: send the browser to the page's one address (relative, so a path prefix holds).
        new URL(request.url, "http://switchyard").pathname.endsWith("/")
          ? HttpServerResponse.empty({ status: 308, headers: { location: "../dashboard", "cache-control": "no-store" } })
          : page)
    )

    yield* router.get(
      "/dashboard/assets/:file",
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const asset = assets?.get((yield* HttpRouter.params).file ?? "")
        if (asset === undefined) {
          return yield* new NotFound({ message: `No resource at GET ${new URL(request.url, "http://switchyard").pathname}` })
        }
        const gzip = acceptsGzip(request)
        const headers = {
          etag: asset.etag,
          "cache-control": "no-cache",
          vary: "accept-encoding",
          "x-content-type-options": "nosniff",
          "content-security-policy": "default-src 'none'",
          ...(gzip ? { "content-encoding": "gzip" } : {})
        }
        return request.headers["if-none-match"] === asset.etag
          ? HttpServerResponse.empty({ status: 304, headers })
          : HttpServerResponse.uint8Array(gzip ? asset.gzipped : asset.body, { contentType: asset.contentType, headers })
      })
    )
  })
)
