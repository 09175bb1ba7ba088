import { HttpApi, HttpApiBuilder, HttpRouter } from "@effect/platform"
import { Effect, Layer } from "effect"
import { DOCS_FAVICON } from "./FaviconLive.js"

const DOCS_PATH = "/docs"

/**
 * Scalar's settings. `authentication` (a Scalar setting the platform's `ScalarConfig` type does
 * not list, passed through as is) selects the API's one scheme, HTTP Basic, so the page shows
 * where the key goes instead of "No authentication selected".
 */
const scalar = { withDefaultFonts: false, authentication: { preferredSecurityScheme: "basic" } }

/**
 * GET /docs: the API reference (Scalar, served inline: no CDN). Scalar's browser bundle is
 * a 6 MB string, held from start-up by `HttpApiScalar.layer` (about 20 MB of an idle server's
 * memory, for a page most servers never serve), so its module is imported on the first
 * request. The page is then built by `HttpApiScalar.layer` itself, on a router of its own,
 * and kept.
 */
export const ApiDocsLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const api = yield* HttpApi.Api
    const loadPage = Effect.promise(() => import("@effect/platform/HttpApiScalar")).pipe(
      Effect.flatMap((HttpApiScalar) =>
        Layer.build(Layer.merge(
          HttpApiScalar.layer({ path: DOCS_PATH, scalar: { ...scalar, favicon: DOCS_FAVICON } }),
          HttpApiBuilder.Router.Live
        ))
      ),
      Effect.flatMap((built) => Effect.provide(HttpApiBuilder.Router.router, built)),
      Effect.flatMap(HttpRouter.toHttpApp),
      Effect.provideService(HttpApi.Api, api),
      Effect.scoped
    )
    const page = yield* Effect.cached(loadPage)
    yield* router.get(DOCS_PATH, Effect.flatten(page))
  })
)
