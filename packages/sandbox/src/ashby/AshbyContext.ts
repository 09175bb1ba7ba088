import type { Clock } from "../clock.js"
import { basicAuth } from "../http/basicAuth.js"
import type { Ctx } from "../http/ctx.js"
import { sendJson } from "../http/responses.js"
import { type Handler, type Route, route } from "../router.js"
import type { AshbyState } from "./data.js"
import { ashbyError, invalidInput } from "./errors.js"
import { AshbyViews } from "./views.js"

/** Ashby caps a page by itself (docs/pagination-and-incremental-sync); the cap is not published, 100 here. */
export const MAX_LIMIT = 100

/** What the list endpoints page: the record and the time an incremental sync compares. */
interface Page<T> {
  readonly items: ReadonlyArray<T>
  readonly updatedAt: (item: T) => number
  readonly view: (item: T) => unknown
}

const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url")
const decode = (token: string): unknown => {
  try {
    return JSON.parse(Buffer.from(token, "base64url").toString("utf8"))
  } catch {
    return undefined
  }
}

/** What every Ashby endpoint module shares: the routes' guard, the request body, the pager and the views. */
export class AshbyContext {
  constructor(
    private readonly options: {
      readonly apiKey: string
      readonly state: () => AshbyState
      readonly clock: Clock
    }
  ) {}

  get state(): AshbyState {
    return this.options.state()
  }

  tick(): number {
    return this.options.clock.tick()
  }

  views(): AshbyViews {
    return new AshbyViews(this.state, "https://app.ashbyhq.com")
  }

  /**
   * `POST /<category>.<method>` (docs/introduction: RPC-style, JSON bodies) behind Basic
   * authentication with the API key as the user name (docs/authentication): no key is 401, a key
   * that is not the account's is 403. The handler gets the JSON body.
   */
  endpoint(name: string, handler: (ctx: Ctx, body: Record<string, unknown>) => void): Route {
    const run: Handler = (ctx) => {
      const credentials = basicAuth(ctx.req)
      // the documentation gives the statuses, not these refusals' codes
      if (credentials === undefined || credentials.user === "") throw ashbyError("unauthenticated", "Missing API key: send it as the Basic auth user name", 401)
      if (credentials.user !== this.options.apiKey) throw ashbyError("invalid_api_key", "The API key is wrong or deactivated", 403)
      const type = String(ctx.req.headers["content-type"] ?? "")
      if (ctx.rawBody.length > 0 && !type.toLowerCase().includes("application/json")) throw invalidInput("Content-Type must be application/json")
      let body: unknown
      try {
        body = ctx.body()
      } catch {
        throw invalidInput("Request payload is malformed")
      }
      if (typeof body !== "object" || body === null || Array.isArray(body)) throw invalidInput("Request payload is malformed")
      handler(ctx, body as Record<string, unknown>)
    }
    return route("POST", `/${name}`, run)
  }

  /** `{success: true, results}`. */
  ok(ctx: Ctx, results: unknown): void {
    sendJson(ctx.res, 200, { success: true, results })
  }

  /**
   * A list page (docs/pagination-and-incremental-sync): `limit` (capped), the opaque `cursor` of
   * the previous page's `nextCursor`, and `syncToken` from a finished pass, which keeps only the
   * records updated since. The last page carries `moreDataAvailable: false` and a new `syncToken`.
   */
  page<T>(ctx: Ctx, body: Record<string, unknown>, page: Page<T>): void {
    const limit = body["limit"] === undefined ? MAX_LIMIT : Number(body["limit"])
    if (!Number.isInteger(limit) || limit < 1) throw invalidInput("limit must be a positive integer")
    let since: number | undefined
    if (body["syncToken"] !== undefined) {
      const token = decode(String(body["syncToken"])) as { readonly t?: unknown } | undefined
      // the guide says a client starts a full sync again when its token no longer works; the code used here
      // (sync_token_expired) was not confirmed in the pages read
      if (typeof token?.t !== "number") throw ashbyError("sync_token_expired", "The sync token is not valid; start a full sync")
      since = token.t
    }
    let offset = 0
    if (body["cursor"] !== undefined) {
      const cursor = decode(String(body["cursor"])) as { readonly o?: unknown; readonly s?: unknown } | undefined
      if (typeof cursor?.o !== "number" || !Number.isInteger(cursor.o) || cursor.o < 0) throw invalidInput("The cursor is not valid")
      offset = cursor.o
      if (typeof cursor.s === "number") since = cursor.s
    }
    const items = since === undefined ? page.items : page.items.filter((item) => page.updatedAt(item) > (since as number))
    const slice = items.slice(offset, offset + Math.min(limit, MAX_LIMIT))
    const next = offset + slice.length
    const more = next < items.length
    sendJson(ctx.res, 200, {
      success: true,
      results: slice.map(page.view),
      moreDataAvailable: more,
      ...(more ? { nextCursor: encode({ o: next, ...(since === undefined ? {} : { s: since }) }) } : { syncToken: encode({ t: this.options.clock.now() }) })
    })
  }

  /** A required string field of the body. */
  required(body: Record<string, unknown>, field: string): string {
    const value = body[field]
    if (typeof value !== "string" || value === "") throw invalidInput(`${field} is required`)
    return value
  }
}
