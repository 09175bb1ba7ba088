import type { Clock } from "../clock.js"
import type { Ctx } from "../http/ctx.js"
import { guardedRoutes, type Handler, type Route } from "../router.js"
import type { TeamtailorState } from "./data.js"
import { parseFilterDate } from "./dates.js"
import { jsonApiError, recordNotFound } from "./errors.js"
import { type Resource, sendList, sendResource } from "./jsonApi.js"
import { RELATIONS, TeamtailorViews } from "./views.js"

/** The API version the look-alike answers with (the version of the docs it follows is set by the caller). */
export const TEAMTAILOR_API_VERSION = "20240904"

/**
 * The rate-limit headers Teamtailor puts on every answer (docs.teamtailor.com#rate-limit:
 * X-Rate-Limit-Limit, -Remaining, and -Reset, the seconds left in the current period). The docs
 * give no numbers; the look-alike answers a 50-request, 10-second window and does not itself
 * refuse (a 429 comes from the sandbox's faults).
 */
const RATE_LIMIT = 50
const RATE_WINDOW_SECONDS = 10

export interface TeamtailorOptions {
  readonly apiKey: string
  readonly state: () => TeamtailorState
  readonly clock: Clock
}

/** The `Authorization: Token token=<key>` header's key (quotes around it allowed). */
const tokenOf = (header: string | undefined): string | undefined => {
  const match = /^Token\s+token="?([^"]*)"?\s*$/i.exec(header ?? "")
  return match?.[1]
}

/** What every Teamtailor resource module shares: the data, the clock, the views, lookups and answers. */
export class TeamtailorContext {
  /** A route under `/v1`, behind the API key and the X-Api-Version header, with the rate-limit headers. */
  readonly route: (method: string, pattern: string, handler: Handler) => Route
  private served = 0

  constructor(private readonly options: TeamtailorOptions) {
    this.route = guardedRoutes({
      prefix: "/v1",
      guard: (ctx) => {
        this.served++
        ctx.res.setHeader("x-rate-limit-limit", String(RATE_LIMIT))
        ctx.res.setHeader("x-rate-limit-remaining", String(RATE_LIMIT - 1 - (this.served % RATE_LIMIT)))
        ctx.res.setHeader("x-rate-limit-reset", String(RATE_WINDOW_SECONDS - (this.served % RATE_WINDOW_SECONDS)))
        if (tokenOf(ctx.req.headers.authorization) !== options.apiKey) throw jsonApiError(401, "Unauthorized", "Invalid or missing API key")
        // "The X-Api-Version header is required when making requests to the API" (docs.teamtailor.com#versioning)
        const version = ctx.req.headers["x-api-version"]
        if (typeof version !== "string" || !/^\d{8}$/.test(version.trim())) {
          throw jsonApiError(406, "Invalid/Missing API Version", `Set the X-Api-Version header, e.g. X-Api-Version: ${TEAMTAILOR_API_VERSION}`)
        }
        // "Successful API requests will have the used API version in the response header X-Api-Version"
        ctx.res.setHeader("x-api-version", version.trim())
      }
    })
  }

  /** Read on each use: a sandbox reset replaces the data. */
  get state(): TeamtailorState {
    return this.options.state()
  }

  /** The time of a write (the logical clock moves on by one step). */
  tick(): number {
    return this.options.clock.tick()
  }

  views(ctx: Ctx): TeamtailorViews {
    return new TeamtailorViews(this.state, `${ctx.origin}/career`)
  }

  /** One record by its path id, else Teamtailor's 404. */
  find<T extends { id: number }>(items: ReadonlyArray<T>, rawId: string | undefined): T {
    const found = /^\d+$/.test(rawId ?? "") ? items.find((item) => item.id === Number(rawId)) : undefined
    if (found === undefined) throw recordNotFound(rawId)
    return found
  }

  list(ctx: Ctx, type: string, resources: ReadonlyArray<Resource>): void {
    sendList(ctx, type, resources, RELATIONS[type] ?? [], this.views(ctx).resolve)
  }

  one(ctx: Ctx, resource: Resource, status = 200): void {
    sendResource(ctx, status, resource, RELATIONS[resource.type] ?? [], this.views(ctx).resolve)
  }
}

/** `filter[<name>][from]` / `[to]` on a time: newer than from, older than to (both inclusive here). */
export const inRange = (ctx: Ctx, name: string, ms: number): boolean => {
  const from = parseFilterDate(ctx.query.get(`filter[${name}][from]`))
  const to = parseFilterDate(ctx.query.get(`filter[${name}][to]`))
  return (from === undefined || ms >= from) && (to === undefined || ms <= to)
}

/** `sort`: an attribute (kebab or snake case), `-` for descending; `fallback` when absent. */
export const sortBy = <T>(ctx: Ctx, items: ReadonlyArray<T>, keys: Readonly<Record<string, (item: T) => number | string>>, fallback: string): Array<T> => {
  const raw = ctx.query.get("sort") ?? fallback
  const descending = raw.startsWith("-")
  const name = raw.replace(/^-/, "").replace(/_/g, "-")
  const key = keys[name]
  if (key === undefined) throw jsonApiError(400, "Invalid sort criteria", `${name} is not a valid sort criteria for this resource`)
  return [...items].sort((a, b) => {
    const x = key(a)
    const y = key(b)
    const order = x < y ? -1 : x > y ? 1 : 0
    return descending ? -order : order
  })
}

/** The request's JSON:API document: `{data: {type, attributes?, relationships?}}` of `type`, else 400/409. */
export const documentBody = (ctx: Ctx, type: string): { attributes: Record<string, unknown>; relationships: Record<string, unknown>; id?: unknown } => {
  const body = ctx.body() as { data?: { type?: unknown; id?: unknown; attributes?: unknown; relationships?: unknown } } | null
  const data = body?.data
  if (typeof data !== "object" || data === null) throw jsonApiError(400, "Missing Parameter", "The required parameter, data, is missing.")
  if (data.type !== type) throw jsonApiError(409, "Invalid resource", `${String(data.type)} is not a valid resource.`)
  const record = (value: unknown) => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {})
  return { attributes: record(data.attributes), relationships: record(data.relationships), id: data.id }
}

/** A to-one relationship's `{data: {type, id}}` in a request: the id, null for `data: null`, undefined when absent. */
export const toOneId = (relationships: Record<string, unknown>, name: string, type: string): number | null | undefined => {
  const relationship = relationships[name] as { data?: { type?: unknown; id?: unknown } | null } | undefined
  if (relationship === undefined) return undefined
  if (relationship.data === null) return null
  const data = relationship.data
  if (typeof data !== "object" || data.type !== type || !/^\d+$/.test(String(data.id))) {
    throw jsonApiError(400, "Invalid Links Object", `Data is not a valid Links Object for ${name}.`)
  }
  return Number(data.id)
}
