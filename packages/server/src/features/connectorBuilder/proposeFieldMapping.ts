import type { ApiModel } from "./ApiModel.js"
import { compactName, isReachableName, jexlPath, jsonPath } from "./names.js"
import type { JsonObject } from "./RefResolver.js"
import type { SchemaKind } from "./SchemaView.js"
import type { UnifiedField, UnifiedResource } from "./UnifiedCatalogue.js"

/*
 * A proposed mapping from a unified model's fields to the properties of a provider's
 * record. Names are compared in every spelling (`firstName`, `first-name`, `FIRST_NAME`),
 * through the catalogue's synonyms and into nested objects (`address.city` for
 * `home_location.city`; Personio-style `attributes.first_name.value`). A match becomes a
 * field entry only when it is the single best one and its type fits; anything less is a
 * review line, and fields without any candidate are listed as unmapped.
 */

export type FieldEntry = Readonly<Record<string, unknown>>

export interface MappedField {
  readonly targetFieldKey: string
  readonly entry: FieldEntry
  /** The value as a JEXL operand over the record, for building objects of several fields. */
  readonly operand: string | undefined
  /** The provider property it reads. */
  readonly source: ReadonlyArray<string>
}

export interface MappingProposal {
  /** Entries to write: one per field, or one per object of dotted fields. */
  readonly mapped: ReadonlyArray<MappedField>
  /** Unified fields mapped (the fields an object entry builds each count). */
  readonly fieldCount: number
  /** One line per field or enum value left for review. */
  readonly review: ReadonlyArray<string>
  readonly unmapped: ReadonlyArray<string>
}

interface Candidate {
  readonly segments: ReadonlyArray<string>
  /** Compact forms compared with the catalogue's names: the last name, the last two, all. */
  readonly keys: ReadonlyArray<string>
  readonly depth: number
  readonly kind: SchemaKind
  readonly format: string | undefined
  readonly values: ReadonlyArray<string | number | boolean> | undefined
  readonly array: boolean
}

/** Property names that only hold the record's real fields: they take no part in its names. */
const WRAPPERS = new Set(["attributes", "attrs", "fields", "value", "data", "details", "properties", "record"])
/** Properties read per record, at most; generated schemas can be very wide. */
const MAX_CANDIDATES = 600
const MAX_DEPTH = 4

const collectCandidates = (model: ApiModel, record: JsonObject | undefined): ReadonlyArray<Candidate> => {
  const view = model.view
  const out: Array<Candidate> = []
  const walk = (schema: JsonObject, segments: ReadonlyArray<string>, seen: ReadonlySet<JsonObject>) => {
    for (const [name, property] of view.properties(schema)) {
      if (out.length >= MAX_CANDIDATES) return
      if (!isReachableName(name)) continue
      const at = [...segments, name]
      const kind = view.kind(property)
      const items = kind === "array" ? view.items(property) : undefined
      const effective = at.map(compactName).filter((part, index) => index === at.length - 1 || !WRAPPERS.has(part))
      const named = effective.length > 1 && WRAPPERS.has(effective[effective.length - 1]!) ? effective.slice(0, -1) : effective
      // a nested name is only itself with its parent (`address.city`, `manager.id`), never bare
      const keys = named.length === 1 ? [named[0]!] : [...new Set([named.slice(-2).join(""), named.join("")])]
      out.push({
        segments: at,
        keys,
        depth: at.length,
        kind: kind === "array" ? view.kind(items) : kind,
        format: view.format(kind === "array" ? items : property),
        values: view.enumValues(kind === "array" ? items : property),
        array: kind === "array"
      })
      if (kind === "object" && at.length < MAX_DEPTH && !seen.has(property)) walk(property, at, new Set([...seen, property]))
    }
  }
  if (record !== undefined) walk(record, [], new Set([record]))
  return out
}

type Fit = "yes" | "maybe" | "no"

