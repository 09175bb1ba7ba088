import { Option, Schema, SchemaAST } from "effect"

/*
 * A realistic value of a unified request schema, for a contract check's writes: what a team's
 * code would send (an email where the field is an email, an ISO date-time where it is a date),
 * never random text a provider would refuse for reasons that are not the connector's. The
 * seed decides which optional fields are sent, so two seeds exercise different bodies.
 */

/** A small deterministic generator (mulberry32): the same seed gives the same body. */
const randomOf = (seed: string) => {
  let state = [...seed].reduce((hash, char) => Math.imul(hash ^ char.charCodeAt(0), 16777619), 2166136261) >>> 0
  return () => {
    state = (state + 0x6D2B79F5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Text that fits a field by its name, as a person would fill it in. */
const textFor = (name: string): string => {
  const field = name.toLowerCase()
  if (field.includes("email")) return "ada.lovelace@example.com"
  if (field.includes("phone")) return "+15550100"
  if (field.endsWith("url") || field.includes("_url")) return "https://example.com/ada"
  if (field.endsWith("_at") || field.includes("date") || field.includes("birth")) return "2024-03-01T00:00:00.000Z"
  // a document's content travels as base64
  if (field === "content" || field.endsWith("base64")) return "RXhhbXBsZQ=="
  if (field === "first_name") return "Ada"
  if (field === "last_name") return "Lovelace"
  if (field.includes("name")) return "Ada Lovelace"
  if (field.includes("zip") || field.includes("postal")) return "10001"
  if (field.includes("city")) return "New York"
  if (field.includes("street")) return "12 Example Street"
  if (field === "id" || field.endsWith("_id")) return "1"
  if (field.includes("title")) return "Engineer"
  if (field.includes("currency")) return "USD"
  return "Example"
}

/** Texts of the kinds a refined unified string field is (date-time, date, email, URL, code, number). */
const STRING_CANDIDATES = [
  "2024-03-01T00:00:00.000Z",
  "2024-03-01",
  "ada.lovelace@example.com",
  "https://example.com/ada",
  "US",
  "eng",
  "1"
]

const examplesOf = (ast: SchemaAST.AST): ReadonlyArray<unknown> | undefined => {
  const examples = SchemaAST.getExamplesAnnotation(ast)
  return examples._tag === "Some" && examples.value.length > 0 ? examples.value : undefined
}

const isNullish = (ast: SchemaAST.AST) =>
  ast._tag === "UndefinedKeyword" || ast._tag === "VoidKeyword" || (ast._tag === "Literal" && ast.literal === null)

/**
 * The body fields a connector requires, as a tree: its `body` input's `properties` (the
 * nested inputs `{name, required, properties}` the engine checks), each required one with
 * the required fields beneath it. A check always sends these, whatever the seed drops.
 */
export type RequiredFields = ReadonlyMap<string, RequiredFields>

const NONE: RequiredFields = new Map()

export const requiredFieldsOf = (properties: unknown): RequiredFields => {
  if (!Array.isArray(properties)) return NONE
  const fields = new Map<string, RequiredFields>()
  for (const item of properties as ReadonlyArray<unknown>) {
    if (typeof item !== "object" || item === null) continue
    const { name, properties: nested, required } = item as { name?: unknown; required?: unknown; properties?: unknown }
    if (typeof name === "string" && required === true) fields.set(name, requiredFieldsOf(nested))
  }
  return fields
}

const valueOf = (
  ast: SchemaAST.AST,
  name: string,
  random: () => number,
  depth: number,
  required: RequiredFields = NONE
): unknown => {
  const examples = examplesOf(ast)
  if (examples !== undefined) return examples[0]
  switch (ast._tag) {
    case "Literal":
      return ast.literal
    case "StringKeyword":
    case "TemplateLiteral":
      return textFor(name)
    case "NumberKeyword":
      return 1
    case "BooleanKeyword":
      return true
    case "Enums":
      return ast.enums[0]?.[1]
    case "Union": {
      const members = ast.types.filter((member) => !isNullish(member))
      // a union of literals is an enum: pick one of its values by the seed
      if (members.length > 0 && members.every((member) => member._tag === "Literal")) {
        return (members[Math.floor(random() * members.length)] as SchemaAST.Literal).literal
      }
      return members.length === 0 ? null : valueOf(members[0]!, name, random, depth, required)
    }
    case "Refinement": {
      // a refined string (a date-time, an email) takes the first realistic text its filter accepts
      const first = valueOf(ast.from, name, random, depth, required)
      const fits = (candidate: unknown) => Option.isNone(ast.filter(candidate, SchemaAST.defaultParseOption, ast))
      if (typeof first !== "string" || fits(first)) return first
      return STRING_CANDIDATES.find(fits) ?? first
    }
    case "Transformation":
      return valueOf(ast.from, name, random, depth, required)
    case "Suspend":
      return depth > 3 ? undefined : valueOf(ast.f(), name, random, depth + 1, required)
    case "TupleType": {
      const element = ast.rest[0]?.type ?? ast.elements[0]?.type
      return element === undefined || depth > 3 ? [] : [valueOf(element, name.replace(/s$/, ""), random, depth + 1, required)]
    }
    case "TypeLiteral": {
      if (depth > 3) return {}
      const record: Record<string, unknown> = {}
      for (const property of ast.propertySignatures) {
        const key = String(property.name)
        // passthrough is the caller's raw provider payload: a contract check sends only unified fields
        if (key === "passthrough" || key === "unified_custom_fields") continue
        const beneath = required.get(key)
        if (property.isOptional && beneath === undefined && random() < 0.3) continue
        const value = valueOf(property.type, key, random, depth + 1, beneath)
        if (value !== undefined) record[key] = value
      }
      return record
    }
    default:
      return undefined
  }
}

/**
 * A realistic encoded value of `schema` (as sent over the wire), its optional fields chosen by
 * `seed`, except the `required` ones, always sent.
 */
export const exampleValue = (schema: Schema.Schema.Any, seed: string, required: RequiredFields = NONE): unknown =>
  valueOf(Schema.encodedBoundSchema(schema).ast, "", randomOf(seed), 0, required)
