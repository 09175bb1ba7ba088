import type { ApiModel } from "./ApiModel.js"
import { singularNoun, snakeName } from "./names.js"
import type { JsonObject } from "./RefResolver.js"

/*
 * Where the records are in an answer: a list answer's array (the answer itself, or a
 * property such as `data`, `results`, `employees`, or `d.results`), a get answer's record
 * (the answer itself, or a wrapper such as `data`).
 */

export interface RecordsLocation {
  /** Property names from the answer's top to the array (list) or the record (get); empty for the answer itself. */
  readonly path: ReadonlyArray<string>
  /** The schema of one record, when the document describes it. */
  readonly record: JsonObject | undefined
  /** Why the location is a guess, when it is one. */
  readonly doubt: string | undefined
}

/** Names list answers commonly keep their records under, best first. */
const LIST_KEYS = ["data", "results", "items", "records", "entries", "value", "values", "list", "elements", "content", "rows", "objects", "hits", "resources", "nodes", "collection"]
/** Names get answers commonly wrap their record in. */
const RECORD_KEYS = ["data", "result", "record", "item", "d", "resource", "object", "entity"]

/** Nesting searched for the records; OData v2's `d.results` and `data.items` are two levels deep. */
const MAX_DEPTH = 3

interface Found {
  readonly path: ReadonlyArray<string>
  readonly schema: JsonObject
}

export const findListRecords = (model: ApiModel, answer: JsonObject | undefined, nouns: ReadonlyArray<string>): RecordsLocation => {
  const view = model.view
  if (answer === undefined || view.kind(answer) === "unknown") {
    return { path: [], record: undefined, doubt: "the document does not describe the answer: the records are assumed to be the answer itself, a list" }
  }
  if (view.kind(answer) === "array") return { path: [], record: view.items(answer), doubt: undefined }
  const arrays: Array<Found> = []
  const walk = (schema: JsonObject, path: ReadonlyArray<string>) => {
    if (path.length >= MAX_DEPTH) return
    for (const [name, property] of view.properties(schema)) {
      const kind = view.kind(property)
      if (kind === "array") arrays.push({ path: [...path, name], schema: property })
      else if (kind === "object") walk(property, [...path, name])
    }
  }
  walk(answer, [])
  if (arrays.length === 0) {
    // `/companies/current`: one record, which the list answers alone (a list action answers an array)
    return view.properties(answer).size > 0
      ? { path: [], record: answer, doubt: "the answer is one record, not a list: the list holds it alone" }
      : { path: [], record: undefined, doubt: "the answer holds no list that the builder could find: the records are assumed to be the answer itself" }
  }
  const nounForms = new Set(nouns.flatMap((noun) => [noun, `${noun}s`]))
  const rank = (found: Found) => {
    const name = snakeName(found.path[found.path.length - 1]!)
    const listKey = LIST_KEYS.indexOf(name)
    const itemsAreRecords = view.kind(view.items(found.schema)) === "object" ? 0 : 100
    const named = nounForms.has(name) || nounForms.has(singularNoun(name)) ? 0 : listKey >= 0 ? 1 + listKey / 100 : 50
    return itemsAreRecords + named + found.path.length * 2
  }
  const sorted = [...arrays].sort((a, b) => rank(a) - rank(b))
  const best = sorted[0]!
  // no list named like records, and the answer has an id of its own: it is one record (a company
  // with its `eins` and `workLocations`), which the list answers alone
  const own = [...view.properties(answer).keys()].map(snakeName)
  if (rank(best) >= 50 && own.some((name) => name === "id" || name === "uuid" || nouns.some((noun) => name === `${noun}_id`))) {
    return { path: [], record: answer, doubt: "the answer is one record, not a list: the list holds it alone" }
  }
  const others = sorted.slice(1, 4).map((found) => found.path.join("."))
  const doubt = rank(best) >= 50
    ? `the answer's list of records is a guess (${best.path.join(".")}${others.length > 0 ? `; also ${others.join(", ")}` : ""})`
    : undefined
  return { path: best.path, record: view.items(best.schema), doubt }
}

export const findSingleRecord = (model: ApiModel, answer: JsonObject | undefined, nouns: ReadonlyArray<string>): RecordsLocation => {
  const view = model.view
  if (answer === undefined || view.kind(answer) === "unknown") {
    return { path: [], record: undefined, doubt: "the document does not describe the answer: the record is assumed to be the answer itself" }
  }
  if (view.kind(answer) === "array") {
    return { path: ["0"], record: view.items(answer), doubt: "the document describes this answer as a list: its first record is read" }
  }
  const properties = view.properties(answer)
  const nounForms = new Set(nouns)
  // a wrapper is an object property named like one, beside at most a few envelope fields
  for (const [name, property] of properties) {
    const key = snakeName(name)
    if ((RECORD_KEYS.includes(key) || nounForms.has(singularNoun(key))) && view.kind(property) === "object" && properties.size <= 4) {
      return { path: [name], record: property, doubt: undefined }
    }
  }
  // some documents describe a get's answer with the list's schema (`{teams: [...]}` for one
  // team): read its first record, when the list is named after the resource
  if (properties.size > 0) {
    const list = findListRecords(model, answer, nouns)
    const name = list.path.length === 1 ? singularNoun(snakeName(list.path[0]!)) : undefined
    if (name !== undefined && nounForms.has(name) && list.record !== undefined) {
      return {
        path: [...list.path, "0"],
        record: list.record,
        doubt: `the document describes this answer as a list (${list.path.join(".")}): its first record is read`
      }
    }
  }
  return { path: [], record: answer, doubt: undefined }
}
