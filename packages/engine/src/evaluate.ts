import { Either } from "effect"
import { JSONPath } from "jsonpath-plus"
import type { CompiledExpressions } from "./compileConnectorExpressions.js"
import { type CompiledExpression, type CompiledInterpolation, type CompiledJsonPath, compileExpression } from "./Expressions.js"
import { ContextScope, type ExpressionBounds, ExpressionError, RecordScope, type Scope, ValueScope } from "./expression/ExpressionScope.js"
import { checkString, type Evaluator, type EvaluatorOptions, fail } from "./expression/Evaluator.js"
import { jexlEvaluator } from "./expression/jexlEvaluator.js"

/*
 * Evaluation of compiled connector expressions.
 *
 * Every compiled expression is turned once into an `Evaluator`, a closure over a `Scope`:
 *   - JSONPath made only of plain names (`$.inputs.id`, `$.items.0.name`) walks own
 *     properties directly, exactly as jsonpath-plus would; anything else (wildcards,
 *     filters, `..`) goes to jsonpath-plus with `eval: "safe"` (its sandboxed evaluator;
 *     never `new Function`).
 *   - JEXL ASTs made of the usual nodes (identifiers, literals, operators, helper calls)
 *     become closures with jexl's own semantics; anything else runs through jexl's
 *     `evalSync`. Neither form can call anything but the registered helpers.
 *   - Interpolations join their parts; missing values become "" (see `interpolate`).
 * A scope reads names without copying: a mapper reuses one `RecordScope` for every record.
 */

export * from "./expression/ExpressionScope.js"
export type { Evaluator, EvaluatorOptions } from "./expression/Evaluator.js"
export { isFastJexl } from "./expression/jexlEvaluator.js"

const hasOwn = Object.prototype.hasOwnProperty

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const SLICE = /^(-?\d*):(-?\d*):?(-?\d*)$/

/** A segment jsonpath-plus treats as a plain property name (no operator, no script). */
const isPlainSegment = (segment: string): boolean => {
  if (segment === "" || segment === "*" || segment === ".." || segment === "^" || segment === "~") return false
  if (segment === "$" || segment.includes(",") || SLICE.test(segment)) return false
  const first = segment[0]
  return first !== "?" && first !== "(" && first !== "@" && first !== "`" && first !== "'" && first !== '"'
}

/** Property names of a plain JSONPath (`$.a.b` → `["a", "b"]`), or undefined if it is not one. */
export const plainJsonPath = (compiled: CompiledJsonPath): ReadonlyArray<string> | undefined => {
  const path = compiled.path
  if (path[0] !== "$") return undefined
  for (let i = 1; i < path.length; i++) if (!isPlainSegment(path[i]!)) return undefined
  return path.slice(1)
}

const walk = (value: unknown, names: ReadonlyArray<string>, from: number): unknown => {
  let current = value
  for (let i = from; i < names.length; i++) {
    const name = names[i]!
    if (!current || !hasOwn.call(current, name)) return undefined
    current = (current as Record<string, unknown>)[name]
  }
  return current
}

const jsonPathEvaluator = (compiled: CompiledJsonPath, options: EvaluatorOptions): Evaluator => {
  const names = plainJsonPath(compiled)
  if (names !== undefined) {
    if (names.length === 0) return (scope) => scope.root()
    const first = names[0]!
    if (names.length === 1) return (scope) => scope.get(first)
    if (names.length === 2) {
      const second = names[1]!
      return (scope) => {
        const value = scope.get(first)
        return value && hasOwn.call(value, second) ? (value as Record<string, unknown>)[second] : undefined
      }
    }
    return (scope) => walk(scope.get(first), names, 1)
  }
  const source = compiled.source
  return (scope) => {
    const json = scope.root()
    if (!json) return undefined
    try {
      return JSONPath({ path: source, json: json as object, wrap: false, eval: "safe", ignoreEvalErrors: true })
    } catch (error) {
      return fail(compiled, options, error)
    }
  }
}

/** Text of an interpolated value: missing → "", arrays comma-joined, objects as JSON. */
export const interpolationText = (value: unknown): string => {
  if (value === undefined || value === null) return ""
  if (typeof value === "string") return value
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value)
  if (Array.isArray(value)) return value.map(interpolationText).join(",")
  if (value instanceof Uint8Array) return ""
  return JSON.stringify(value)
}

