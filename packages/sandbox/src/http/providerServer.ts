import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { findRoute, type Route } from "../router.js"
import { adminRoutes, isAdminPath } from "./adminRoutes.js"
import { RequestCtx, type Ctx } from "./ctx.js"
import { activeFaults, answerWithFault, describeFault, sleep, totalLatencyMs } from "./faultInjection.js"
import { HttpError } from "./httpError.js"
import { readBody } from "./requestBody.js"
import { logRequest } from "./requestLog.js"
import { sendJson } from "./responses.js"
import type { Provider, Shared } from "./shared.js"

export interface ProviderServer {
  readonly provider: Provider
  readonly server: Http.Server
  readonly url: string
  close(): Promise<void>
}

export interface ProviderServerOptions {
  readonly provider: Provider
  readonly shared: Shared
  readonly host: string
  readonly port: number
  readonly routes: ReadonlyArray<Route>
  readonly notFound: (ctx: Ctx) => void
  readonly onError?: (ctx: Ctx, error: HttpError) => void
  /** Raw handler for paths it claims (MCP); runs after faults and logging. */
  readonly raw?: (ctx: Ctx, parsedBody: unknown) => Promise<boolean>
  /** How a request body appears in the request log (default: its first 64 KiB as text), e.g. to redact secrets. */
  readonly logBody?: (ctx: Ctx) => string
}

/** A new Ctx for a request; the path loses trailing slashes so `/v1/jobs/` is `/v1/jobs`. */
const requestCtx = (req: Http.IncomingMessage, res: Http.ServerResponse, listenHost: string): RequestCtx => {
  const host = req.headers.host ?? `${listenHost}:0`
  const url = new URL(req.url ?? "/", `http://${host}`)
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, "") : url.pathname
  const method = (req.method ?? "GET").toUpperCase()
  return new RequestCtx(req, res, method, path, url.searchParams, `http://${host}`)
}

/**
 * A provider's HTTP server: admin routes under `/_sandbox`, then the request log, faults, and the
 * provider's own routes (unmatched paths answer `notFound`).
 */
export const startProviderServer = async (options: ProviderServerOptions): Promise<ProviderServer> => {
  const { provider, shared } = options
  const admin = adminRoutes(shared, provider)

  const sendError = (ctx: Ctx, error: HttpError): void => {
    // Too late for an error answer once a response has started: cut the connection instead.
    if (ctx.res.headersSent) {
      ctx.res.destroy()
      return
    }
    if (options.onError !== undefined) options.onError(ctx, error)
    else if (typeof error.body === "string") {
      ctx.res.writeHead(error.status, { "content-type": "text/plain; charset=utf-8", ...error.headers })
      ctx.res.end(error.body)
    } else sendJson(ctx.res, error.status, error.body, error.headers)
  }

  const answerAdmin = async (ctx: Ctx): Promise<void> => {
    const found = findRoute(admin, ctx.method, ctx.path)
    if (found === undefined) throw new HttpError(404, { message: "No such sandbox admin route" })
    if (found === "method-not-allowed") throw new HttpError(405, { message: "Method not allowed" })
    await found.route.handler(ctx, found.params)
  }

  /** MCP's handler gets the parsed body, or undefined when there is none or it is not JSON. */
  const answerRaw = async (raw: NonNullable<ProviderServerOptions["raw"]>, ctx: Ctx): Promise<boolean> => {
    let body: unknown
    try {
      body = ctx.rawBody.length > 0 ? ctx.body() : undefined
    } catch {
      body = undefined
    }
    return raw(ctx, body)
  }

  const handle = async (req: Http.IncomingMessage, res: Http.ServerResponse): Promise<void> => {
    const ctx = requestCtx(req, res, options.host)
    try {
      ctx.rawBody = await readBody(req)
      if (isAdminPath(ctx.path)) {
        await answerAdmin(ctx)
        return
      }
      const appliedFaults = logRequest(shared.log, provider, ctx, options.logBody)
      const faults = activeFaults(shared.faults, provider, req, ctx.method, ctx.path)
      appliedFaults.push(...faults.map(describeFault))
      const delay = totalLatencyMs(faults)
      if (delay > 0) await sleep(delay)
      const terminal = faults.find((fault) => fault.kind !== "latency")
      if (terminal !== undefined) {
        answerWithFault(req, res, terminal)
        return
      }
      if (options.raw !== undefined && (await answerRaw(options.raw, ctx))) return
      const found = findRoute(options.routes, ctx.method, ctx.path)
      if (found === undefined) {
        options.notFound(ctx)
        return
      }
      if (found === "method-not-allowed") throw new HttpError(405, { message: "Method not allowed" })
      await found.route.handler(ctx, found.params)
    } catch (e) {
      if (e instanceof HttpError) sendError(ctx, e)
      else sendError(ctx, new HttpError(500, { message: `Sandbox internal error: ${e instanceof Error ? e.message : String(e)}` }))
    }
  }

  const server = Http.createServer((req, res) => {
    void handle(req, res)
  })
  // Idle keep-alive sockets must not keep close() waiting forever.
  server.keepAliveTimeout = 5000
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port, options.host, () => {
      server.off("error", reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const hostForUrl = address.family === "IPv6" ? `[${address.address}]` : address.address
  return {
    provider,
    server,
    url: `http://${hostForUrl}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}
