import { Either } from "effect"
import { formatPath } from "./ConnectorParseError.js"
import type { ActionDefinition } from "./ConnectorDefinition.js"
import { compileEvaluator, compileTemplate, type Evaluator, ExpressionError, lookupExpression } from "./evaluate.js"
import type { ParsedConnector } from "./parseConnector.js"
import { ActionDefinitionError } from "./RunErrors.js"
import { type AuthPlan, compileAuth } from "./plan/AuthPlan.js"
import { compileStep } from "./plan/compileStep.js"
import type { StepPlan } from "./plan/StepPlan.js"
import { checkStepReferences } from "./plan/stepReferences.js"

export type { AuthPlan } from "./plan/AuthPlan.js"
export type {
  ArgPlan,
  BodyReader,
  CustomErrorPlan,
  HttpPlan,
  IteratorPlan,
  StepKind,
  StepPlan,
  XmlReading
} from "./plan/StepPlan.js"
export { stepReferences } from "./plan/stepReferences.js"

/*
 * Everything a run needs from a connector version, compiled once and cached per
 * `ParsedConnector` (a WeakMap, so a dropped version takes its plans with it): the base
 * URL, the authentication methods, and per action its steps with their evaluators.
 */

export interface ActionPlan {
  readonly action: ActionDefinition
  readonly path: string
  readonly steps: ReadonlyArray<StepPlan>
  readonly resultData: Evaluator | undefined
  readonly resultNext: Evaluator | undefined
  readonly isList: boolean
  readonly declaresCursor: boolean
}

/** A named server beside the base URL (`servers.<name>`). */
export interface ServerPlan {
  readonly url: Evaluator
  /** `authentication: none`: its requests carry none of the account's credentials. */
  readonly authenticated: boolean
}

export interface ConnectorPlan {
  readonly baseUrl: Evaluator | undefined
  readonly servers: ReadonlyMap<string, ServerPlan>
  /** Methods by name, in document order. */
  readonly auth: ReadonlyMap<string, AuthPlan | ActionDefinitionError>
  readonly firstAuth: string | undefined
  /** Lazily filled: one plan (or the reason there is none) per action id. */
  readonly actions: Map<string, ActionPlan | ActionDefinitionError>
}

const plans = new WeakMap<ParsedConnector, ConnectorPlan>()

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
  const servers = new Map<string, ServerPlan>()
  for (const [name, server] of Object.entries(definition.servers ?? {})) {
    const path = `servers.${name}.url`
    servers.set(name, {
      url: compileEvaluator(lookupExpression(server.url, path, compiled), { path, urlEncode: true }),
      authenticated: server.authentication !== "none"
    })
  }
  plan = { baseUrl, servers, auth, firstAuth, actions: new Map() }
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

/** Every `parameters.server` a step names is one of the connector's `servers`. */
const checkServers = (parsed: ParsedConnector, steps: ReadonlyArray<StepPlan>) => {
  const declared = Object.keys(parsed.definition.servers ?? {})
  for (const step of steps) {
    const server = "http" in step.kind ? step.kind.http.server : undefined
    if (server !== undefined && !declared.includes(server)) {
      throw new ActionDefinitionError({
        message: `step "${step.stepId}" names server "${server}", which the connector's servers do not declare` +
          (declared.length === 0 ? " (it declares none)" : ` (it declares ${declared.join(", ")})`),
        stepId: step.stepId,
        path: `${step.path}.stepFunction.parameters.server`
      })
    }
  }
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
    checkServers(parsed, steps)
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