const fits = (field: UnifiedField, candidate: Candidate): { readonly fit: Fit; readonly why?: string } => {
  if (candidate.array && !field.array) return { fit: "no", why: "it is a list" }
  const kind = candidate.kind
  if (kind === "unknown") return { fit: "yes" }
  if (kind === "object") return { fit: "no", why: "it is an object" }
  switch (field.type) {
    case "string":
      return kind === "boolean" ? { fit: "maybe", why: "it is a boolean" } : { fit: "yes" }
    case "number":
      return kind === "integer" || kind === "number" ? { fit: "yes" } : { fit: "maybe", why: `it is a ${kind}` }
    case "boolean":
      return kind === "boolean" ? { fit: "yes" } : { fit: "maybe", why: `it is a ${kind}` }
    case "datetime_string":
      if (kind === "string") return { fit: "yes" }
      return kind === "integer" || kind === "number"
        ? { fit: "maybe", why: "it is a number (epoch seconds or milliseconds?)" }
        : { fit: "no", why: `it is a ${kind}` }
    case "enum":
      return { fit: "yes" }
  }
}

const describe = (candidate: Candidate) => jsonPath("$", candidate.segments)

/** The catalogue's names for `field`, with the resource's own `<noun>_id` forms for its ids. */
const namesOf = (field: UnifiedField, resource: UnifiedResource) => {
  const names = field.names.map(compactName)
  if (field.key === "id" || field.key === "remote_id") {
    const noun = resource.nouns[0]!
    names.push(compactName(`${noun}_id`), compactName(`${noun}_uuid`))
  }
  return { names: new Set(names), order: names, guesses: new Set(field.guesses.map(compactName)) }
}

/** Where the candidate's best name stands in the field's names (earlier names are the likelier meaning). */
const nameRank = (candidate: Candidate, order: ReadonlyArray<string>) => {
  const ranks = candidate.keys.map((key) => order.indexOf(key)).filter((index) => index >= 0)
  return ranks.length === 0 ? Number.MAX_SAFE_INTEGER : Math.min(...ranks)
}

/** 3: the field's own name; 2: a synonym; 1: a guess; 0: no match. */
const scoreOf = (field: UnifiedField, candidate: Candidate, names: ReadonlySet<string>, guesses: ReadonlySet<string>) => {
  if (field.ownName && !field.key.includes(".") && candidate.keys.length === 1 && candidate.keys[0] === compactName(field.key)) return 3
  if (candidate.keys.some((key) => names.has(key))) return 2
  if (candidate.keys.some((key) => guesses.has(key))) return 1
  return 0
}

/**
 * An object candidate for a scalar field: the value it holds (`{label, value}` wrappers, as
 * Personio writes every attribute), else its `id` for ids, else its name (`department: {id, name}`).
 */
const insideObject = (field: UnifiedField, candidate: Candidate, all: ReadonlyArray<Candidate>, depth = 0): Candidate | undefined => {
  if (candidate.kind !== "object" || candidate.array || depth > 2) return undefined
  const children = all.filter((other) =>
    other.depth === candidate.depth + 1 && other.segments.slice(0, -1).join("\u0000") === candidate.segments.join("\u0000")
  )
  const named = (name: string) => children.find((child) => compactName(child.segments[child.segments.length - 1]!) === name)
  const value = named("value")
  if (value !== undefined) {
    // `{label: "Department", value: {...}}`: the label names the attribute, never the record's value
    return value.kind === "object" ? insideObject(field, value, all, depth + 1) ?? insideObject(field, named("attributes") ?? value, all, depth + 1) : value
  }
  if (field.type === "boolean" || field.type === "number") return undefined
  const wanted = field.key.endsWith("id") || field.key.endsWith("ids") ? ["id", "uuid", "key"] : ["name", "label", "title", "displayname", "descriptor"]
  for (const name of wanted) {
    const child = named(name)
    if (child !== undefined && child.kind !== "object") return child
  }
  const attributes = named("attributes")
  return attributes === undefined ? undefined : insideObject(field, attributes, all, depth + 1)
}

const literal = (value: string | number | boolean) => (typeof value === "string" ? JSON.stringify(value) : String(value))

/** An enumMapper for the provider's declared values: obvious ones mapped, the rest listed. */
/**
 * A country or language as the unified API writes it, `{value, source_value}`, from the
 * provider's text: its code when the text is one (two letters for ISO 3166-1, three for
 * ISO 639-2), else `unmapped_value`, the text kept as `source_value` (country names are no codes).
 */
