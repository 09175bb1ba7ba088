import type * as Http from "node:http"
import type { Ctx } from "./ctx.js"
import type { Provider } from "./shared.js"

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

/** The requests of one sandbox, oldest first; past `cap` entries the oldest are dropped. */
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
    return provider === undefined ? [...this.entries] : this.entries.filter((entry) => entry.provider === provider)
  }
  clear(): void {
    this.entries = []
  }
}

/** Credentials never reach the log (it is served at `/_sandbox/requests` without authentication). */
const headerRecord = (headers: Http.IncomingHttpHeaders): Record<string, string | Array<string>> => {
  const record: Record<string, string | Array<string>> = {}
  for (const [key, value] of Object.entries(headers)) {
    if (value === undefined) continue
    if (key === "authorization" || key === "proxy-authorization" || key === "cookie") continue
    record[key] = value
  }
  return record
}

/** A parameter given once is a string, given more than once an array. */
const queryRecord = (query: URLSearchParams): Record<string, string | Array<string>> => {
  const record: Record<string, string | Array<string>> = {}
  for (const key of new Set(query.keys())) {
    const all = query.getAll(key)
    record[key] = all.length === 1 ? (all[0] as string) : all
  }
  return record
}

/**
 * Logs a request as it arrives and returns the entry's fault list, for the server to fill in once
 * it knows which faults apply (the log holds the same array).
 */
export const logRequest = (log: RequestLog, provider: Provider, ctx: Ctx, bodyText?: (ctx: Ctx) => string): Array<string> => {
  const appliedNames: Array<string> = []
  log.add({
    provider,
    method: ctx.method,
    path: ctx.path,
    query: queryRecord(ctx.query),
    headers: headerRecord(ctx.req.headers),
    ...(ctx.rawBody.length > 0 ? { body: bodyText !== undefined ? bodyText(ctx) : ctx.rawBody.subarray(0, 65536).toString("utf8") } : {}),
    at: new Date().toISOString(),
    faults: appliedNames
  })
  return appliedNames
}
