import { Either } from "effect"
import { formatPath } from "./ConnectorParseError.js"
import { classifyExpression, type CompiledExpression, compileExpression } from "./Expressions.js"
import { defaultParseLimits, type ParseLimits } from "./ParseLimits.js"
import type { PathIssue } from "./schemaIssues.js"

/*
 * Finds every expression-bearing value in a connector document and compiles it. Works on
 * the raw document (not the decoded one) so broken expressions are reported together with
 * schema problems; anything of an unexpected shape is skipped here, the schema reports it.
 */

/**
 * Compiled expressions keyed by `formatPath` of their location, e.g.
 * `actions[0].steps[1].stepFunction.parameters.url`.
 */
export type CompiledExpressions = ReadonlyMap<string, CompiledExpression>

type Segments = ReadonlyArray<PropertyKey>

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const AUTHORIZATION_VALUES = ["username", "password", "token", "key", "value", "authorizationUrl", "tokenUrl"] as const

type CompileLimits = Pick<
  ParseLimits,
  "maxExpressionLength" | "maxExpressionDepth" | "maxExpressions" | "maxExpressionChars"
>

/**
 * Compiles the document's expressions, each bounded by `compileExpression`, and all
 * together by `maxExpressions` and `maxExpressionChars`, counted before any is compiled:
 * a connector over either budget costs one walk and gets one issue, at the expression
 * where the budget ran out.
 */
export const compileConnectorExpressions = (
  document: unknown,
  limits: CompileLimits = defaultParseLimits
): { readonly compiled: CompiledExpressions; readonly issues: ReadonlyArray<PathIssue> } => {
  const found: Array<readonly [string, Segments]> = []

  const one = (value: unknown, path: Segments) => {
    if (typeof value === "string") found.push([value, path])
  }

  /** Every string anywhere under `value` (parameters, result, ...). */
  const deep = (value: unknown, path: Segments) => {
    const pending: Array<[unknown, Segments]> = [[value, path]]
    while (pending.length > 0) {
      const [current, at] = pending.pop()!
      if (typeof current === "string") one(current, at)
      else if (Array.isArray(current)) current.forEach((item, index) => pending.push([item, [...at, index]]))
      else if (isRecord(current)) for (const [key, item] of Object.entries(current)) pending.push([item, [...at, key]])
    }
  }

  const each = (value: unknown, path: Segments, f: (item: Record<string, unknown>, at: Segments) => void) => {
    if (Array.isArray(value)) value.forEach((item, index) => isRecord(item) && f(item, [...path, index]))
  }

  const action = (item: Record<string, unknown>, at: Segments) => {
    each(item.fieldConfigs, [...at, "fieldConfigs"], (field, fieldAt) => {
      one(field.expression, [...fieldAt, "expression"])
      if (isRecord(field.enumMapper)) {
        each(field.enumMapper.matcher, [...fieldAt, "enumMapper", "matcher"], (matcher, matcherAt) =>
          one(matcher.matchExpression, [...matcherAt, "matchExpression"]))
      }
    })
    each(item.steps, [...at, "steps"], (step, stepAt) => {
      one(step.condition, [...stepAt, "condition"])
      if (isRecord(step.stepFunction)) {
        deep(step.stepFunction.parameters, [...stepAt, "stepFunction", "parameters"])
      }
    })
    deep(item.result, [...at, "result"])
  }

  if (isRecord(document)) {
    one(document.baseUrl, ["baseUrl"])
    if (isRecord(document.servers)) {
      for (const [name, server] of Object.entries(document.servers)) {
        if (isRecord(server)) one(server.url, ["servers", name, "url"])
      }
    }
    each(document.authentication, ["authentication"], (entry, entryAt) => {
      for (const [name, method] of Object.entries(entry)) {
        if (!isRecord(method)) continue
        const at = [...entryAt, name]
        if (isRecord(method.authorization)) {
          for (const key of AUTHORIZATION_VALUES) one(method.authorization[key], [...at, "authorization", key])
          deep(method.authorization.authorizationParams, [...at, "authorization", "authorizationParams"])
        }
        one(method.authorizationUrl, [...at, "authorizationUrl"])
        one(method.tokenUrl, [...at, "tokenUrl"])
        deep(method.authorizationParams, [...at, "authorizationParams"])
        if (isRecord(method.refreshAuthentication) && isRecord(method.refreshAuthentication.action)) {
          action(method.refreshAuthentication.action, [...at, "refreshAuthentication", "action"])
        }
      }
    })
    each(document.actions, ["actions"], action)
    if (isRecord(document.events)) {
      each(document.events.actions, ["events", "actions"], action)
      deep(document.events.router, ["events", "router"])
    }
  }
  const overBudget = budgetIssue(found, limits)
  if (overBudget !== undefined) return { compiled: new Map(), issues: [overBudget] }

  const compiled = new Map<string, CompiledExpression>()
  const issues: Array<PathIssue> = []
  for (const [value, path] of found) {
    const result = compileExpression(value, limits)
    if (Either.isLeft(result)) issues.push({ path, message: result.left })
    else compiled.set(formatPath(path), result.right)
  }
  return { compiled, issues }
}

const budgetIssue = (found: ReadonlyArray<readonly [string, Segments]>, limits: CompileLimits): PathIssue | undefined => {
  let count = 0
  let chars = 0
  for (const [value, path] of found) {
    // an over-long one is refused unread by `compileExpression`, so it costs no compile work
    if (value.length > limits.maxExpressionLength || classifyExpression(value) === "literal") continue
    count++
    chars += value.length
    if (count > limits.maxExpressions) {
      return { path, message: `more than ${limits.maxExpressions} expressions in the connector (maxExpressions)` }
    }
    if (chars > limits.maxExpressionChars) {
      return {
        path,
        message: `expressions total more than ${limits.maxExpressionChars} characters in the connector (maxExpressionChars)`
      }
    }
  }
  return undefined
}
