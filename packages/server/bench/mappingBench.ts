/*
 * Mapping alone, without HTTP: the engine's compiled field plan of the shipped Greenhouse
 * connector against the hand-written mapper the hand-written proxy uses, over the same 100
 * provider records. It shows how much of a request's cost is the mapping itself.
 * Its own process (`node --conditions=switchyard-source --import tsx bench/mappingBench.ts
 * <connector.yaml> <providerBaseUrl> <apiKey>`), so the benchmark's driver loads no engine;
 * prints one JSON line {fields, engine, handWritten} (records/s).
 */
import { applyMapping, compileFields, ContextScope, type FieldConfig, parseConnector } from "@switchyard/engine"
import { Either } from "effect"
import { readFileSync } from "node:fs"
import { mapApplication } from "./mapApplication.mjs"

export interface MappingRates {
  readonly fields: number
  readonly engine: number
  readonly handWritten: number
}

/** Records per second of `map` over `records`, after a warm-up, for about `ms`. */
const rate = (records: ReadonlyArray<unknown>, map: () => unknown, ms = 1500) => {
  for (let i = 0; i < 200; i++) map()
  let runs = 0
  const started = performance.now()
  while (performance.now() - started < ms) {
    map()
    runs++
  }
  return (runs * records.length) / ((performance.now() - started) / 1000)
}

const mappingRates = (connectorYaml: string, records: ReadonlyArray<Record<string, any>>): MappingRates => {
  const parsed = parseConnector(connectorYaml)
  if (Either.isLeft(parsed)) throw new Error(parsed.left.message)
  const actions = parsed.right.definition.actions
  const actionIndex = actions.findIndex((action) => action.actionId === "ats_list_applications")
  const steps = actions[actionIndex]!.steps
  const stepIndex = steps.findIndex((step) => step.stepFunction.functionName === "map_fields")
  const path = `actions[${actionIndex}].steps[${stepIndex}].stepFunction.parameters.fields`
  const fields = (steps[stepIndex]!.stepFunction.parameters as { fields: ReadonlyArray<FieldConfig> }).fields
  const plan = { fields: compileFields(fields, path, parsed.right.compiled), aliases: [steps[stepIndex - 1]!.stepId] }
  const scope = new ContextScope({ inputs: {}, credentials: {}, steps: {} })
  return {
    fields: fields.length,
    engine: rate(records, () => applyMapping(plan, records, scope)),
    handWritten: rate(records, () => records.map(mapApplication))
  }
}

const [connectorFile, baseUrl, apiKey] = process.argv.slice(2)
if (connectorFile === undefined || baseUrl === undefined || apiKey === undefined) {
  console.error("usage: mappingBench.ts <connector.yaml> <providerBaseUrl> <apiKey>")
  process.exit(2)
}
const response = await fetch(`${baseUrl}/applications?per_page=100`, { headers: { authorization: `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}` } })
if (!response.ok) throw new Error(`the provider answered ${response.status}`)
const records = (await response.json()) as Array<Record<string, any>>
console.log(JSON.stringify(mappingRates(readFileSync(connectorFile, "utf8"), records)))
