/*
 * Names as the builder compares them: provider names in any spelling (`firstName`,
 * `First-Name`, `first_name`, `$top`, `page[size]`) reduced to snake_case, and path nouns
 * reduced to their singular, so that `employees`, `Employee` and `employee` meet.
 */

/** `Ünïcode` → `Unicode`: letters keep their base when names are cut down to ASCII. */
export const withoutAccents = (text: string): string => text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "")

/** snake_case of any spelling: camelCase, PascalCase, kebab-case, spaces and punctuation. */
export const snakeName = (text: string): string =>
  withoutAccents(text)
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")

/** Lower case letters and digits only: how enum values are compared (`Full-Time` = `full_time`). */
export const compactName = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]/g, "")

const IRREGULAR: Readonly<Record<string, string>> = { people: "person", staff: "staff", data: "data", children: "child" }

/** The singular of one English word, as far as API nouns need it. */
export const singularWord = (word: string): string => {
  const irregular = IRREGULAR[word]
  if (irregular !== undefined) return irregular
  if (word.length <= 3) return word
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`
  if (word.endsWith("sses") || word.endsWith("uses") || word.endsWith("xes") || word.endsWith("ches") || word.endsWith("shes")) {
    return word.slice(0, -2)
  }
  if (word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us") && !word.endsWith("is")) return word.slice(0, -1)
  return word
}

/** snake_case with its last word in the singular: `TimeOffRequests` → `time_off_request`. */
export const singularNoun = (text: string): string => {
  const words = snakeName(text).split("_").filter((word) => word !== "")
  if (words.length === 0) return ""
  words[words.length - 1] = singularWord(words[words.length - 1]!)
  return words.join("_")
}

/** An identifier for action ids, step ids and input names: `[a-z0-9_]`, starting with a letter. */
export const identifierOf = (text: string, fallback: string): string => {
  const name = snakeName(text)
  if (name === "") return fallback
  return /^[a-z]/.test(name) ? name : `${fallback}_${name}`
}

/** A JSONPath over `base` reaching `segments`, with brackets for names that are not plain identifiers. */
export const jsonPath = (base: string, segments: ReadonlyArray<string>): string =>
  segments.reduce(
    (path, segment) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(segment) ? `${path}.${segment}` : `${path}['${segment.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}']`),
    base
  )

/** The same reach inside a JEXL expression (`{{...}}`), where `.name` and `["name"]` are written differently. */
export const jexlPath = (base: string, segments: ReadonlyArray<string>): string =>
  segments.reduce(
    (path, segment) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(segment) ? `${path}.${segment}` : `${path}[${JSON.stringify(segment)}]`),
    base
  )

/** Whether a property name can be reached by the engine's expressions at all (jsonpath-plus reads `@` and `$` names as operators). */
export const isReachableName = (name: string): boolean => name !== "" && !/^[@$]/.test(name) && !/['"\\`]/.test(name)