/**
 * `/users/${inputs.id}`: each `${…}` is a context path; a missing value becomes "" (the
 * request then fails visibly at the provider rather than the runner guessing). A string
 * that is exactly one `${…}` yields the value itself, with its type.
 */
const interpolationEvaluator = (compiled: CompiledInterpolation, options: EvaluatorOptions): Evaluator => {
  const parts = compiled.parts.map((part) =>
    typeof part === "string" ? part : jsonPathEvaluator(part, options)
  )
  if (parts.length === 1 && typeof parts[0] !== "string") {
    const only = parts[0]!
    return only
  }
  const encode = options.urlEncode === true
  return (scope) => {
    let text = ""
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!
      if (typeof part === "string") text += part
      else {
        const value = interpolationText(part(scope))
        text += encode && i > 0 ? encodeURIComponent(value) : value
      }
    }
    return checkString(text, compiled, scope, options)
  }
}

export const compileEvaluator = (compiled: CompiledExpression, options: EvaluatorOptions = {}): Evaluator => {
  switch (compiled.kind) {
    case "literal": {
      const value = compiled.source
      return () => value
    }
    case "jsonpath":
      return jsonPathEvaluator(compiled, options)
    case "interpolation":
      return interpolationEvaluator(compiled, options)
    case "jexl":
      return jexlEvaluator(compiled, options)
  }
}

const evaluatorCache = new WeakMap<CompiledExpression, Evaluator>()

/**
 * Evaluates one compiled expression against a context (`{inputs, credentials, steps,
 * ...}`). The closure is cached per compiled expression, so calling this in a loop does
 * not recompile. Throws `ExpressionError`.
 */
export const evaluateExpression = (
  compiled: CompiledExpression,
  context: Record<string, unknown> | Scope,
  bounds?: ExpressionBounds
): unknown => {
  let evaluator = evaluatorCache.get(compiled)
  if (evaluator === undefined) {
    evaluator = compileEvaluator(compiled)
    evaluatorCache.set(compiled, evaluator)
  }
  const scope = isScope(context) ? context : new ContextScope(context, bounds)
  return evaluator(scope)
}

const isScope = (value: unknown): value is Scope =>
  value instanceof ContextScope || value instanceof ValueScope || value instanceof RecordScope

/** Connector truthiness: JavaScript's, except that the string "false" is false. */
export const isTruthy = (value: unknown): boolean => Boolean(value) && value !== "false"

// ---- templates --------------------------------------------------------------------

/**
 * A connector value that may hold expressions anywhere inside (`result.data: {id: $.x}`,
 * `static_values.values`, arg values). Strings are looked up in `compiled` by their
 * path (as `compileConnectorExpressions` keyed them); objects and arrays evaluate leaf by
 * leaf, dropping object members that evaluate to `undefined`.
 */
export const compileTemplate = (
  value: unknown,
  path: string,
  compiled: CompiledExpressions,
  options: Omit<EvaluatorOptions, "path"> = {}
): Evaluator => {
  if (typeof value === "string") {
    const expression = lookupExpression(value, path, compiled)
    return compileEvaluator(expression, { ...options, path })
  }
  if (Array.isArray(value)) {
    const items = value.map((item, index) => compileTemplate(item, `${path}[${index}]`, compiled, options))
    return (scope) => items.map((item) => item(scope))
  }
  if (isRecord(value)) {
    const keys = Object.keys(value)
    const items = keys.map((key) => compileTemplate(value[key], childPath(path, key), compiled, options))
    return (scope) => {
      const out: Record<string, unknown> = {}
      for (let i = 0; i < keys.length; i++) {
        const item = items[i]!(scope)
        if (item !== undefined) out[keys[i]!] = item
      }
      return out
    }
  }
  return () => value
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$-]*$/

/** Same spelling as `formatPath`: `a.b`, `a["odd key"]`. */
export const childPath = (path: string, key: string): string =>
  IDENTIFIER.test(key) ? (path === "" ? key : `${path}.${key}`) : `${path}[${JSON.stringify(key)}]`

/** The compiled form at `path`; compiles on the spot only if the parser did not (it always should). */
export const lookupExpression = (source: string, path: string, compiled: CompiledExpressions): CompiledExpression => {
  const found = compiled.get(path)
  if (found !== undefined && found.source === source) return found
  const result = compileExpression(source)
  if (Either.isLeft(result)) throw new ExpressionError(source, result.left, false, path)
  return result.right
}