const codeValue = (kind: "country" | "language", reader: string) =>
  kind === "country"
    ? `(${reader} != null ? {value: length(${reader}) == 2 ? upper(${reader}) : "unmapped_value", source_value: ${reader}} : null)`
    : `(${reader} != null ? {value: length(${reader}) == 3 ? lower(${reader}) : "unmapped_value", source_value: ${reader}} : null)`

const codeNote = (field: UnifiedField, expression: string) =>
  `${field.key} ← ${expression}: read as ${field.values === "country" ? "an ISO 3166-1 alpha-2 code when the provider's text has two letters" : "an ISO 639-2 code when the provider's text has three letters"}, else unmapped_value with the text as source_value`

const enumMapperFor = (field: UnifiedField, candidate: Candidate, review: Array<string>): FieldEntry => {
  if (field.values === "code" || field.values === "country" || field.values === "language") {
    review.push(`${field.key}: the provider's value is passed through as the code; check it is the standard code (ISO 3166 country, ISO 639 language...)`)
    return { matcher: "passthrough" }
  }
  const unified = field.values ?? []
  const provider = candidate.values
  if (provider === undefined || provider.length === 0) {
    review.push(`${field.key}: the provider declares no values for ${describe(candidate)}; add a matcher per value (${unified.join(", ")}), others become unmapped_value`)
    return { matcher: [] }
  }
  const matcher: Array<FieldEntry> = []
  const unmatched: Array<string> = []
  const reader = jexlPath("$", candidate.segments)
  for (const value of provider) {
    const compact = compactName(String(value))
    const target = unified.find((name) => compactName(name) === compact) ??
      unified.find((name) => (field.aliases?.[name] ?? []).includes(compact))
    if (target === undefined) unmatched.push(String(value))
    else matcher.push({ matchExpression: `{{${reader} == ${literal(value)}}}`, value: target })
  }
  if (unmatched.length > 0) {
    review.push(`${field.key}: provider values ${unmatched.map((value) => JSON.stringify(value)).join(", ")} are not matched (they become unmapped_value); unified values: ${unified.join(", ")}`)
  }
  return { matcher }
}

export const proposeFieldMapping = (
  model: ApiModel,
  record: JsonObject | undefined,
  resource: UnifiedResource
): MappingProposal => {
  const candidates = collectCandidates(model, record)
  const mapped: Array<MappedField> = []
  const review: Array<string> = []
  const unmapped: Array<string> = []
  if (record === undefined || candidates.length === 0) {
    return { mapped, fieldCount: 0, review, unmapped: resource.model.fields.map((field) => field.key) }
  }
  for (const field of resource.model.fields) {
    const { guesses, names, order } = namesOf(field, resource)
    const scored = candidates
      .map((candidate) => ({ candidate, score: scoreOf(field, candidate, names, guesses) }))
      .filter((entry) => entry.score > 0)
    if (scored.length === 0) {
      unmapped.push(field.key)
      continue
    }
    const top = Math.max(...scored.map((entry) => entry.score))
    const tops = scored.filter((entry) => entry.score === top)
    // a value before an object of the same name (`home_address.line1` before `home_address` for street_1)
    const values = tops.filter((entry) => entry.candidate.kind !== "object")
    const best = values.length > 0 && field.type !== "enum" ? values : tops
    const shallowest = Math.min(...best.map((entry) => entry.candidate.depth))
    // among equals, the field's likelier name (`id` before `employee_id` for remote_id)
    const atTop = best.filter((entry) => entry.candidate.depth === shallowest)
      .sort((a, b) => nameRank(a.candidate, order) - nameRank(b.candidate, order))
    const tied = atTop.length > 1 && nameRank(atTop[0]!.candidate, order) === nameRank(atTop[1]!.candidate, order)
    let chosen = atTop[0]!.candidate
    chosen = insideObject(field, chosen, candidates) ?? chosen
    const { fit, why } = fits(field, chosen)
    const expression = describe(chosen)
    if (top === 1) {
      review.push(`${field.key} ← ${expression}? (a guess from the name${why === undefined ? "" : `; ${why}`})`)
      continue
    }
    if (tied) {
      review.push(`${field.key} ← ${expression}? (also ${atTop.slice(1, 4).map((entry) => describe(entry.candidate)).join(", ")})`)
      continue
    }
    if (fit === "no") {
      review.push(`${field.key} ← ${expression}? (the name matches but ${why})`)
      continue
    }
    if (fit === "maybe") {
      review.push(`${field.key} ← ${expression}? (${why})`)
      continue
    }
    const reader = jexlPath("$", chosen.segments)
    const code = !field.array && (field.values === "country" || field.values === "language") ? field.values : undefined
    if (code !== undefined) {
      const operand = codeValue(code, reader)
      mapped.push({ targetFieldKey: field.key, entry: { targetFieldKey: field.key, expression: `{{${operand}}}` }, operand, source: chosen.segments })
      review.push(codeNote(field, expression))
      continue
    }
    const entry: Record<string, unknown> = { targetFieldKey: field.key, expression, type: field.type }
    if (field.array) entry.array = true
    if (field.type === "enum") entry.enumMapper = enumMapperFor(field, chosen, review)
    // enums and typed values keep their own entries; plain values may join an object (`home_location`)
    const operand = field.type === "enum" || field.type === "datetime_string" || field.array ? undefined : reader
    mapped.push({ targetFieldKey: field.key, entry, operand, source: chosen.segments })
    if (field.note !== undefined) review.push(`${field.key} ← ${expression}: ${field.note}`)
    // a choice by the second-best or later synonym is worth a look; by the field's first one it is the convention
    if (atTop.length > 1 && top === 2 && nameRank(atTop[0]!.candidate, order) > 1) {
      review.push(`${field.key} ← ${expression} chosen over ${atTop.slice(1, 4).map((other) => describe(other.candidate)).join(", ")}`)
    }
  }
  return { mapped: withObjectsWhole(mapped), fieldCount: mapped.length, review, unmapped }
}

