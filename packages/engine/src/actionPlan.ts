import { Either } from "effect"
import type { CompiledExpressions } from "./compileConnectorExpressions.js"
import { formatPath } from "./ConnectorParseError.js"
import type {
  ActionDefinition,
  AuthenticationMethod,
  FieldConfig,
  StepDefinition
} from "./ConnectorDefinition.js"
import { childPath, compileEvaluator, compileTemplate, type Evaluator, ExpressionError, lookupExpression, plainJsonPath } from "./evaluate.js"
import { jexlAst } from "./ExpressionLanguage.js"
import type { CompiledExpression } from "./Expressions.js"
import { compileFields, type FieldPlan } from "./mapping.js"
import type { ParsedConnector } from "./parseConnector.js"
import { ActionDefinitionError } from "./RunErrors.js"

/*
 * Everything a run needs from a connector version, compiled once and cached per
 * `ParsedConnector` (a WeakMap, so a dropped version takes its plans with it): the base
 * URL, the authentication methods, and per action its steps with their evaluators.
 */

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

// ---- authentication ---------------------------------------------------------------

export type AuthPlan =
  | { readonly _tag: "None"; readonly name: string | undefined }
  | { readonly _tag: "Basic"; readonly name: string; readonly username: Evaluator; readonly password: Evaluator }
  | { readonly _tag: "Bearer"; readonly name: string; readonly token: Evaluator }
  | {
    readonly _tag: "ApiKey"
    readonly name: string
    readonly key: Evaluator
    readonly value: Evaluator
    readonly in: "header" | "query"
  }
  /** OAuth 2.0 with a token already stored on the account (authorization code flows). */
  | {
    readonly _tag: "StoredToken"
    readonly name: string
    readonly token: Evaluator | undefined
    readonly includeBearer: boolean
  }
  | {
    readonly _tag: "ClientCredentials"
    readonly name: string
    readonly tokenUrl: Evaluator
    readonly scope: string | undefined
    readonly defaultExpiresIn: number | undefined
    readonly includeBearer: boolean
  }

const compileAuth = (
  name: string,
  method: AuthenticationMethod,
  path: string,
  compiled: CompiledExpressions
): AuthPlan => {
  const at = (value: string, key: string, base = `${path}.authorization`) =>
    compileEvaluator(lookupExpression(value, childPath(base, key), compiled), { path: childPath(base, key) })
  const authorization = method.authorization
  if (method.type === "oauth2") {
    const includeBearer = authorization?.type === "oauth2" ? authorization.includeBearer !== false : true
    if (method.grantType === "client_credentials") {
      const tokenUrl = method.tokenUrl !== undefined
        ? at(method.tokenUrl, "tokenUrl", path)
        : authorization?.type === "oauth2" && authorization.tokenUrl !== undefined
        ? at(authorization.tokenUrl, "tokenUrl")
        : undefined
      if (tokenUrl === undefined) {
        throw new ActionDefinitionError({ message: `authentication "${name}": client_credentials needs a tokenUrl`, path })
      }
      const scopes = method.scopes
      return {
        _tag: "ClientCredentials",
        name,
        tokenUrl,
        scope: scopes === undefined ? undefined : typeof scopes === "string" ? scopes : scopes.join(" "),
        defaultExpiresIn: method.tokenExpiresIn,
        includeBearer
      }
    }
    const token = authorization?.type === "oauth2" && authorization.token !== undefined
      ? at(authorization.token, "token")
      : undefined
    return { _tag: "StoredToken", name, token, includeBearer }
  }
  switch (authorization?.type) {
    case undefined:
    case "none":
      return { _tag: "None", name }
    case "basic":
      return { _tag: "Basic", name, username: at(authorization.username, "username"), password: at(authorization.password, "password") }
    case "bearer":
      return { _tag: "Bearer", name, token: at(authorization.token, "token") }
    case "apiKey":
      return { _tag: "ApiKey", name, key: at(authorization.key, "key"), value: at(authorization.value, "value"), in: authorization.in }
    case "oauth2": {
      const token = authorization.token !== undefined ? at(authorization.token, "token") : undefined
      return { _tag: "StoredToken", name, token, includeBearer: authorization.includeBearer !== false }
    }
  }
}

