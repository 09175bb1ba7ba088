import { NotFound, NotFoundBody } from "@switchyard/api"
import { Effect, Layer, Option, Schema } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { SwitchyardConfig } from "../platform/Config.js"
import { answerWorkersForMetrics, fleetMetrics } from "../platform/metrics/ClusterMetrics.js"
import { METRICS_CONTENT_TYPE } from "../platform/metrics/ServerMetrics.js"

export interface MetricsServer {
  readonly port: number
  readonly close: () => Promise<void>
}

const notFound = (method: string | undefined, url: string | undefined) =>
  JSON.stringify(Schema.encodeSync(NotFoundBody)(new NotFound({
    message: `No route for ${method ?? "?"} ${new URL(url ?? "/", "http://metrics").pathname}: this port serves GET /metrics only`
  })))

/**
 * The plain metrics port (METRICS_PORT): `GET /metrics` answers `metrics()`'s text, anything
 * else 404 in the API's error shape. No token: the port is meant for the operator's network.
 */
export const startMetricsServer = (options: {
  readonly port: number
  readonly host: string
  readonly metrics: () => Promise<string>
}): Promise<MetricsServer> =>
  new Promise((resolve, reject) => {
    const server: Server = createServer((request, response) => {
      const path = new URL(request.url ?? "/", "http://metrics").pathname
      if ((request.method === "GET" || request.method === "HEAD") && path === "/metrics") {
        options.metrics().then(
          (text) => {
            response.writeHead(200, { "content-type": METRICS_CONTENT_TYPE })
            response.end(request.method === "HEAD" ? undefined : text)
          },
          () => {
            response.writeHead(500, { "content-type": "application/json" })
            response.end(JSON.stringify({ statusCode: 500, message: "metrics could not be collected", timestamp: new Date().toISOString() }))
          }
        )
        return
      }
      response.writeHead(404, { "content-type": "application/json" })
      response.end(notFound(request.method, request.url))
    })
    server.once("error", reject)
    server.listen(options.port, options.host, () => {
      server.off("error", reject)
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((done) => server.close(() => done()))
      })
    })
  })

/**
 * In the primary: answers workers asking for the fleet's metrics (their main-port /metrics)
 * and, with `port`, serves them on METRICS_PORT at `host`. Call once, before or after forking.
 */
export const serveClusterMetrics = async (options: {
  readonly port?: number | undefined
  readonly host?: string | undefined
} = {}): Promise<{ readonly server: MetricsServer | undefined; readonly close: () => Promise<void> }> => {
  const stopAnswering = answerWorkersForMetrics()
  const server = options.port === undefined
    ? undefined
    : await startMetricsServer({ port: options.port, host: options.host ?? "127.0.0.1", metrics: fleetMetrics })
      .catch((error: unknown) => {
        stopAnswering()
        throw error
      })
  return {
    server,
    close: async () => {
      stopAnswering()
      await server?.close()
    }
  }
}
/**
 * The primary's side as a layer: when metrics are configured (SWITCHYARD_METRICS_TOKEN or
 * METRICS_PORT), answers the workers' requests for the fleet's metrics and serves METRICS_PORT
 * (at METRICS_HOST) with their sum, until the layer's scope closes. Nothing otherwise.
 */
export const ClusterMetricsLive = Layer.scopedDiscard(
  Effect.gen(function*() {
    const { metrics } = yield* SwitchyardConfig
    if (Option.isNone(metrics.token) && Option.isNone(metrics.port)) return
    const port = Option.getOrUndefined(metrics.port)
    yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => serveClusterMetrics({ port, host: metrics.host }),
        catch: (cause) => new Error(`METRICS_PORT ${port} on ${metrics.host} could not be opened: ${String(cause)}`)
      }),
      (served) => Effect.promise(served.close)
    ).pipe(Effect.orDie)
  })
)

