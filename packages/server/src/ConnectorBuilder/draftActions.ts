import type { ApiModel, ApiOperation, ApiParameter } from "./ApiModel.js"
import { camelName, labelOf } from "./camelName.js"
import type { CredentialArg } from "./draftAuthentication.js"
import type { ConfigField } from "./draftBaseUrl.js"
import { commented, Flow } from "./DraftYaml.js"
import { detectPagination, type NextSignal, type Pagination } from "./detectPagination.js"
import { findListRecords, findSingleRecord } from "./findRecords.js"
import type { OperationMatch } from "./matchOperation.js"
import { compactName, identifierOf, jexlPath, jsonPath } from "./names.js"
import { proposeFieldMapping } from "./proposeFieldMapping.js"
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
}

const PAGE_SIZE = "page_size"

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
const isSendable = (name: string, location: string) =>
  isLiteralName(name) || ((location === "query" || location === "body") && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name))

const foldArgs = (args: ReadonlyArray<Record<string, unknown>>, review: Array<string>): Array<Record<string, unknown>> => {
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
const acceptArgs = (operation: ApiOperation, always: boolean): ReadonlyArray<Record<string, unknown>> => {
  const response = operation.response
  const json = response?.contentType !== undefined && /json/i.test(response.contentType)
  if (!json || (!always && response!.contentTypes.length < 2)) return []
  return [{ name: "Accept", value: /^application\/json/i.test(response!.contentType!) ? "application/json" : response!.contentType!, in: "headers" }]
}

const credentialArgs = (context: ActionContext) =>
  context.credentialArgs.map((arg) => ({ name: arg.name, value: arg.value, in: arg.in }))

// ---- pagination ---------------------------------------------------------------------------

interface PaginationPlan {
  readonly args: ReadonlyArray<Record<string, unknown>>
  readonly next: string | undefined
  /** paginated_request parameters, when the next page is a link to follow. */
  readonly follow: Record<string, unknown> | undefined
}

const sizeValue = (pagination: Pagination) => {
  const size = pagination.size
  if (size === undefined) return undefined
  const asked = `(inputs.${PAGE_SIZE} ?? ${size.defaultSize})`
  return size.maximum === undefined ? `{{${asked}}}` : `{{${asked} > ${size.maximum} ? ${size.maximum} : ${asked}}}`
}

const signalTest = (signal: NextSignal, stepId: string, records: string, afterPage: { readonly seen: string; readonly size: string }) => {
  const body = (path: ReadonlyArray<string>) => jexlPath(`steps.${stepId}.output.data`, path)
  switch (signal.kind) {
    case "link_header":
      return `includes(steps.${stepId}.output.headers.link, 'rel="next"')`
    case "has_more":
      return signal.inverted ? `!${body(signal.path)}` : `${body(signal.path)}`
    case "next_page":
      return `${body(signal.path)}`
    case "total_pages":
      return `${afterPage.seen} < ${body(signal.path)}`
    case "total":
      return `${afterPage.size} < ${body(signal.path)}`
    case "present":
      return `present(${body(signal.path)})`
    case "full_page":
      return `length(${records}) >= (inputs.${PAGE_SIZE} ?? 25)`
  }
}

const planPagination = (pagination: Pagination, stepId: string, recordsPath: ReadonlyArray<string>): PaginationPlan => {
  const size = sizeValue(pagination)
  const sizeArg = size === undefined || pagination.size === undefined ? [] : [{ name: pagination.size.parameter, value: size, in: "query" }]
  const records = jexlPath(`steps.${stepId}.output.data`, recordsPath)
  switch (pagination.style) {
    case "page": {
      const first = pagination.firstPage
      const current = `(inputs.cursor ?? ${first}) * 1`
      const pagesSeen = first === 0 ? `(${current} + 1)` : current
      const test = signalTest(pagination.signal, stepId, records, {
        seen: pagesSeen,
        size: `${pagesSeen} * (inputs.${PAGE_SIZE} ?? ${pagination.size?.defaultSize ?? 25})`
      })
      const nextValue = pagination.signal.kind === "next_page"
        ? `"" + ${jexlPath(`steps.${stepId}.output.data`, pagination.signal.path)}`
        : `"" + (${current} + 1)`
      return {
        args: [...sizeArg, { name: pagination.parameter, value: "$.inputs.cursor" , in: "query" }],
        // jexl reads `f(x) ? a : b` only with the call in parentheses
        next: `{{(${test}) ? ${nextValue} : null}}`,
        follow: undefined
      }
    }
    case "offset": {
      const offset = "(inputs.cursor ?? 0) * 1"
      const after = `${offset} + length(${records})`
      const test = signalTest(pagination.signal, stepId, records, { seen: after, size: `(${after})` })
      return {
        args: [...sizeArg, { name: pagination.parameter, value: "$.inputs.cursor", in: "query" }],
        next: `{{(${test}) && length(${records}) > 0 ? "" + (${after}) : null}}`,
        follow: undefined
      }
    }
    case "cursor":
      return {
        args: [...sizeArg, { name: pagination.parameter, value: "$.inputs.cursor", in: "query" }],
        next: jsonPath(`$.steps.${stepId}.output.data`, pagination.nextPath),
        follow: undefined
      }
    case "next_url":
      return {
        args: sizeArg,
        next: `$.steps.${stepId}.output.next`,
        follow: {
          // one page per call: the caller's cursor is the provider's next link
          maxPages: 1,
          response: { ...(recordsPath.length === 0 ? {} : { dataKey: bodyKey(recordsPath) }), nextKey: bodyKey(pagination.nextPath) }
        }
      }
    case "none":
      return { args: sizeArg, next: undefined, follow: undefined }
  }
}

/** `response.dataKey`/`nextKey`: a dotted key path when the names allow one, else an expression over the body. */
const bodyKey = (path: ReadonlyArray<string>) =>
  path.every((segment) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(segment)) ? path.join(".") : `{{${jexlPath("$", path)}}}`

const describePagination = (pagination: Pagination): string => {
  const size = pagination.size === undefined ? "" : `, ${pagination.size.parameter} for the page size`
  switch (pagination.style) {
    case "page":
      return `pages by number (${pagination.parameter}, from ${pagination.firstPage}${size}); the cursor is the page number; another page follows when ${describeSignal(pagination.signal)}`
    case "offset":
      return `pages by offset (${pagination.parameter}${size}); the cursor is the offset; another page follows when ${describeSignal(pagination.signal)}`
    case "cursor":
      return `pages by cursor (${pagination.parameter}${size}); the next cursor is the answer's ${pagination.nextPath.join(".")}`
    case "next_url":
      return `pages by link: the answer's ${pagination.nextPath.join(".")} is the next page's URL, and the cursor (an absolute URL; a relative link is not followed)`
    case "none":
      return `no pagination recognized: one request${pagination.size === undefined ? "" : ` with ${pagination.size.parameter} for the page size`}`
  }
}

const describeSignal = (signal: NextSignal) => {
  switch (signal.kind) {
    case "link_header":
      return 'the Link header has rel="next"'
    case "has_more":
      return `${signal.path.join(".")} is ${signal.inverted ? "false" : "true"}`
    case "next_page":
      return `${signal.path.join(".")} names it`
    case "total_pages":
      return `fewer than ${signal.path.join(".")} pages were read`
    case "total":
      return `fewer than ${signal.path.join(".")} records were read`
    case "present":
      return `${signal.path.join(".")} is present`
    case "full_page":
      return "a page came back full (a guess)"
  }
}

// ---- path parameters ----------------------------------------------------------------------

/** Arguments for a unified action's path parameters: the record's id, its parent's, the rest from configuration. */
const unifiedPathArgs = (context: ActionContext, match: OperationMatch, review: Array<string>) => {
  const args: Array<Record<string, unknown>> = []
  const scoped = match.resource.parent !== undefined
  for (const parameter of match.operation.parameters.filter((entry) => entry.in === "path")) {
    let value: string
    if (scoped && parameter.name === match.shape.parentParameter) value = "$.inputs.id"
    else if (parameter.name === match.shape.recordParameter) value = scoped ? "$.inputs.subResourceId" : "$.inputs.id"
    else {
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
    }
    args.push({ name: parameter.name, value, in: "path" })
  }
  return args
}

const UPDATED_AFTER = new Set(["updatedafter", "updatedsince", "modifiedsince", "modifiedafter", "lastmodifiedsince", "changedsince", "updatedatmin", "updatedfrom", "updatedstartdate", "lastmodifiedafter", "updatedatgte", "updatedatfrom", "since", "lastupdated", "updatedat"])

// ---- unified actions ----------------------------------------------------------------------

const labelFor = (actionId: string) => {
  const words = actionId.split("_").slice(1).join(" ")
  return words[0]!.toUpperCase() + words.slice(1)
}

export const draftUnifiedAction = (context: ActionContext, match: OperationMatch): DraftedAction => {
  const { model } = context
  const operation = match.operation
  const review: Array<string> = []
  if (match.doubt !== undefined) review.push(`matched from ${summaryOf(operation)}: ${match.doubt}`)
  const nouns = [match.shape.noun, ...match.resource.nouns]
  const answer = operation.response?.schema
  const location = match.kind === "list" ? findListRecords(model, answer, nouns) : findSingleRecord(model, answer, nouns)
  if (location.doubt !== undefined) review.push(location.doubt)
  const fetch = "fetch"
  const args: Array<Record<string, unknown>> = [...unifiedPathArgs(context, match, review)]
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
    const updatedAfter = operation.parameters.find((parameter) => parameter.in === "query" && UPDATED_AFTER.has(compactName(parameter.name)))
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
    counts: { fieldsMapped: mapping.mapped.length, fieldsForReview: mapping.review.length, fieldsUnmapped: mapping.unmapped.length },
    review: [...review, ...mapping.review]
  }
}

// ---- RPC actions --------------------------------------------------------------------------

/** An RPC action for `operation`: its parameters as inputs, its answer as the result. */
export const draftRpcAction = (context: ActionContext, operation: ApiOperation, actionId: string, note: string | undefined): DraftedAction => {
  const { model } = context
  const nameInput = inputNamer()
  const inputs: Array<Record<string, unknown>> = []
  const args: Array<Record<string, unknown>> = []
  const review: Array<string> = note === undefined ? [] : [note]
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
  for (const parameter of operation.parameters) addParameter(parameter)
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
