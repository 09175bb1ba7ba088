import { validationError } from "./errors.js"
import type { Body } from "./params.js"

export type FieldChanges = Record<string, { from: unknown; to: unknown }>

/**
 * Writes `[{name_key, value | delete_value}]` into `target` (only keys `known` defines) and
 * returns the changes as the activity feed records them (`custom_fields.{key}`).
 */
export const applyCustomFields = (target: Record<string, unknown>, value: unknown, known: Record<string, { name: string; type: string }>): FieldChanges => {
  const changes: FieldChanges = {}
  if (value === undefined) return changes
  if (!Array.isArray(value)) throw validationError("custom_fields must be an array", "custom_fields")
  for (const item of value) {
    if (typeof item !== "object" || item === null) throw validationError("custom_fields entries must be objects", "custom_fields")
    const field = item as Body
    const key = typeof field["name_key"] === "string" ? field["name_key"] : undefined
    if (key === undefined || known[key] === undefined) throw validationError(`Unknown custom field ${String(field["name_key"] ?? field["id"])}; known name_keys: ${Object.keys(known).join(", ")}`, "custom_fields")
    const next = field["delete_value"] === "true" || field["delete_value"] === true ? null : field["value"]
    changes[`custom_fields.${key}`] = { from: target[key] ?? null, to: next ?? null }
    target[key] = next ?? null
  }
  return changes
}
