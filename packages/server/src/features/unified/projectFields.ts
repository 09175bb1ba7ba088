/**
 * The `fields` parameter: keep only the named fields of each record (all when empty).
 * Unknown names are ignored, as a client asking for a field a provider never fills expects.
 * The record's identifier (`id`, or `event_id` of application changes) always stays: the
 * record schemas require it, and a projection without it failed to encode.
 */
export const parseFields = (fields: string | undefined): ReadonlyArray<string> | undefined => {
  const names = (fields ?? "").split(",").map((name) => name.trim()).filter((name) => name.length > 0)
  return names.length === 0 ? undefined : names
}

const IDENTIFIERS = ["id", "event_id"] as const

const pick = (record: unknown, names: ReadonlyArray<string>): unknown => {
  if (typeof record !== "object" || record === null || Array.isArray(record)) return record
  const source = record as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const name of IDENTIFIERS) if (name in source) out[name] = source[name]
  for (const name of names) if (name in source) out[name] = source[name]
  return out
}

export const projectFields = (data: unknown, names: ReadonlyArray<string> | undefined): unknown => {
  if (names === undefined) return data
  return Array.isArray(data) ? data.map((record) => pick(record, names)) : pick(data, names)
}
