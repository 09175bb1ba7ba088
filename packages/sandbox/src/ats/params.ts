import type { Ctx } from "../http/ctx.js"
import { notFoundError, validationError } from "./errors.js"

/** Reading request bodies, path ids and query filters the way Greenhouse validates them. */

export type Body = Record<string, unknown>

export const bodyObject = (ctx: Ctx): Body => {
  const body = ctx.body()
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw validationError("Request body must be a JSON object", "body")
  return body as Body
}

/** An integer field; strings of digits count, as form bodies send them. */
export const intParam = (value: unknown, field: string, required: boolean): number | undefined => {
  if (value === undefined || value === null || value === "") {
    if (required) throw validationError(`${field} is required`, field)
    return undefined
  }
  const number = typeof value === "string" ? Number(value) : value
  if (typeof number !== "number" || !Number.isInteger(number)) throw validationError(`${field} must be an integer`, field)
  return number
}

export const stringParam = (value: unknown, field: string, required: boolean): string | undefined => {
  if (value === undefined || value === null) {
    if (required) throw validationError(`${field} is required`, field)
    return undefined
  }
  if (typeof value !== "string") throw validationError(`${field} must be a string`, field)
  if (required && value.trim() === "") throw validationError(`${field} can't be blank`, field)
  return value
}

/** A record id from the path: anything but an integer is a 404, as no record could have it. */
export const pathId = (raw: string | undefined): number => {
  const id = Number(raw)
  if (!Number.isInteger(id)) throw notFoundError()
  return id
}

/** `*_after` (at or after) / `*_before` (strictly before) timestamp filters. */
export const timeFilter = <T>(ctx: Ctx, items: Array<T>, spec: Record<string, (item: T) => number | null>): Array<T> => {
  let kept = items
  for (const [param, timeOf] of Object.entries(spec)) {
    const raw = ctx.query.get(param)
    if (raw === null) continue
    const at = Date.parse(raw)
    if (Number.isNaN(at)) throw validationError(`${param} must be an ISO-8601 timestamp`, param)
    const after = param.endsWith("_after")
    kept = kept.filter((item) => {
      const time = timeOf(item)
      return time !== null && (after ? time >= at : time < at)
    })
  }
  return kept
}

/** The `created_*` and `updated_*` filters most lists take, for `timeFilter`. */
export const createdAndUpdatedFilters = <T extends { readonly created_at: number; readonly updated_at: number }>(): Record<string, (item: T) => number> => ({
  created_after: (item) => item.created_at,
  created_before: (item) => item.created_at,
  updated_after: (item) => item.updated_at,
  updated_before: (item) => item.updated_at
})

/** Phone numbers, addresses and the like: `[{value, type}]`; without `withType` the type is "". */
export const contactList = (value: unknown, field: string, withType: boolean): Array<{ value: string; type: string }> | undefined => {
  if (value === undefined) return undefined
  if (!Array.isArray(value)) throw validationError(`${field} must be an array`, field)
  return value.map((item, index) => {
    if (typeof item !== "object" || item === null || typeof (item as Body)["value"] !== "string") throw validationError(`${field}[${index}].value is required`, field)
    const type = (item as Body)["type"]
    return withType ? { value: (item as Body)["value"] as string, type: typeof type === "string" ? type : "other" } : { value: (item as Body)["value"] as string, type: "" }
  })
}
