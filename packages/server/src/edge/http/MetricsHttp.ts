import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { InternalServerError, NotFound, Unauthorized, UnauthorizedBody } from "@switchyard/api"
import { Effect, Layer, Option, Redacted, Schema } from "effect"
import * as Crypto from "node:crypto"
import { SwitchyardConfig } from "../../platform/Config.js"
import { answerPrimaryForMetrics, fleetMetricsFromPrimary, inClusterWorker } from "../../platform/metrics/ClusterMetrics.js"
import { startMetricsServer } from "../MetricsServer.js"
import { enableMetrics, localMetricsText, METRICS_CONTENT_TYPE } from "../../platform/metrics/ServerMetrics.js"

const digest = (text: string) => Crypto.createHash("sha256").update(text).digest()

/** Compares digests, so the time taken says nothing about the token, not even its length. */
const tokenMatches = (expected: Buffer, authorization: string | undefined) => {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1]
  return given !== undefined && Crypto.timingSafeEqual(digest(given), expected)
}

const unauthorized = HttpServerResponse.unsafeJson(
  Schema.encodeSync(UnauthorizedBody)(new Unauthorized({ message: "GET /metrics needs the metrics bearer token" })),
  { status: 401, headers: { "www-authenticate": `Bearer realm="switchyard-metrics"` } }
)

/** This process's metrics, or in a cluster worker the whole fleet's as the primary sums them. */
const metricsText = () => inClusterWorker() ? fleetMetricsFromPrimary() : localMetricsText()

/**
 * `GET /metrics` on the main port, for the operator (not an API-key endpoint, not in the
 * OpenAPI document): behind SWITCHYARD_METRICS_TOKEN; without a token it is not there (404).
 */
export const MetricsEndpointLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const config = yield* SwitchyardConfig
    const expected = Option.map(config.metrics.token, (token) => digest(Redacted.value(token)))
    const handler = Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      if (Option.isNone(expected)) return yield* new NotFound({ message: "No route for GET /metrics" })
      if (!tokenMatches(expected.value, request.headers["authorization"])) {
        return unauthorized
      }
      const text = yield* Effect.tryPromise({
        try: metricsText,
        catch: (cause) =>
          new InternalServerError({ message: `The metrics could not be collected: ${cause instanceof Error ? cause.message : "unknown"}` })
      })
      return HttpServerResponse.text(text, { contentType: METRICS_CONTENT_TYPE })
    })
    yield* router.get("/metrics", handler)
  })
)

/**
 * Turns recording on when metrics are configured (a token or METRICS_PORT), and serves
 * METRICS_PORT in a single process. A cluster worker leaves that port to the primary
 * (`serveClusterMetrics`), which sums all workers' metrics.
 */
export const MetricsLive = Layer.scopedDiscard(
  Effect.gen(function*() {
    const { metrics } = yield* SwitchyardConfig
    if (Option.isNone(metrics.token) && Option.isNone(metrics.port)) return
    enableMetrics()
    answerPrimaryForMetrics()
    if (Option.isNone(metrics.port) || inClusterWorker()) return
    const port = metrics.port.value
    yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => startMetricsServer({ port, host: metrics.host, metrics: localMetricsText }),
        catch: (cause) => new Error(`METRICS_PORT ${port} on ${metrics.host} could not be opened: ${String(cause)}`)
      }),
      (server) => Effect.promise(server.close)
    ).pipe(Effect.orDie)
  })
)