/**
 * Dotted fields (`home_location.city`) written one by one give half-empty objects when the
 * provider has no address: they become one entry that builds the object whole, or null when
 * the provider has none of it (`content[].body` builds a list of one, or an empty list).
 */
const withObjectsWhole = (mapped: ReadonlyArray<MappedField>): ReadonlyArray<MappedField> => {
  const groups = new Map<string, Array<MappedField>>()
  for (const field of mapped) {
    const dot = field.targetFieldKey.indexOf(".")
    if (dot < 0) continue
    const prefix = field.targetFieldKey.slice(0, dot)
    groups.set(prefix, [...(groups.get(prefix) ?? []), field])
  }
  const combined = new Map<string, MappedField>()
  for (const [prefix, members] of groups) {
    // a member that is no plain value (an enum with its matchers) keeps the dotted entries
    if (members.some((member) => member.operand === undefined)) continue
    const parents = members.map((member) => member.source.slice(0, -1))
    const shared = parents.reduce((common, parent) => {
      let length = 0
      while (length < common.length && length < parent.length && common[length] === parent[length]) length++
      return common.slice(0, length)
    })
    const present = shared.length > 0
      ? `${jexlPath("$", shared)} != null`
      : `(${members.map((member) => `${jexlPath("$", member.source)} != null`).join(" || ")})`
    const object = `{${members.map((member) => `${member.targetFieldKey.slice(prefix.length + 1)}: ${member.operand}`).join(", ")}}`
    const list = prefix.endsWith("[]")
    const key = list ? prefix.slice(0, -2) : prefix
    combined.set(prefix, {
      targetFieldKey: key,
      entry: { targetFieldKey: key, expression: list ? `{{${present} ? [${object}] : []}}` : `{{${present} ? ${object} : null}}` },
      operand: undefined,
      source: shared
    })
  }
  const out: Array<MappedField> = []
  for (const field of mapped) {
    const dot = field.targetFieldKey.indexOf(".")
    const prefix = dot < 0 ? undefined : field.targetFieldKey.slice(0, dot)
    const group = prefix === undefined ? undefined : combined.get(prefix)
    if (group === undefined) out.push(field)
    else if (!out.includes(group)) out.push(group)
  }
  return out
}
