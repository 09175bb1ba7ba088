import type { ApiModel } from "./ApiModel.js"
import { camelName, labelOf } from "./camelName.js"
import type { ConfigField } from "./draftBaseUrl.js"
import { compactName } from "./names.js"

/*
 * Query parameters that belong to the account, not to one call: Litmos requires `source` (who
 * is calling) on 137 of its 140 operations and answers XML unless `format=json`. Asked of the
 * caller they would be inputs the unified API never passes; instead a parameter most
 * operations require becomes a configuration field, and a format parameter that can say JSON
 * is sent as json by the unified actions (which map JSON).
 */

export interface AccountParameters {
  /** Query parameter name → the value every request sends (`$.credentials.<key>`). */
  readonly values: ReadonlyMap<string, string>
  /** Format parameters unified actions send as `json` (they map JSON; an RPC caller may want csv). */
  readonly json: ReadonlySet<string>
  readonly configFields: ReadonlyArray<ConfigField>
  readonly review: ReadonlyArray<string>
}

const FORMAT_NAMES = new Set(["format", "responseformat", "output", "outputformat", "alt", "dataformat"])

export const accountParameters = (model: ApiModel): AccountParameters => {
  const operations = model.operations
  const required = new Map<string, number>()
  const descriptions = new Map<string, string>()
  const jsonCapable = new Set<string>()
  for (const operation of operations) {
    for (const parameter of operation.parameters) {
      if (parameter.in !== "query") continue
      if (parameter.required) required.set(parameter.name, (required.get(parameter.name) ?? 0) + 1)
      if (parameter.description !== undefined && !descriptions.has(parameter.name)) descriptions.set(parameter.name, parameter.description)
      const values = model.view.enumValues(parameter.schema)
      const saysJson = values !== undefined
        ? values.some((value) => String(value).toLowerCase() === "json")
        : /\bjson\b/i.test(parameter.description ?? "")
      if (FORMAT_NAMES.has(compactName(parameter.name)) && saysJson) jsonCapable.add(parameter.name)
    }
  }
  const values = new Map<string, string>()
  const configFields: Array<ConfigField> = []
  const review: Array<string> = []
  for (const name of jsonCapable) review.push(`the ${name} query parameter is sent as json by every unified action that declares it`)
  for (const [name, count] of required) {
    if (jsonCapable.has(name) || count < 2 || count < operations.length / 2) continue
    const key = camelName(name, "parameter")
    values.set(name, `$.credentials.${key}`)
    configFields.push({
      key,
      label: labelOf(name),
      type: "text",
      required: true,
      secret: false,
      description: `${descriptions.get(name) ?? `the ${name} query parameter`} (required by ${count} of the ${operations.length} operations, sent by each)`
    })
    review.push(`the ${name} query parameter, which ${count} of the ${operations.length} operations require, is a configuration field sent by every action that declares it`)
  }
  return { values, json: jsonCapable, configFields, review }
}
