import type { CompiledExpressions } from "../compileConnectorExpressions.js"
import type { ActionDefinition, FieldConfig, StepDefinition } from "../ConnectorDefinition.js"
import { childPath, compileEvaluator, compileTemplate, lookupExpression, plainJsonPath } from "../evaluate.js"
import type { CompiledExpression } from "../Expressions.js"
import { compileFields, type FieldPlan } from "../mapping.js"
import { ActionDefinitionError } from "../RunErrors.js"
import type { ArgPlan, BodyReader, CustomErrorPlan, HttpPlan, StepKind, StepPlan, XmlReading } from "./StepPlan.js"

/* Compiles a step definition into its `StepPlan`. */

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** A literal start that contains a whole origin, closed by `/`, `?` or `#`. */
const STATIC_ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*[/?#]/i

const hasStaticOrigin = (source: unknown, path: string, compiled: CompiledExpressions): boolean => {
  if (typeof source !== "string") return true
  const expression = lookupExpression(source, path, compiled)
  if (expression.kind === "literal") return true
  if (expression.kind !== "interpolation") return false
  const first = expression.parts[0]
  return typeof first === "string" && STATIC_ORIGIN.test(first)
}

const asString = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined)

/** `response.format` (`json`, the default, or `xml`) and, for XML, `response.arrays`. */
const xmlReading = (response: Record<string, unknown>, path: string): XmlReading | undefined => {
  const format = response.format ?? "json"
  const refuse = (message: string) => {
    throw new ActionDefinitionError({ message, path })
  }
  if (format !== "json" && format !== "xml") return refuse(`response.format must be json or xml, not ${JSON.stringify(format)}`)
  const arrays = response.arrays ?? []
  if (!Array.isArray(arrays) || !arrays.every((name) => typeof name === "string" && name !== "")) {
    return refuse("response.arrays must be a list of element names")
  }
  if (format === "json") return arrays.length === 0 ? undefined : refuse("response.arrays applies to response.format: xml only")
  return { arrays: new Set(arrays) }
}

const compileHttp = (
  parameters: Record<string, unknown>,
  path: string,
  compiled: CompiledExpressions
): HttpPlan => {
  const expr = (key: string, options: { urlEncode?: boolean } = {}) => {
    const value = parameters[key]
    return value === undefined ? undefined : compileTemplate(value, childPath(path, key), compiled, options)
  }
  const args = Array.isArray(parameters.args) ? parameters.args : []
  const response = isRecord(parameters.response) ? parameters.response : {}
  const reader = (key: "dataKey" | "nextKey"): BodyReader | undefined => {
    const source = asString(response[key])
    if (source === undefined || source === "") return undefined
    const at = childPath(`${path}.response`, key)
    const expression = lookupExpression(source, at, compiled)
    if (expression.kind === "literal") return { _tag: "Key", keys: source.split(".") }
    return { _tag: "Expression", evaluate: compileEvaluator(expression, { path: at }) }
  }
  return {
    method: expr("method"),
    url: expr("url", { urlEncode: true }),
    server: asString(parameters.server),
    xml: xmlReading(response, `${path}.response`),
    args: args.filter(isRecord).map((arg, index): ArgPlan => {
      const at = `${path}.args[${index}]`
      return {
        name: String(arg.name),
        in: (arg.in as ArgPlan["in"]) ?? "query",
        value: compileTemplate(arg.value, `${at}.value`, compiled),
        condition: typeof arg.condition === "string"
          ? compileTemplate(arg.condition, `${at}.condition`, compiled)
          : undefined,
        spread: arg.spread === true
      }
    }),
    dataKey: reader("dataKey"),
    nextKey: reader("nextKey"),
    customErrors: (Array.isArray(parameters.customErrors) ? parameters.customErrors : [])
      .filter(isRecord)
      .map((rule, index): CustomErrorPlan => {
        const at = `${path}.customErrors[${index}]`
        return {
          receivedStatus: Number(rule.receivedStatus),
          targetStatus: Number(rule.targetStatus),
          message: typeof rule.message === "string" ? compileTemplate(rule.message, `${at}.message`, compiled) : undefined,
          condition: typeof rule.condition === "string"
            ? compileTemplate(rule.condition, `${at}.condition`, compiled)
            : undefined
        }
      }),
    formBody: parameters.bodyType === "form",
    staticOrigin: hasStaticOrigin(parameters.url, childPath(path, "url"), compiled)
  }
}

/** The step id a `$.steps.<id>...` data source reads, if it is one. */
const sourceStepId = (expression: CompiledExpression): string | undefined => {
  if (expression.kind !== "jsonpath") return undefined
  const names = plainJsonPath(expression)
  return names !== undefined && names[0] === "steps" && names.length > 1 ? names[1] : undefined
}

