import type { ApiModel, ApiOperation, ApiParameter } from "./ApiModel.js"
import { camelName, labelOf } from "./camelName.js"
import type { AccountParameters } from "./accountParameters.js"
import type { CredentialArg } from "./draftAuthentication.js"
import type { ConfigField } from "./draftBaseUrl.js"
import { commented, Flow } from "./DraftYaml.js"
import { detectPagination } from "./detectPagination.js"
import { findListRecords, findSingleRecord } from "./findRecords.js"
import { ACCOUNT_SCOPES, type OperationMatch, pathSegments } from "./matchOperation.js"
import { compactName, identifierOf, jsonPath, singularNoun, snakeName } from "./names.js"
import { describePagination, PAGE_SIZE, planPagination } from "./planPagination.js"
import { proposeFieldMapping } from "./proposeFieldMapping.js"
import { acceptArgs, foldArgs, isSendable } from "./requestArgs.js"
import type { JsonObject } from "./RefResolver.js"
import type { Category } from "./UnifiedCatalogue.js"

/*
 * The actions of a draft: one per operation matched to a unified model (its provider call,
 * pagination, where the records are, and the proposed field mapping), and a plain RPC
 * action (`custom`) for every other operation, its parameters as inputs.
 */

export interface ActionCounts {
  readonly fieldsMapped: number
  readonly fieldsForReview: number
  readonly fieldsUnmapped: number
}

export interface DraftedAction {
  readonly actionId: string
  /** The action as written, comments included. */
  readonly value: unknown
  readonly operation: ApiOperation
  readonly counts: ActionCounts
  /** Review lines (also written as comments in the action). */
  readonly review: ReadonlyArray<string>
}

export interface ActionContext {
  readonly model: ApiModel
  readonly category: Category
  /** Credentials every request sends (the extra keys of a combined security requirement). */
  readonly credentialArgs: ReadonlyArray<CredentialArg>
  /** Path parameters that scope the whole API (`company_id`) become configuration fields here. */
  readonly scopeFields: Map<string, ConfigField>
  /** The drafted authentication methods and the schemes they come from. */
  readonly methods: ReadonlyArray<{ readonly name: string; readonly scheme: string }>
  /** Query parameters of the account (Litmos's `source`), and format parameters unified actions send as json. */
  readonly accountParameters: AccountParameters
}

/** The value a query parameter takes from the account, or json for a unified action's format. */
const accountValue = (context: ActionContext, name: string, unified: boolean) =>
  context.accountParameters.values.get(name) ?? (unified && context.accountParameters.json.has(name) ? "json" : undefined)

/** Arguments for the operation's query parameters that belong to the account. */
const accountArgs = (context: ActionContext, operation: ApiOperation, unified: boolean) =>
  operation.parameters.flatMap((parameter) => {
    const value = parameter.in === "query" ? accountValue(context, parameter.name, unified) : undefined
    return value === undefined ? [] : [{ name: parameter.name, value, in: "query" }]
  })

/**
 * A review line when the operation's security requirements leave out some drafted methods
 * (Rippling's `/groups` takes OAuth only): called with those methods' credentials it is refused.
 */
const securityNote = (context: ActionContext, operation: ApiOperation): ReadonlyArray<string> => {
  const requirements = operation.security ?? context.model.security
  if (requirements === undefined || requirements.length === 0) return []
  // an empty requirement ({}) lets anyone call it
  if (requirements.some((requirement) => Object.keys(requirement).length === 0)) return []
  const allowed = new Set(requirements.flatMap((requirement) => Object.keys(requirement)))
  const refused = context.methods.filter((method) => !allowed.has(method.scheme))
  if (refused.length === 0) return []
  return [`the document allows only ${[...allowed].join(" or ")} to call ${summaryOf(operation)}: with ${refused.map((method) => method.name).join(" or ")} it is refused`]
}

/** Header parameters the authentication already sends, or that every HTTP client sets. */
const isTransportHeader = (name: string) => /^(authorization|content-type|accept|user-agent|x-api-key|api-?key)$/i.test(name)

const summaryOf = (operation: ApiOperation) => `${operation.method.toUpperCase()} ${operation.path}`

