import { HttpApiBuilder, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NotFound } from "@switchyard/api"
import { Effect, Layer } from "effect"
import { ConnectSessionsRepo } from "../../features/connectSessions/ConnectSessionsRepo.js"
import { ProjectsRepo } from "../../features/projects/ProjectsRepo.js"
import { loadConnectAssets } from "./connectAssets.js"
import { connectErrorPage } from "./connectErrorPage.js"
import { connectShellPage } from "./connectShellPage.js"
import { lookUpConnectLink } from "./lookUpConnectLink.js"
import { monogramIcon } from "./monogramIcon.js"

/*
 * The hosted connect page beside the API: `GET /connect?token=` (the page, or its error page
 * with 401/410), `/connect/assets/{file}` (its script and style) and
 * `/connect/icons/{connector_key}.svg` (a monogram drawn here). The page's JSON calls are
 * the API's own `/connect_sessions/*` endpoints, where the token is the credential.
 */

const MAX_ICON_NAME = 200

/** An HTML page with its headers (the content type goes through the body, once). */
const htmlResponse = (page: { readonly html: string; readonly headers: Record<string, string> }, status = 200) => {
  const { "content-type": contentType, ...headers } = page.headers
  return HttpServerResponse.text(page.html, { status, contentType, headers })
}

const queryOf = (request: HttpServerRequest.HttpServerRequest) => new URL(request.url, "http://switchyard").searchParams

const notFound = (request: HttpServerRequest.HttpServerRequest) =>
  new NotFound({ message: `No resource at ${request.method} ${new URL(request.url, "http://switchyard").pathname}` })

export const ConnectPageLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const assets = yield* loadConnectAssets
    const stores = yield* Effect.context<ConnectSessionsRepo | ProjectsRepo>()

    yield* router.get(
      "/connect",
      Effect.gen(function*() {
        const link = yield* lookUpConnectLink(queryOf(yield* HttpServerRequest.HttpServerRequest).get("token"))
        if (link.usable) return htmlResponse(connectShellPage(link.frameOrigins))
        const page = connectErrorPage(link.problem, link.frameOrigins)
        return htmlResponse(page, page.status)
      }).pipe(Effect.provide(stores))
    )

    yield* router.get(
      "/connect/assets/:file",
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const asset = assets.get((yield* HttpRouter.params).file ?? "")
        if (asset === undefined) return yield* notFound(request)
        const headers = {
          etag: asset.etag,
          "cache-control": "no-cache",
          "x-content-type-options": "nosniff",
          "content-security-policy": "default-src 'none'"
        }
        return request.headers["if-none-match"] === asset.etag
          ? HttpServerResponse.empty({ status: 304, headers })
          : HttpServerResponse.uint8Array(asset.body, { contentType: asset.contentType, headers })
      })
    )

    yield* router.get(
      "/connect/icons/:file",
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const key = /^([a-z0-9_-]{1,100})\.svg$/.exec((yield* HttpRouter.params).file ?? "")?.[1]
        if (key === undefined) return yield* notFound(request)
        const name = queryOf(request).get("name")?.slice(0, MAX_ICON_NAME) || key
        return HttpServerResponse.text(monogramIcon(key, name), {
          contentType: "image/svg+xml; charset=utf-8",
          headers: {
            "cache-control": "public, max-age=86400",
            "x-content-type-options": "nosniff",
            "content-security-policy": "default-src 'none'"
          }
        })
      })
    )
  })
).pipe(Layer.provide([ConnectSessionsRepo.Default, ProjectsRepo.Default]))
