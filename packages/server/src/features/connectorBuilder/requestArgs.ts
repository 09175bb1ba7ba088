import type { ApiOperation } from "./ApiModel.js"

/*
 * The arguments of a drafted request that need care: names the connector parser would read
 * as expressions, and the Accept header some providers negotiate on.
 */

/** Whether the connector parser reads `name` as plain text (it reads `$top` as a JSONPath). */
const isLiteralName = (name: string) => !name.startsWith("$") && !name.includes("${") && !(name.startsWith("{{") && name.endsWith("}}"))

/** An argument's value as a JEXL operand: `$.inputs.top` → `inputs.top`, `{{x}}` → `(x)`. */
const asJexl = (value: unknown) => {
  if (typeof value !== "string") return JSON.stringify(value)
  if (value.startsWith("{{") && value.endsWith("}}")) return `(${value.slice(2, -2)})`
  if (/^\$\.[A-Za-z0-9_.]+$/.test(value)) return value.slice(2)
  return JSON.stringify(value)
}

/**
 * Arguments whose names the parser would read as expressions (OData's `$top`, `$filter`)
 * are sent through one spread argument per location holding an object of them; JEXL
 * writes such keys bare (`{$top: inputs.top}`), and absent values are left out of the request.
 */
/** Whether a parameter can be sent at all: a plain name, or one `foldArgs` can carry (`$top` in the query). */
export const isSendable = (name: string, location: string) =>
  isLiteralName(name) || ((location === "query" || location === "body") && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name))

export const foldArgs = (args: ReadonlyArray<Record<string, unknown>>, review: Array<string>): Array<Record<string, unknown>> => {
  const plain = args.filter((arg) => isLiteralName(String(arg.name)))
  const folded = new Map<string, Array<Record<string, unknown>>>()
  for (const arg of args) {
    if (isLiteralName(String(arg.name))) continue
    const location = String(arg.in)
    if (!isSendable(String(arg.name), location)) {
      review.push(`the ${location} parameter ${String(arg.name)} is not sent: its name reads as an expression in the connector format`)
      continue
    }
    folded.set(location, [...(folded.get(location) ?? []), arg])
  }
  const spread = [...folded].map(([location, entries]) => ({
    name: `${location}_parameters`,
    value: `{{ {${entries.map((arg) => `${String(arg.name)}: ${asJexl(arg.value)}`).join(", ")}} }}`,
    in: location,
    spread: true
  }))
  return [...plain, ...spread]
}

/**
 * `Accept: application/json` when the provider describes its answer in JSON and something
 * else too (BambooHR answers XML unless asked for JSON); unified actions, which map JSON,
 * always ask for it when the answer is JSON.
 */
export const acceptArgs = (operation: ApiOperation, always: boolean): ReadonlyArray<Record<string, unknown>> => {
  const response = operation.response
  const json = response?.contentType !== undefined && /json/i.test(response.contentType)
  if (!json || (!always && response!.contentTypes.length < 2)) return []
  return [{ name: "Accept", value: /^application\/json/i.test(response!.contentType!) ? "application/json" : response!.contentType!, in: "headers" }]
}