const shortText = (text: string | undefined, max: number) => {
  if (text === undefined) return undefined
  const plain = text.replace(/<[^>]+>/g, " ").replace(/[#*`]/g, "").replace(/\s+/g, " ").trim()
  if (plain === "") return undefined
  return plain.length > max ? `${plain.slice(0, max - 3)}...` : plain
}

type InputType = "string" | "number" | "boolean" | "datetime_string" | "object" | "enum"

const inputTypeOf = (model: ApiModel, schema: JsonObject | undefined): { readonly type: InputType; readonly array: boolean; readonly values?: ReadonlyArray<string> } => {
  const view = model.view
  let kind = view.kind(schema)
  let array = false
  let target: unknown = schema
  if (kind === "array") {
    array = true
    target = view.items(schema)
    kind = view.kind(target)
  }
  const values = view.enumValues(target)
  if (values !== undefined && values.every((value) => typeof value === "string") && values.length > 0) {
    return { type: "enum", array, values: values as ReadonlyArray<string> }
  }
  switch (kind) {
    case "integer":
    case "number":
      return { type: "number", array }
    case "boolean":
      return { type: "boolean", array }
    case "object":
      return { type: "object", array }
    case "string":
      return { type: /date-time/.test(view.format(target) ?? "") ? "datetime_string" : "string", array }
    default:
      return { type: "string", array }
  }
}

/** Input names are identifiers (`${inputs.x}` reads them); the provider's own names stay in the arguments. */
const inputNamer = () => {
  const used = new Set<string>()
  return (wanted: string) => {
    let name = identifierOf(wanted, "input")
    for (let n = 2; used.has(name); n++) name = `${identifierOf(wanted, "input")}_${n}`
    used.add(name)
    return name
  }
}

const credentialArgs = (context: ActionContext) =>
  context.credentialArgs.map((arg) => ({ name: arg.name, value: arg.value, in: arg.in }))

/** Arguments for a unified action's path parameters: the record's id, its parent's, the rest from configuration. */
/** The singular word of the literal segment just before `{parameter}` in `path`. */
const segmentBefore = (path: string, parameter: string) => {
  const segments = pathSegments(path)
  const index = segments.findIndex((segment) => segment.parameters.includes(parameter))
  for (let i = index - 1; i >= 0; i--) if (segments[i]!.literal !== "") return singularNoun(segments[i]!.literal)
  return undefined
}

/**
 * Arguments for a unified action's path parameters: the record's id and its parent's from the
 * unified inputs; one that scopes a whole account (a company id) from a configuration field;
 * any other as an input of its own, said in a review line.
 */
const unifiedPathArgs = (context: ActionContext, match: OperationMatch, review: Array<string>) => {
  const args: Array<Record<string, unknown>> = []
  const inputs: Array<Record<string, unknown>> = []
  const scoped = match.resource.parent !== undefined
  for (const parameter of match.operation.parameters.filter((entry) => entry.in === "path")) {
    let value: string
    const before = segmentBefore(match.operation.path, parameter.name)
    if (scoped && parameter.name === match.shape.parentParameter) value = "$.inputs.id"
    else if (parameter.name === match.shape.recordParameter) value = scoped ? "$.inputs.subResourceId" : "$.inputs.id"
    else if ((before !== undefined && ACCOUNT_SCOPES.has(before)) || [...ACCOUNT_SCOPES].some((word) => snakeName(parameter.name).split("_").includes(word))) {
      const key = camelName(parameter.name, "path")
      if (!context.scopeFields.has(key)) {
        context.scopeFields.set(key, {
          key,
          label: labelOf(parameter.name),
          type: "text",
          required: true,
          secret: false,
          description: `${shortText(parameter.description, 200) ?? `the ${parameter.name} path parameter`} (the same for every call of an account)`
        })
      }
      review.push(`the path parameter ${parameter.name} is not one the unified API passes: it is read from the configuration field ${key}`)
      value = `$.credentials.${key}`
    } else {
      const name = identifierOf(parameter.name, "input")
      inputs.push({ name, type: "string", in: "path", required: true, description: `The ${parameter.name} of the path` })
      review.push(`the path parameter ${parameter.name} is not one the unified API passes: it is an input of its own (${name}), given through RPC`)
      value = `$.inputs.${name}`
    }
    args.push({ name: parameter.name, value, in: "path" })
  }
  return { args, inputs }
}

const UPDATED_AFTER = new Set(["updatedafter", "updatedsince", "modifiedsince", "modifiedafter", "lastmodifiedsince", "changedsince", "updatedatmin", "updatedfrom", "updatedstartdate", "lastmodifiedafter", "updatedatgte", "updatedatfrom", "since", "lastupdated", "updatedat"])

const labelFor = (actionId: string) => {
  const words = actionId.split("_").slice(1).join(" ")
  return words[0]!.toUpperCase() + words.slice(1)
}

export const draftUnifiedAction = (context: ActionContext, match: OperationMatch): DraftedAction => {
  const { model } = context
  const operation = match.operation
  const review: Array<string> = [...securityNote(context, match.operation)]
  if (match.doubt !== undefined) review.push(`matched from ${summaryOf(operation)}: ${match.doubt}`)
  const nouns = [match.shape.noun, ...match.resource.nouns]
  const answer = operation.response?.schema
  const location = match.kind === "list" ? findListRecords(model, answer, nouns) : findSingleRecord(model, answer, nouns)
  if (location.doubt !== undefined) review.push(location.doubt)
  const fetch = "fetch"
  const path = unifiedPathArgs(context, match, review)
  const args: Array<Record<string, unknown>> = [...path.args, ...(match.filters ?? []).map((filter) => ({ ...filter, in: "query" }))]
  const inputs: Array<Record<string, unknown>> = match.kind === "get"
    ? [
      { name: "id", type: "string", in: "path", required: true },
      ...(match.resource.parent !== undefined ? [{ name: "subResourceId", type: "string", in: "path", required: true }] : [])
    ]
    : [
      ...(match.resource.parent !== undefined ? [{ name: "id", type: "string", in: "path", required: true }] : []),
      { name: PAGE_SIZE, type: "number", in: "query", required: false },
      { name: "cursor", type: "string", in: "query", required: false }
    ]
  inputs.push(...path.inputs)
  let next: string | undefined
  let follow: Record<string, unknown> | undefined
  const comments: Array<string> = []
  if (match.kind === "list") {
    const finding = detectPagination(model, operation, answer, location.path)
    const plan = planPagination(finding.pagination, fetch, location.path)
    args.push(...plan.args)
    next = plan.next
    follow = plan.follow
    comments.push(describePagination(finding.pagination))
    review.push(...finding.doubts)
    const updatedAfter = operation.parameters.find((parameter) =>
      parameter.in === "query" && UPDATED_AFTER.has(compactName(parameter.name.match(/\[([^\]]+)\]$/)?.[1] ?? parameter.name))
    )
    if (updatedAfter !== undefined) {
      inputs.push({ name: "filter_updated_after", type: "datetime_string", in: "query", required: false })
      args.push({ name: updatedAfter.name, value: "$.inputs.filter_updated_after", in: "query" })
      const { type } = inputTypeOf(model, updatedAfter.schema)
      const format = model.view.format(updatedAfter.schema)
      if (type !== "datetime_string") {
        review.push(`filter_updated_after is sent as ${updatedAfter.name}, which the document types as ${format ?? type}: check the provider reads an ISO 8601 date-time there`)
      }
    }
  }
  args.push(...accountArgs(context, operation, true))
  // required query parameters the unified API knows nothing of: declared, for callers who can give them
  const handled = new Set(args.map((arg) => arg.name))
  for (const parameter of operation.parameters) {
    if (parameter.in !== "query" || !parameter.required || handled.has(parameter.name)) continue
    const name = identifierOf(parameter.name, "input")
    inputs.push({ name, type: inputTypeOf(model, parameter.schema).type === "enum" ? "string" : inputTypeOf(model, parameter.schema).type, in: "query", required: false, description: `Required by the provider (${parameter.name})` })
    args.push({ name: parameter.name, value: `$.inputs.${name}`, in: "query" })
    review.push(`the provider requires the query parameter ${parameter.name}, which the unified API does not pass: give it a fixed value or a configuration field`)
  }
  args.push(...acceptArgs(operation, true), ...credentialArgs(context))

  const mapping = proposeFieldMapping(model, location.record, match.resource)
  const dataSource = follow === undefined ? jsonPath(`$.steps.${fetch}.output.data`, location.path) : `$.steps.${fetch}.output.data`
  const fieldComments = [
    ...mapping.review.map((line) => `review: ${line}`),
    ...(mapping.unmapped.length > 0 ? [`unmapped (no candidate found): ${mapping.unmapped.join(", ")}`] : [])
  ]
  const sent = foldArgs(args, review)
  const requestParameters: Record<string, unknown> = {
    url: operation.path,
    method: "get",
    ...(sent.length === 0 ? {} : { args: sent }),
    ...(follow ?? {})
  }
  const steps = [
    commented({
      stepId: fetch,
      description: `${summaryOf(operation)}${operation.operationId === undefined ? "" : ` (${operation.operationId})`}`,
      stepFunction: { functionName: follow === undefined ? "request" : "paginated_request", parameters: requestParameters }
    }, { before: comments }),
    {
      stepId: "map",
      stepFunction: {
        functionName: "map_fields",
        version: "2",
        // with no field mapped the records pass through as the provider wrote them, never as empty objects
        parameters: mapping.mapped.length === 0
          ? { dataSource: commented(dataSource, { before: ["review: no field could be mapped; the records pass through unmapped", ...fieldComments] }) }
          : { dataSource, fields: commented(mapping.mapped.map((field) => field.entry), { after: fieldComments }) }
      }
    }
  ]
  const description = shortText(operation.summary ?? operation.description, 300)
  const value = commented({
    actionId: match.actionId,
    categories: new Flow([context.category]),
    actionType: match.kind,
    label: labelFor(match.actionId),
    description: `Drafted from ${summaryOf(operation)}${description === undefined ? "" : `: ${description}`}`,
    inputs,
    ...(match.kind === "list" ? { cursor: { enabled: next !== undefined, pageSize: 25 } } : {}),
    steps,
    result: {
      data: "$.steps.map.output.data",
      ...(next === undefined ? {} : { next })
    }
  }, { before: review.map((line) => `review: ${line}`) })
  return {
    actionId: match.actionId,
    value,
    operation,
    counts: { fieldsMapped: mapping.fieldCount, fieldsForReview: mapping.review.length, fieldsUnmapped: mapping.unmapped.length },
    review: [...review, ...mapping.review]
  }
}

/** An RPC action for `operation`: its parameters as inputs, its answer as the result. */
export const draftRpcAction = (context: ActionContext, operation: ApiOperation, actionId: string, note: string | undefined): DraftedAction => {
  const { model } = context
  const nameInput = inputNamer()
  const inputs: Array<Record<string, unknown>> = []
  const args: Array<Record<string, unknown>> = []
  const review: Array<string> = [...(note === undefined ? [] : [note]), ...securityNote(context, operation)]
  const addParameter = (parameter: ApiParameter) => {
    const location = parameter.in === "header" ? "headers" : parameter.in
    if (location === "cookie") {
      review.push(`the cookie parameter ${parameter.name} is not sent (the connector format sends no cookies)`)
      return
    }
    if (location === "headers" && isTransportHeader(parameter.name)) return
    if (!isSendable(parameter.name, location)) {
      review.push(`the ${location} parameter ${parameter.name} is not sent: its name reads as an expression in the connector format`)
      return
    }
    const name = nameInput(parameter.name)
    const { array, type, values } = inputTypeOf(model, parameter.schema)
    const description = shortText(parameter.description, 120)
    inputs.push({
      name,
      type,
      in: location,
      required: parameter.required,
      ...(description === undefined ? {} : { description }),
      ...(array ? { array: true } : {}),
      ...(values === undefined ? {} : { oneOf: { values } })
    })
    args.push({ name: parameter.name, value: `$.inputs.${name}`, in: location })
  }
  for (const parameter of operation.parameters) {
    if (parameter.in === "query" && accountValue(context, parameter.name, false) !== undefined) continue
    addParameter(parameter)
  }
  args.push(...accountArgs(context, operation, false))
  const body = operation.requestBody
  const form = body !== undefined && /form/i.test(body.contentType)
  if (body !== undefined) {
    const name = nameInput("body")
    inputs.push({
      name,
      type: "object",
      in: "body",
      required: body.required,
      description: `The request body (${body.contentType}), sent as it is given`
    })
    args.push({ name, value: `$.inputs.${name}`, in: "body", spread: true })
    if (/multipart/i.test(body.contentType)) review.push("the body is multipart (a file upload?): it is sent as a form; an upload_file step may be what it needs")
  }
  args.push(...acceptArgs(operation, false), ...credentialArgs(context))
  const sent = foldArgs(args, review)
  const description = shortText(operation.description, 160)
  const summary = shortText(operation.summary, 120)
  const value = commented({
    actionId,
    categories: new Flow([context.category]),
    actionType: "custom",
    label: summary ?? summaryOf(operation),
    description: `${summaryOf(operation)}${description === undefined || description === summary ? "" : `: ${description}`}`,
    ...(inputs.length === 0 ? {} : { inputs }),
    steps: [{
      stepId: "request",
      stepFunction: {
        functionName: "request",
        parameters: {
          url: operation.path,
          method: operation.method,
          ...(form ? { bodyType: "form" } : {}),
          ...(sent.length === 0 ? {} : { args: sent })
        }
      }
    }],
    result: { data: "$.steps.request.output.data" }
  }, { before: review.map((line) => `review: ${line}`) })
  return { actionId, value, operation, counts: { fieldsMapped: 0, fieldsForReview: 0, fieldsUnmapped: 0 }, review }
}

/** An RPC action id from the operation id, else from the method and path. */
export const rpcActionId = (operation: ApiOperation): string => {
  // generated ids such as `db49fb29f9f04d59afad7c01ce860418` say less than the path does
  if (operation.operationId !== undefined && !/^[0-9a-f]{16,}$/i.test(operation.operationId)) return identifierOf(operation.operationId, "op")
  const words = operation.path.replace(/\{([^}]+)\}/g, "by_$1")
  return identifierOf(`${operation.method}_${words}`, "op")
}
