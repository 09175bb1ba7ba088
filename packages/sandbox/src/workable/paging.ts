import type { Ctx } from "../http/ctx.js"
import { unprocessable } from "./errors.js"

/**
 * SPI v3 paging of /jobs, /candidates and /members: `limit` (50 by default, at most 100),
 * `since_id` / `max_id` (ids greater / less than or equal to), `created_after` / `updated_after`
 * (ISO 8601 such as 20150708T115616Z, or Unix time), and `paging.next`: the URL of the next page
 * when more results remain, with the same query and the next record's id as `since_id`.
 */

/** Hex ids grow with insertion: compared as numbers. */
const idValue = (id: string): number => parseInt(id, 16)

/** ISO 8601 (basic 20150708T115616Z or extended) or Unix seconds; undefined when unreadable. */
export const parseTimestamp = (text: string): number | undefined => {
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const basic = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text)
  const value = basic === null ? Date.parse(text) : Date.UTC(+basic[1]!, +basic[2]! - 1, +basic[3]!, +basic[4]!, +basic[5]!, +basic[6]!)
  return Number.isNaN(value) ? undefined : value
}

const timeFilter = (ctx: Ctx, name: string): number | undefined => {
  const raw = ctx.query.get(name)
  if (raw === null || raw === "") return undefined
  const value = parseTimestamp(raw)
  if (value === undefined) throw unprocessable(`${name} is not a valid timestamp`)
  return value
}

export interface Pageable {
  readonly id: string
  readonly createdAt?: number
  readonly updatedAt?: number
}

/** The page of `items` (in insertion order) the query asks for, and the next page's URL or null. */
export const page = <T extends Pageable>(ctx: Ctx, items: ReadonlyArray<T>): { readonly items: ReadonlyArray<T>; readonly next: string | null } => {
  const rawLimit = Number(ctx.query.get("limit") ?? "50")
  // the documentation says only that the limit cannot be more than 100: larger ones get 100
  const limit = Number.isInteger(rawLimit) && rawLimit > 0 ? Math.min(rawLimit, 100) : 50
  const since = ctx.query.get("since_id")
  const max = ctx.query.get("max_id")
  const createdAfter = timeFilter(ctx, "created_after")
  const updatedAfter = timeFilter(ctx, "updated_after")
  const selected = items.filter((item) =>
    (since === null || idValue(item.id) >= idValue(since)) &&
    (max === null || idValue(item.id) <= idValue(max)) &&
    (createdAfter === undefined || (item.createdAt ?? 0) > createdAfter) &&
    (updatedAfter === undefined || (item.updatedAt ?? 0) > updatedAfter)
  )
  const following = selected[limit]
  if (following === undefined) return { items: selected, next: null }
  const query = new URLSearchParams(ctx.query)
  query.set("limit", String(limit))
  query.set("since_id", following.id)
  return { items: selected.slice(0, limit), next: `${ctx.origin}${ctx.path}?${query.toString()}` }
}

/** The collection's body: `{<key>: [...]}` with `paging: {next}` when there are more results. */
export const collection = (key: string, records: ReadonlyArray<unknown>, next: string | null): Record<string, unknown> =>
  next === null ? { [key]: records } : { [key]: records, paging: { next } }
