import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { loadConnectAssets } from "../connectPage/connectAssets.js"

/** The path of the icon relative to /docs, as the docs page links it (relative: it works under a path prefix too). */
export const DOCS_FAVICON = "favicon.ico"

/**
 * GET /favicon.ico: Switchyard's icon, the SVG the connect pages link from their assets
 * (browsers ask for /favicon.ico on every site, and the docs page links it), instead of a 404
 * in every browser's console. An SVG answers with its own type: browsers go by the type, not
 * the name. Kept a day by browsers and proxies; it changes with a release at the most.
 */
export const FaviconLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const icon = (yield* loadConnectAssets).get("favicon.svg")!
    yield* router.get(
      "/favicon.ico",
      Effect.succeed(HttpServerResponse.uint8Array(icon.body, {
        contentType: icon.contentType,
        headers: {
          etag: icon.etag,
          "cache-control": "public, max-age=86400",
          "x-content-type-options": "nosniff",
          "content-security-policy": "default-src 'none'"
        }
      }))
    )
  })
)
