import { createHash } from "node:crypto"

/*
 * A connector version is identified by its content, not its text: two YAML files that
 * differ only in key order, comments, quoting style or anchors must hash the same.
 * JSON with recursively sorted keys and no whitespace is that normal form.
 */

/**
 * JSON text of `value` with object keys sorted (by UTF-16 code units) at every level and
 * no whitespace. Follows `JSON.stringify` for the rest: `undefined` members are dropped,
 * `undefined` in arrays and non-finite numbers become `null`.
 */
export const canonicalJson = (value: unknown): string => {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : "null"
    if (typeof value === "string" || typeof value === "boolean") return JSON.stringify(value)
    if (typeof value === "bigint") return value.toString()
    return "null"
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => (item === undefined ? "null" : canonicalJson(item))).join(",")}]`
  }
  if (value instanceof Date) return JSON.stringify(value.toISOString())
  const record = value as Record<string, unknown>
  const members: Array<string> = []
  for (const key of Object.keys(record).sort()) {
    const member = record[key]
    if (member === undefined || typeof member === "function" || typeof member === "symbol") continue
    members.push(`${JSON.stringify(key)}:${canonicalJson(member)}`)
  }
  return `{${members.join(",")}}`
}

/** Lowercase hex SHA-256 of the UTF-8 bytes of `text`. */
export const sha256Hex = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex")
