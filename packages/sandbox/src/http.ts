import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { FaultError, parseFaultHeader, retryAfterValue, type ActiveFault, type FaultPlan, type FaultRegistry } from "./faults.js"
import { findRoute, route, type Route } from "./router.js"

export type Provider = "ats" | "hris" | "lms" | "mcp"
export const PROVIDERS: ReadonlyArray<Provider> = ["ats", "hris", "lms", "mcp"]

/** One request as a provider server saw it (admin requests under `/_sandbox` are not recorded). */
export interface SeenRequest {
  /** 1, 2, 3, ... across all servers of one sandbox. */
  readonly seq: number
  readonly provider: Provider
  readonly method: string
  readonly path: string
  readonly query: Record<string, string | Array<string>>
  /** Request headers, minus authorization / proxy-authorization / cookie. */
  readonly headers: Record<string, string | Array<string>>
  /** The body as UTF-8 text (first 64 KiB), when there was one. */
  readonly body?: string
  /** Wall-clock time the request arrived (ISO). */
  readonly at: string
  /** Faults applied to it, e.g. ["status:503 (fault_1)"]. */
  readonly faults: Array<string>
}

export class RequestLog {
  private entries: Array<SeenRequest> = []
  private seq = 0
  constructor(private readonly cap = 20000) {}
  add(entry: Omit<SeenRequest, "seq">): SeenRequest {
    const full = { ...entry, seq: ++this.seq }
    this.entries.push(full)
    if (this.entries.length > this.cap) this.entries.splice(0, this.entries.length - this.cap)
    return full
  }
  list(provider?: Provider): Array<SeenRequest> {
    return provider === undefined ? [...this.entries] : this.entries.filter((e) => e.provider === provider)
  }
  clear(): void {
    this.entries = []
  }
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {}
  ) {
    super(typeof body === "string" ? body : JSON.stringify(body))
  }
}

export interface Ctx {
  readonly req: Http.IncomingMessage
  readonly res: Http.ServerResponse
  readonly method: string
  /** Path without a trailing slash. */
  readonly path: string
  readonly query: URLSearchParams
  readonly rawBody: Buffer
  /** `http://host[:port]` from the Host header. */
  readonly origin: string
  /** The parsed body: JSON, or form fields as an object; `{}` when empty. Throws HttpError(400) on bad JSON. */
  body(): unknown
}

export const sendJson = (res: Http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  const text = body === undefined ? "" : JSON.stringify(body)
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(text)),
    ...headers
  })
  res.end(res.req?.method === "HEAD" ? undefined : text)
}

export const sendBytes = (res: Http.ServerResponse, status: number, bytes: Buffer, headers: Record<string, string>): void => {
  res.writeHead(status, { "content-length": String(bytes.length), ...headers })
  res.end(res.req?.method === "HEAD" ? undefined : bytes)
}

/** Writes `chunks` as they are made, waiting for the socket to drain; stops when the client goes away. */
export const sendChunks = (res: Http.ServerResponse, status: number, chunks: Iterable<Buffer>, headers: Record<string, string>): void => {
  res.writeHead(status, headers)
  if (res.req?.method === "HEAD") {
    res.end()
    return
  }
  const source = chunks[Symbol.iterator]()
  let closed = false
  res.on("close", () => {
    closed = true
  })
  const pump = (): void => {
    while (!closed) {
      const next = source.next()
      if (next.done === true) {
        res.end()
        return
      }
      if (!res.write(next.value)) {
        res.once("drain", pump)
        return
      }
    }
  }
  pump()
}

/** Basic credentials from the Authorization header, or undefined. */
export const basicAuth = (req: Http.IncomingMessage): { user: string; password: string } | undefined => {
  const header = req.headers.authorization
  if (header === undefined) return undefined
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header)
  if (m === null) return undefined
  const decoded = Buffer.from(m[1] as string, "base64").toString("utf8")
  const colon = decoded.indexOf(":")
  return colon < 0 ? { user: decoded, password: "" } : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) }
}

const MAX_BODY = 64 * 1024 * 1024

const readBody = (req: Http.IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    req.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY) {
        reject(new HttpError(413, { message: "Request body too large" }))
        req.destroy()
        return
      }
      chunks.push(chunk)
    })
    req.on("end", () => resolve(Buffer.concat(chunks)))
    req.on("error", reject)
  })

const parseBody = (req: Http.IncomingMessage, raw: Buffer): unknown => {
  if (raw.length === 0) return {}
  const type = (req.headers["content-type"] ?? "").toLowerCase()
  const text = raw.toString("utf8")
  if (type.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(text))
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new HttpError(400, { message: "Request body is not valid JSON" })
  }
}

const headerRecord = (headers: Http.IncomingHttpHeaders): Record<string, string | Array<string>> => {
  const out: Record<string, string | Array<string>> = {}
  for (const [key, value] of Object.entries(headers)) {
    if (value === undefined) continue
    if (key === "authorization" || key === "proxy-authorization" || key === "cookie") continue
    out[key] = value
  }
  return out
}