// ---- steps ------------------------------------------------------------------------

export interface ArgPlan {
  readonly name: string
  readonly in: "query" | "body" | "headers" | "path"
  readonly value: Evaluator
  readonly condition: Evaluator | undefined
  /** Body or query arg whose object value is merged in (instead of set under `name`). */
  readonly spread: boolean
}

export interface CustomErrorPlan {
  readonly receivedStatus: number
  readonly targetStatus: number
  readonly message: Evaluator | undefined
  readonly condition: Evaluator | undefined
}

/** Reads `response.dataKey` / `nextKey` out of a response body. */
export type BodyReader =
  | { readonly _tag: "Key"; readonly keys: ReadonlyArray<string> }
  | { readonly _tag: "Expression"; readonly evaluate: Evaluator }

export interface HttpPlan {
  readonly method: Evaluator | undefined
  readonly url: Evaluator | undefined
  readonly args: ReadonlyArray<ArgPlan>
  readonly dataKey: BodyReader | undefined
  readonly nextKey: BodyReader | undefined
  readonly customErrors: ReadonlyArray<CustomErrorPlan>
  /** `parameters.bodyType: form` sends body args form-encoded. */
  readonly formBody: boolean
  /**
   * The connector text fixes the URL's origin (a literal, or `https://host/...${…}`).
   * Otherwise an absolute URL must share the base URL's origin: inputs must never point
   * the account's credentials at another host.
   */
  readonly staticOrigin: boolean
}

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

export interface IteratorPlan {
  readonly key: string | undefined
  readonly in: "query" | "body" | "headers" | "url"
  /** Start cursor; default `inputs.cursor` when the action declares a `cursor` input. */
  readonly value: Evaluator | undefined
}

export type StepKind =
  | { readonly _tag: "request"; readonly http: HttpPlan }
  | {
    readonly _tag: "paginated_request"
    readonly http: HttpPlan
    readonly iterator: IteratorPlan | undefined
    readonly maxPages: Evaluator | undefined
  }
  | {
    readonly _tag: "map_fields"
    readonly dataSource: Evaluator
    readonly fields: ReadonlyArray<FieldPlan> | undefined
    readonly aliases: ReadonlyArray<string>
  }
  | {
    readonly _tag: "typecast"
    readonly dataSource: Evaluator
    readonly fields: ReadonlyArray<{ readonly key: string; readonly type: string | undefined }>
  }
  | { readonly _tag: "static_values"; readonly values: Evaluator }
  | { readonly _tag: "group_data"; readonly stepIds: ReadonlyArray<string>; readonly isSingleRecord: boolean }
  | {
    readonly _tag: "download_file"
    readonly http: HttpPlan
    /** The connector's declared media type and file name; the provider's headers otherwise. */
    readonly contentType: Evaluator | undefined
    readonly fileName: Evaluator | undefined
  }
  | {
    readonly _tag: "upload_file"
    readonly http: HttpPlan
    readonly content: Evaluator | undefined
    readonly contentType: Evaluator | undefined
    readonly fileName: Evaluator | undefined
    readonly encoding: Evaluator | undefined
  }
  | {
    readonly _tag: "mcp_request"
    readonly url: Evaluator | undefined
    readonly staticOrigin: boolean
    readonly method: Evaluator
    readonly name: Evaluator | undefined
    readonly arguments: Evaluator | undefined
    readonly cursor: Evaluator | undefined
  }

export interface StepPlan {
  readonly stepId: string
  readonly path: string
  readonly functionName: string
  readonly condition: Evaluator | undefined
  readonly ignoreError: boolean
  readonly kind: StepKind
}

