import { isRecord, type JsonObject, type RefResolver } from "./RefResolver.js"

/*
 * Questions asked of a JSON Schema as OpenAPI documents write it (3.0 `nullable`, 3.1 type
 * lists, Swagger 2.0), with references followed: what kind of value, which properties,
 * which items, which enum values. Compositions are read generously: `allOf` parts and every
 * `oneOf`/`anyOf` branch contribute their properties, since the builder looks for names a
 * record may carry, not for a validator's verdict.
 */

export type SchemaKind = "object" | "array" | "string" | "integer" | "number" | "boolean" | "unknown"

export interface SchemaView {
  readonly kind: (schema: unknown) => SchemaKind
  readonly format: (schema: unknown) => string | undefined
  /** Properties of an object schema, through `allOf`/`oneOf`/`anyOf`; empty when none are described. */
  readonly properties: (schema: unknown) => ReadonlyMap<string, JsonObject>
  readonly items: (schema: unknown) => JsonObject | undefined
  /** Declared values of an enum (also `oneOf` of `const`s), null left out; undefined when none. */
  readonly enumValues: (schema: unknown) => ReadonlyArray<string | number | boolean> | undefined
  readonly description: (schema: unknown) => string | undefined
}

/** Compositions nested deeper than this are not read (generated documents can nest unions of unions). */
const MAX_COMPOSITION_DEPTH = 8

const nonNullTypes = (type: unknown): ReadonlyArray<string> =>
  (Array.isArray(type) ? type : typeof type === "string" ? [type] : []).filter(
    (entry): entry is string => typeof entry === "string" && entry !== "null"
  )

export const makeSchemaView = (resolver: RefResolver): SchemaView => {
  const deref = resolver.deref

  /** The schema's composition branches (allOf, oneOf, anyOf), resolved, null-only branches left out. */
  const branches = (schema: JsonObject): ReadonlyArray<JsonObject> => {
    const out: Array<JsonObject> = []
    for (const key of ["allOf", "oneOf", "anyOf"] as const) {
      const list = schema[key]
      if (!Array.isArray(list)) continue
      for (const entry of list) {
        const branch = deref(entry)
        if (branch !== undefined && !(nonNullTypes(branch.type).length === 0 && branch.type === "null")) out.push(branch)
      }
    }
    return out
  }

  const kindOf = (node: unknown, depth: number): SchemaKind => {
    const schema = deref(node)
    if (schema === undefined || depth > MAX_COMPOSITION_DEPTH) return "unknown"
    const types = nonNullTypes(schema.type)
    const first = types[0]
    if (first === "object" || first === "array" || first === "string" || first === "integer" || first === "number" || first === "boolean") {
      return first
    }
    if (isRecord(schema.properties) || isRecord(schema.additionalProperties)) return "object"
    if (schema.items !== undefined) return "array"
    for (const branch of branches(schema)) {
      const kind = kindOf(branch, depth + 1)
      if (kind !== "unknown") return kind
    }
    if (Array.isArray(schema.enum)) {
      const sample = schema.enum.find((value) => value !== null)
      if (typeof sample === "string") return "string"
      if (typeof sample === "number") return Number.isInteger(sample) ? "integer" : "number"
      if (typeof sample === "boolean") return "boolean"
    }
    return "unknown"
  }

  const collectProperties = (node: unknown, into: Map<string, JsonObject>, depth: number, seen: Set<JsonObject>) => {
    const schema = deref(node)
    if (schema === undefined || depth > MAX_COMPOSITION_DEPTH || seen.has(schema)) return
    seen.add(schema)
    if (isRecord(schema.properties)) {
      for (const [name, property] of Object.entries(schema.properties)) {
        const resolved = deref(property)
        if (resolved === undefined) continue
        const known = into.get(name)
        // a property described twice (a generic envelope refined by `allOf`) is read as both,
        // the later (the refinement: `data` an array, not just an object) deciding its kind
        into.set(name, known === undefined || known === resolved ? resolved : { allOf: [resolved, known] })
      }
    }
    for (const branch of branches(schema)) collectProperties(branch, into, depth + 1, seen)
  }

  /** Every description of the items (`items`, and those of composed branches), read as one. */
  const itemsOf = (node: unknown, depth: number): JsonObject | undefined => {
    const schema = deref(node)
    if (schema === undefined || depth > MAX_COMPOSITION_DEPTH) return undefined
    const found: Array<JsonObject> = []
    const own = deref(schema.items)
    if (own !== undefined) found.push(own)
    for (const branch of branches(schema)) {
      const items = itemsOf(branch, depth + 1)
      if (items !== undefined && !found.includes(items)) found.push(items)
    }
    return found.length <= 1 ? found[0] : { allOf: found }
  }

  const formatOf = (node: unknown, depth: number): string | undefined => {
    const schema = deref(node)
    if (schema === undefined || depth > MAX_COMPOSITION_DEPTH) return undefined
    if (typeof schema.format === "string") return schema.format
    for (const branch of branches(schema)) {
      const format = formatOf(branch, depth + 1)
      if (format !== undefined) return format
    }
    return undefined
  }

  const enumOf = (node: unknown, depth: number): ReadonlyArray<string | number | boolean> | undefined => {
    const schema = deref(node)
    if (schema === undefined || depth > MAX_COMPOSITION_DEPTH) return undefined
    const scalar = (value: unknown): value is string | number | boolean =>
      typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    if (Array.isArray(schema.enum)) {
      const values = schema.enum.filter(scalar)
      return values.length > 0 ? values : undefined
    }
    if (schema.const !== undefined && scalar(schema.const)) return [schema.const]
    const collected: Array<string | number | boolean> = []
    for (const branch of branches(schema)) {
      for (const value of enumOf(branch, depth + 1) ?? []) if (!collected.includes(value)) collected.push(value)
    }
    return collected.length > 0 ? collected : undefined
  }

  return {
    kind: (schema) => kindOf(schema, 0),
    format: (schema) => formatOf(schema, 0),
    properties: (schema) => {
      const into = new Map<string, JsonObject>()
      collectProperties(schema, into, 0, new Set())
      return into
    },
    items: (schema) => itemsOf(schema, 0),
    enumValues: (schema) => enumOf(schema, 0),
    description: (schema) => {
      const resolved = deref(schema)
      return typeof resolved?.description === "string" ? resolved.description : undefined
    }
  }
}
