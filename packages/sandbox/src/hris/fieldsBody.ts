import type { Ctx } from "../http/ctx.js"
import { bambooError } from "./errors.js"

/** Reading written fields the way BambooHR takes them: JSON or XML bodies, dates as YYYY-MM-DD. */

export const DATE_FIELDS = new Set(["hireDate", "originalHireDate", "terminationDate", "dateOfBirth", "date", "startDate"])

/** The body as field/value pairs: a JSON object, or BambooHR's `<employee><field id="x">v</field></employee>` XML. */
export const fieldsBody = (ctx: Ctx): Record<string, unknown> => {
  const type = (ctx.req.headers["content-type"] ?? "").toLowerCase()
  const text = ctx.rawBody.toString("utf8").trim()
  if (text.startsWith("<") || type.includes("xml")) {
    const fields: Record<string, unknown> = {}
    for (const match of text.matchAll(/<field\s+id="([^"]+)"\s*(?:\/>|>([\s\S]*?)<\/field>)/g)) fields[match[1] as string] = match[2] ?? null
    return fields
  }
  let parsed: unknown
  try {
    parsed = text === "" ? {} : JSON.parse(text)
  } catch {
    throw bambooError(400, "Malformed JSON")
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw bambooError(400, "Expected a JSON object of field names and values")
  return parsed as Record<string, unknown>
}

/** A value as stored: a string, or null for null and ""; objects as their JSON; dates checked. */
export const cleanValue = (field: string, value: unknown): string | null => {
  if (value === null) return null
  if (typeof value === "object") return JSON.stringify(value)
  const text = String(value)
  if (DATE_FIELDS.has(field) && text !== "" && (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(text)))) throw bambooError(400, `Invalid date for ${field}: ${text} (use YYYY-MM-DD)`)
  return text === "" ? null : text
}