const queryRecord = (query: URLSearchParams): Record<string, string | Array<string>> => {
  const out: Record<string, string | Array<string>> = {}
  for (const key of new Set(query.keys())) {
    const all = query.getAll(key)
    out[key] = all.length === 1 ? (all[0] as string) : all
  }
  return out
}

const describeFault = (f: ActiveFault): string => {
  const detail =
    f.kind === "status" ? `:${f.status ?? 500}` :
    f.kind === "latency" ? `:${f.latencyMs ?? 1000}ms` :
    f.kind === "oversized" ? `:${f.sizeMiB ?? 5}MiB` :
    f.kind === "rate_limit" ? `:${f.retryAfter ?? 1}` : ""
  return `${f.kind}${detail} (${f.source})`
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** The shared state every provider server sees: faults, the request log and the admin hooks. */
export interface Shared {
  readonly faults: FaultRegistry
  readonly log: RequestLog
  reset(): void
  info(): unknown
}

/** Streams `{"padding":"xxxx..."}` of about `mib` MiB; valid JSON, just big. */
const sendOversized = (res: Http.ServerResponse, mib: number): void => {
  const total = Math.max(16, Math.floor(mib * 1024 * 1024))
  const head = '{"padding":"'
  const tail = '"}'
  const fill = total - head.length - tail.length
  const chunk = Buffer.alloc(64 * 1024, "x")
  function* body(): Generator<Buffer> {
    yield Buffer.from(head)
    for (let left = fill; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left)
    yield Buffer.from(tail)
  }
  sendChunks(res, 200, body(), { "content-type": "application/json; charset=utf-8", "content-length": String(head.length + fill + tail.length) })
}

/** Runs the terminal fault, if any. Returns true when the request was answered (or dropped). */
const applyTerminal = (ctx: { req: Http.IncomingMessage; res: Http.ServerResponse }, fault: ActiveFault): void => {
  const { req, res } = ctx
  switch (fault.kind) {
    case "status": {
      const status = fault.status ?? 500
      const retry = retryAfterValue(fault, undefined)
      sendJson(res, status, { message: `Sandbox fault: HTTP ${status}`, sandbox_fault: "status" }, retry !== undefined ? { "retry-after": retry } : {})
      return
    }
    case "rate_limit": {
      const retry = retryAfterValue(fault, 1) as string
      sendJson(res, 429, { message: "Too Many Requests", sandbox_fault: "rate_limit" }, { "retry-after": retry })
      return
    }
    case "timeout":
      // Accept and never answer; the socket is freed when the client goes away or the sandbox closes.
      req.socket.setTimeout(0)
      return
    case "reset":
      req.socket.destroy()
      return
    case "malformed_json": {
      const text = '{"id": 1, "name": "truncated", "items": [{"id": 2, '
      res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": String(Buffer.byteLength(text)) })
      res.end(text)
      return
    }
    case "oversized":
      sendOversized(res, fault.sizeMiB ?? 5)
      return
    case "latency":
      return
  }
}

const adminRoutes = (shared: Shared, provider: Provider): ReadonlyArray<Route> => [
  route("GET", "/_sandbox", (ctx) => sendJson(ctx.res, 200, shared.info())),
  route("GET", "/_sandbox/faults", (ctx) => sendJson(ctx.res, 200, shared.faults.list())),
  route("POST", "/_sandbox/faults", (ctx) => {
    try {
      const added = shared.faults.add(ctx.body() as FaultPlan | Array<FaultPlan>)
      sendJson(ctx.res, 201, added)
    } catch (e) {
      if (e instanceof FaultError) throw new HttpError(400, { message: e.message })
      throw e
    }
  }),
  route("DELETE", "/_sandbox/faults", (ctx) => {
    shared.faults.clear()
    sendJson(ctx.res, 200, { cleared: true })
  }),
  route("DELETE", "/_sandbox/faults/:id", (ctx, p) => {
    if (!shared.faults.remove(p["id"] as string)) throw new HttpError(404, { message: "No such fault" })
    sendJson(ctx.res, 200, { removed: p["id"] })
  }),
  route("GET", "/_sandbox/requests", (ctx) => {
    const which = ctx.query.get("provider") ?? provider
    if (which !== "all" && !(PROVIDERS as ReadonlyArray<string>).includes(which)) throw new HttpError(400, { message: "provider must be ats, hris, lms, mcp or all" })
    sendJson(ctx.res, 200, shared.log.list(which === "all" ? undefined : (which as Provider)))
  }),
  route("DELETE", "/_sandbox/requests", (ctx) => {
    shared.log.clear()
    sendJson(ctx.res, 200, { cleared: true })
  }),
  route("POST", "/_sandbox/reset", (ctx) => {
    const body = ctx.body() as { faults?: unknown; requests?: unknown }
    shared.reset()
    if (body.faults === true) shared.faults.clear()
    if (body.requests === true) shared.log.clear()
    sendJson(ctx.res, 200, { reset: true })
  })
]

export interface ProviderServer {
  readonly provider: Provider
  readonly server: Http.Server
  readonly url: string
  close(): Promise<void>
}

/**
 * A provider's HTTP server: admin routes under `/_sandbox`, then the request log, faults, and the
 * provider's own routes (unmatched paths answer `notFound`).
 */
export const startProviderServer = async (options: {
  readonly provider: Provider
  readonly shared: Shared
  readonly host: string
  readonly port: number
  readonly routes: ReadonlyArray<Route>
  readonly notFound: (ctx: Ctx) => void
  readonly onError?: (ctx: Ctx, error: HttpError) => void
  /** Raw handler for paths it claims (MCP); runs after faults and logging. */
  readonly raw?: (ctx: Ctx, parsedBody: unknown) => Promise<boolean>
}): Promise<ProviderServer> => {
  const { provider, shared } = options
  const admin = adminRoutes(shared, provider)
  const sendError = (ctx: Ctx, error: HttpError): void => {
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

  const handle = async (req: Http.IncomingMessage, res: Http.ServerResponse): Promise<void> => {
    const host = req.headers.host ?? `${options.host}:0`
    const url = new URL(req.url ?? "/", `http://${host}`)
    const rawPath = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, "") : url.pathname
    const method = (req.method ?? "GET").toUpperCase()
    let rawBody: Buffer = Buffer.alloc(0)
    let parsed: unknown
    let parsedDone = false
    const ctx: Ctx = {
      req,
      res,
      method,
      path: rawPath,
      query: url.searchParams,
      get rawBody() {
        return rawBody
      },
      origin: `http://${host}`,
      body() {
        if (!parsedDone) {
          parsed = parseBody(req, rawBody)
          parsedDone = true
        }
        return parsed
      }
    }
    try {
      rawBody = await readBody(req)
      if (rawPath === "/_sandbox" || rawPath.startsWith("/_sandbox/")) {
        const found = findRoute(admin, method, rawPath)
        if (found === undefined) throw new HttpError(404, { message: "No such sandbox admin route" })
        if (found === "method-not-allowed") throw new HttpError(405, { message: "Method not allowed" })
        await found.route.handler(ctx, found.params)
        return
      }
      const appliedNames: Array<string> = []
      const entry = {
        provider,
        method,
        path: rawPath,
        query: queryRecord(url.searchParams),
        headers: headerRecord(req.headers),
        ...(rawBody.length > 0 ? { body: rawBody.subarray(0, 65536).toString("utf8") } : {}),
        at: new Date().toISOString(),
        faults: appliedNames
      }
      shared.log.add(entry)
      let faults: Array<ActiveFault>
      try {
        faults = [...parseFaultHeader(req.headers["x-sandbox-fault"]), ...shared.faults.take(provider, method, rawPath)]
      } catch (e) {
        if (e instanceof FaultError) throw new HttpError(400, { message: e.message })
        throw e
      }
      appliedNames.push(...faults.map(describeFault))
      const delay = faults.filter((f) => f.kind === "latency").reduce((sum, f) => sum + (f.latencyMs ?? 1000), 0)
      if (delay > 0) await sleep(delay)
      const terminal = faults.find((f) => f.kind !== "latency")
      if (terminal !== undefined) {
        applyTerminal({ req, res }, terminal)
        return
      }
      if (options.raw !== undefined) {
        let body: unknown
        try {
          body = rawBody.length > 0 ? ctx.body() : undefined
        } catch {
          body = undefined
        }
        if (await options.raw(ctx, body)) return
      }
      const found = findRoute(options.routes, method, rawPath)
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

/** Greenhouse-style page-number pagination with RFC 5988 Link headers. */
export const paginate = <T>(
  ctx: Ctx,
  items: ReadonlyArray<T>,
  options: { readonly defaultPerPage?: number; readonly maxPerPage?: number; readonly invalid: (message: string, field: string) => HttpError }
): Array<T> => {
  const maxPer = options.maxPerPage ?? 500
  const perRaw = ctx.query.get("per_page")
  const pageRaw = ctx.query.get("page")
  const perPage = perRaw === null ? (options.defaultPerPage ?? 100) : Number(perRaw)
  const page = pageRaw === null ? 1 : Number(pageRaw)
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > maxPer) throw options.invalid(`per_page must be an integer between 1 and ${maxPer}`, "per_page")
  if (!Number.isInteger(page) || page < 1) throw options.invalid("page must be a positive integer", "page")
  const lastPage = Math.max(1, Math.ceil(items.length / perPage))
  const skipCount = ctx.query.get("skip_count") === "true"
  const link = (n: number): string => {
    const q = new URLSearchParams(ctx.query)
    q.set("page", String(n))
    q.set("per_page", String(perPage))
    return `<${ctx.origin}${ctx.path}?${q.toString()}>`
  }
  const parts: Array<string> = []
  if (page < lastPage) parts.push(`${link(page + 1)}; rel="next"`)
  if (page > 1) parts.push(`${link(Math.min(page - 1, lastPage))}; rel="prev"`)
  if (!skipCount && (page > 1 || lastPage > 1)) parts.push(`${link(lastPage)}; rel="last"`)
  if (parts.length > 0) ctx.res.setHeader("link", parts.join(", "))
  return items.slice((page - 1) * perPage, page * perPage)
}
