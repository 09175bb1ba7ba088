import type { Ctx } from "../http/ctx.js"
import { srError } from "./errors.js"

/** `limit`: 1 to 100, 10 when absent (the reference's "number of elements to return. max value is 100"). */
export const limitOf = (ctx: Ctx): number => {
  const raw = ctx.query.get("limit")
  const limit = raw === null ? 10 : Number(raw)
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw srError(400, "INVALID_LIMIT", "limit must be an integer between 1 and 100")
  return limit
}

/** An opaque page id: where the next page starts, in a list of `kind`. */
const encode = (kind: string, offset: number): string => Buffer.from(`${kind}:${offset}`).toString("base64url")

const decode = (kind: string, pageId: string): number => {
  const [k, offset] = Buffer.from(pageId, "base64url").toString("utf8").split(":")
  const n = Number(offset)
  if (k !== kind || !Number.isInteger(n) || n < 0) throw srError(400, "INVALID_PAGE_ID", "pageId is not a page identifier of this list")
  return n
}

/**
 * Cursor pages (the "Pagination" guide): `limit` and `pageId`; the answer holds `nextPageId` while more
 * remain, and the next page's address is also in a `Link` header of relation `next`.
 */
export const cursorPage = <T>(ctx: Ctx, kind: string, items: ReadonlyArray<T>): { page: ReadonlyArray<T>; limit: number; nextPageId?: string } => {
  const limit = limitOf(ctx)
  const pageId = ctx.query.get("pageId")
  const start = pageId === null || pageId === "" ? 0 : decode(kind, pageId)
  const page = items.slice(start, start + limit)
  if (start + limit >= items.length) return { page, limit }
  const nextPageId = encode(kind, start + limit)
  const query = new URLSearchParams(ctx.query)
  query.set("limit", String(limit))
  query.set("pageId", nextPageId)
  ctx.res.setHeader("link", `<${ctx.path}?${query.toString()}>; rel="next"`)
  return { page, limit, nextPageId }
}

/** Offset pages (GET /jobs): `limit` and `offset`, with `totalFound`. */
export const offsetPage = <T>(ctx: Ctx, items: ReadonlyArray<T>): { page: ReadonlyArray<T>; limit: number; offset: number } => {
  const limit = limitOf(ctx)
  const raw = ctx.query.get("offset")
  const offset = raw === null ? 0 : Number(raw)
  if (!Number.isInteger(offset) || offset < 0) throw srError(400, "INVALID_OFFSET", "offset must be a non-negative integer")
  return { page: items.slice(offset, offset + limit), limit, offset }
}
