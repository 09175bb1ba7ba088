import { NotFound, NotFoundBody } from "@switchyard/api"
import { Schema } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { METRICS_CONTENT_TYPE } from "./ServerMetrics.js"

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