export const compileStep = (
  step: StepDefinition,
  action: ActionDefinition,
  actionPath: string,
  path: string,
  compiled: CompiledExpressions
): StepPlan => {
  const fn = step.stepFunction
  const parametersPath = `${path}.stepFunction.parameters`
  const parameters: Record<string, unknown> = isRecord(fn.parameters) ? fn.parameters : {}
  const param = (key: string, options: { urlEncode?: boolean } = {}) =>
    parameters[key] === undefined
      ? undefined
      : compileTemplate(parameters[key], childPath(parametersPath, key), compiled, options)
  const required = (key: string) => {
    const evaluator = param(key)
    if (evaluator === undefined) {
      throw new ActionDefinitionError({ message: `step "${step.stepId}" (${fn.functionName}) needs parameters.${key}`, stepId: step.stepId, path: parametersPath })
    }
    return evaluator
  }
  const fieldList = (fields: unknown, at: string): Array<FieldPlan> | undefined =>
    Array.isArray(fields) ? compileFields(fields as ReadonlyArray<FieldConfig>, at, compiled) : undefined

  let kind: StepKind
  switch (fn.functionName) {
    case "request":
      kind = { _tag: "request", http: compileHttp(parameters, parametersPath, compiled) }
      break
    case "paginated_request": {
      const iterator = isRecord(parameters.iterator) ? parameters.iterator : undefined
      const iteratorIn = asString(iterator?.in)
      kind = {
        _tag: "paginated_request",
        http: compileHttp(parameters, parametersPath, compiled),
        iterator: iterator === undefined ? undefined : {
          key: asString(iterator.key),
          in: iteratorIn === "body" || iteratorIn === "headers" || iteratorIn === "url" ? iteratorIn : "query",
          value: iterator.value === undefined
            ? undefined
            : compileTemplate(iterator.value, `${parametersPath}.iterator.value`, compiled)
        },
        maxPages: param("maxPages")
      }
      break
    }
    case "map_fields": {
      const dataSourcePath = `${parametersPath}.dataSource`
      const dataSource = lookupExpression(fn.parameters.dataSource, dataSourcePath, compiled)
      const inline = fieldList(parameters.fields, `${parametersPath}.fields`)
      const fields = inline ?? fieldList(action.fieldConfigs, `${actionPath}.fieldConfigs`)
      const source = sourceStepId(dataSource)
      kind = {
        _tag: "map_fields",
        dataSource: compileEvaluator(dataSource, { path: dataSourcePath }),
        fields,
        aliases: source === undefined || source === step.stepId ? [step.stepId] : [source, step.stepId]
      }
      break
    }
    case "typecast": {
      const declared = Array.isArray(parameters.fields)
        ? (parameters.fields as ReadonlyArray<FieldConfig>)
        : (action.fieldConfigs ?? []).filter((field) => field.type !== "enum" && field.enumMapper === undefined)
      kind = {
        _tag: "typecast",
        dataSource: required("dataSource"),
        fields: declared.map((field) => ({ key: field.targetFieldKey, type: field.type }))
      }
      break
    }
    case "static_values":
      kind = { _tag: "static_values", values: required("values") }
      break
    case "group_data":
      kind = {
        _tag: "group_data",
        stepIds: fn.parameters.stepsDataToGroup,
        isSingleRecord: fn.parameters.isSingleRecord === true
      }
      break
    case "download_file":
      kind = {
        _tag: "download_file",
        http: compileHttp(parameters, parametersPath, compiled),
        contentType: param("contentType"),
        fileName: param("fileName")
      }
      break
    case "upload_file":
      kind = {
        _tag: "upload_file",
        http: compileHttp(parameters, parametersPath, compiled),
        content: param("content"),
        contentType: param("contentType"),
        fileName: param("fileName"),
        encoding: param("encoding")
      }
      break
    case "mcp_request":
      kind = {
        _tag: "mcp_request",
        url: param("url", { urlEncode: true }),
        staticOrigin: hasStaticOrigin(parameters.url, `${parametersPath}.url`, compiled),
        method: required("method"),
        name: param("name"),
        arguments: param("arguments"),
        cursor: param("cursor")
      }
      break
  }
  return {
    stepId: step.stepId,
    path,
    functionName: fn.functionName,
    condition: step.condition === undefined
      ? undefined
      : compileEvaluator(lookupExpression(step.condition, `${path}.condition`, compiled), { path: `${path}.condition` }),
    ignoreError: step.ignoreError === true,
    kind
  }
}