export interface ActionPlan {
  readonly action: ActionDefinition
  readonly path: string
  readonly steps: ReadonlyArray<StepPlan>
  readonly resultData: Evaluator | undefined
  readonly resultNext: Evaluator | undefined
  readonly isList: boolean
  readonly declaresCursor: boolean
}

export interface ConnectorPlan {
  readonly baseUrl: Evaluator | undefined
  /** Methods by name, in document order. */
  readonly auth: ReadonlyMap<string, AuthPlan | ActionDefinitionError>
  readonly firstAuth: string | undefined
  /** Lazily filled: one plan (or the reason there is none) per action id. */
  readonly actions: Map<string, ActionPlan | ActionDefinitionError>
}

const plans = new WeakMap<ParsedConnector, ConnectorPlan>()

const asString = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined)

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

const compileStep = (
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

// ---- step references --------------------------------------------------------------

type JexlNode = { readonly type: string; readonly [key: string]: unknown }

/** Step ids an expression reads through `steps.<id>` (JSONPath, interpolation or JEXL). */
export const stepReferences = (expression: CompiledExpression): Array<string> => {
  const found: Array<string> = []
  const fromPath = (path: ReadonlyArray<string>) => {
    if (path[0] === "$" && path[1] === "steps" && path.length > 2) found.push(path[2]!)
  }
  switch (expression.kind) {
    case "jsonpath":
      fromPath(expression.path)
      break
    case "interpolation":
      for (const part of expression.parts) if (typeof part !== "string") fromPath(part.path)
      break
    case "jexl": {
      const pending: Array<unknown> = [jexlAst(expression.expression)]
      while (pending.length > 0) {
        const node = pending.pop()
        if (Array.isArray(node)) pending.push(...node)
        else if (isRecord(node)) {
          const jexl = node as JexlNode
          if (jexl.type === "Identifier" && isRecord(jexl.from)) {
            const from = jexl.from as JexlNode
            const rootIsSteps = from.type === "Identifier" && from.value === "steps" &&
              (from.from === undefined || (isRecord(from.from) && (from.from as JexlNode).value === "$" && (from.from as JexlNode).from === undefined))
            if (rootIsSteps && typeof jexl.value === "string") found.push(jexl.value)
          }
          for (const value of Object.values(node)) if (typeof value === "object") pending.push(value)
        }
      }
      break
    }
    case "literal":
      break
  }
  return found
}

const checkStepReferences = (
  action: ActionDefinition,
  actionPath: string,
  compiled: CompiledExpressions
): void => {
  const ids = new Set(action.steps.map((step) => step.stepId))
  for (const [path, expression] of compiled) {
    if (!path.startsWith(`${actionPath}.`)) continue
    for (const id of stepReferences(expression)) {
      if (!ids.has(id)) {
        throw new ActionDefinitionError({
          message: `${path} reads steps.${id}, but action "${action.actionId}" has no step "${id}"`,
          actionId: action.actionId,
          path
        })
      }
    }
  }
  action.steps.forEach((step, index) => {
    if (step.stepFunction.functionName !== "group_data") return
    for (const id of step.stepFunction.parameters.stepsDataToGroup) {
      if (!ids.has(id)) {
        throw new ActionDefinitionError({
          message: `step "${step.stepId}" groups step "${id}", which action "${action.actionId}" does not define`,
          actionId: action.actionId,
          stepId: step.stepId,
          path: `${actionPath}.steps[${index}].stepFunction.parameters.stepsDataToGroup`
        })
      }
    }
  })
}

// ---- plans ------------------------------------------------------------------------

const toDefinitionError = (error: unknown, actionId: string | undefined): ActionDefinitionError => {
  if (error instanceof ActionDefinitionError) {
    if (actionId === undefined) return error
    return new ActionDefinitionError({ message: error.message, actionId, stepId: error.stepId, path: error.path })
  }
  if (error instanceof ExpressionError) {
    return new ActionDefinitionError({ message: error.message, actionId, path: error.path })
  }
  throw error
}

const connectorPlan = (parsed: ParsedConnector): ConnectorPlan => {
  let plan = plans.get(parsed)
  if (plan !== undefined) return plan
  const { definition, compiled } = parsed
  const auth = new Map<string, AuthPlan | ActionDefinitionError>()
  let firstAuth: string | undefined
  definition.authentication?.forEach((entry, index) => {
    for (const [name, method] of Object.entries(entry)) {
      firstAuth ??= name
      try {
        auth.set(name, compileAuth(name, method, formatPath(["authentication", index, name]), compiled))
      } catch (error) {
        auth.set(name, toDefinitionError(error, undefined))
      }
    }
  })
  let baseUrl: Evaluator | undefined
  if (definition.baseUrl !== undefined) {
    baseUrl = compileEvaluator(lookupExpression(definition.baseUrl, "baseUrl", compiled), { path: "baseUrl", urlEncode: true })
  }
  plan = { baseUrl, auth, firstAuth, actions: new Map() }
  plans.set(parsed, plan)
  return plan
}

/** Where an action lives: `actions`, `events.actions`, or inline in `refreshAuthentication`. */
export const findAction = (
  parsed: ParsedConnector,
  actionId: string
): { readonly action: ActionDefinition; readonly path: string } | undefined => {
  const { definition } = parsed
  const index = definition.actions.findIndex((action) => action.actionId === actionId)
  if (index >= 0) return { action: definition.actions[index]!, path: `actions[${index}]` }
  const events = definition.events?.actions ?? []
  const eventIndex = events.findIndex((action) => action.actionId === actionId)
  if (eventIndex >= 0) return { action: events[eventIndex]!, path: `events.actions[${eventIndex}]` }
  let found: { action: ActionDefinition; path: string } | undefined
  definition.authentication?.forEach((entry, index) => {
    for (const [name, method] of Object.entries(entry)) {
      const inline = method.refreshAuthentication?.action
      if (found === undefined && typeof inline === "object" && inline.actionId === actionId) {
        found = { action: inline, path: formatPath(["authentication", index, name, "refreshAuthentication", "action"]) }
      }
    }
  })
  return found
}

const compileAction = (parsed: ParsedConnector, actionId: string): ActionPlan | ActionDefinitionError => {
  const found = findAction(parsed, actionId)
  if (found === undefined) {
    return new ActionDefinitionError({ message: `connector "${parsed.definition.info.key}" has no action "${actionId}"`, actionId })
  }
  const { action, path } = found
  const { compiled } = parsed
  try {
    checkStepReferences(action, path, compiled)
    const steps = action.steps.map((step, index) => compileStep(step, action, path, `${path}.steps[${index}]`, compiled))
    const result = action.result
    return {
      action,
      path,
      steps,
      resultData: result?.data === undefined ? undefined : compileTemplate(result.data, `${path}.result.data`, compiled),
      resultNext: result?.next === undefined ? undefined : compileTemplate(result.next, `${path}.result.next`, compiled),
      isList: action.actionType === "list",
      declaresCursor: (action.inputs ?? []).some((input) => input.name === "cursor")
    }
  } catch (error) {
    return toDefinitionError(error, actionId)
  }
}

/** The compiled plan of a connector version (cached). */
export const planConnector = (parsed: ParsedConnector): ConnectorPlan => connectorPlan(parsed)

/** The compiled plan of one action (cached per connector version), or why it cannot run. */
export const planAction = (parsed: ParsedConnector, actionId: string): Either.Either<ActionPlan, ActionDefinitionError> => {
  const plan = connectorPlan(parsed)
  let action = plan.actions.get(actionId)
  if (action === undefined) {
    action = compileAction(parsed, actionId)
    // unknown ids are not cached: a caller probing names must not grow the map
    if (!(action instanceof ActionDefinitionError) || findAction(parsed, actionId) !== undefined) {
      plan.actions.set(actionId, action)
    }
  }
  return action instanceof ActionDefinitionError ? Either.left(action) : Either.right(action)
}
