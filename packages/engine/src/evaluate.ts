import { Either } from "effect"
import { JSONPath } from "jsonpath-plus"
import type { CompiledExpressions } from "./compileConnectorExpressions.js"
import {
  type CompiledExpression,
  type CompiledInterpolation,
  type CompiledJexl,
  type CompiledJsonPath,
  compileExpression
} from "./Expressions.js"
import { binaryOperator, jexlAst, type JexlAst } from "./ExpressionLanguage.js"
import { expressionHelpers } from "./ExpressionHelpers.js"

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

export interface ExpressionBounds {
  /** Longest string an interpolation or a JEXL expression may produce. */
  readonly maxStringLength: number
}

export const defaultExpressionBounds: ExpressionBounds = { maxStringLength: 1_000_000 }

/** An expression failed while evaluating (or produced more than its bounds allow). */
export class ExpressionError extends Error {
  override readonly name = "ExpressionError"
  constructor(
    readonly source: string,
    readonly reason: string,
    readonly tooLarge: boolean,
    readonly path: string | undefined
  ) {
    super(`expression ${JSON.stringify(source)}${path === undefined ? "" : ` at ${path}`} ${reason}`)
  }
}

const hasOwn = Object.prototype.hasOwnProperty

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

// ---- scopes -----------------------------------------------------------------------

/** What expressions read: the run context, possibly with a record laid over it. */
export interface Scope {
  /** A top-level name (`inputs`, a record field, a step id); own properties only. */
  get(name: string): unknown
  /** What `$` denotes: the whole root (built on demand for record scopes). */
  root(): unknown
  /** What JEXL's `$.name` reads (differs from `get` only for array roots). */
  dollar(name: string): unknown
  readonly bounds: ExpressionBounds
}

/** The run context itself: `{inputs, credentials, settings, steps, ...}`. */
export class ContextScope implements Scope {
  constructor(
    readonly context: Record<string, unknown>,
    readonly bounds: ExpressionBounds = defaultExpressionBounds
  ) {}
  get(name: string): unknown {
    return hasOwn.call(this.context, name) ? this.context[name] : undefined
  }
  root(): unknown {
    return this.context
  }
  dollar(name: string): unknown {
    return this.get(name)
  }
}

/** Any value as the root, e.g. a response body read by `response.dataKey`. */
export class ValueScope implements Scope {
  constructor(
    readonly value: unknown,
    readonly bounds: ExpressionBounds = defaultExpressionBounds
  ) {}
  get(name: string): unknown {
    const value = this.value
    return value && hasOwn.call(value, name) ? (value as Record<string, unknown>)[name] : undefined
  }
  root(): unknown {
    return this.value
  }
  dollar(name: string): unknown {
    let value = this.value
    if (value === undefined || value === null) return undefined
    if (Array.isArray(value)) value = value[0]
    return (value as Record<string, unknown>)[name]
  }
}

/**
 * A record laid over a base scope: names resolve to the record when one of `aliases`
 * (a step id, so `$.fetch_employees.email` reads the record) or a record field, else to
 * the base. Mutable on purpose: `set` moves it to the next record without allocating.
 */
export class RecordScope implements Scope {
  private record: unknown = undefined
  private merged: Record<string, unknown> | undefined = undefined
  constructor(
    readonly base: Scope,
    readonly aliases: ReadonlyArray<string> = []
  ) {}
  get bounds(): ExpressionBounds {
    return this.base.bounds
  }
  set(record: unknown): this {
    this.record = record
    this.merged = undefined
    return this
  }
  current(): unknown {
    return this.record
  }
  /** An own field of the current record (a field config without `expression`). */
  currentField(name: string): unknown {
    const record = this.record
    return isRecord(record) && hasOwn.call(record, name) ? record[name] : undefined
  }
  get(name: string): unknown {
    const aliases = this.aliases
    for (let i = 0; i < aliases.length; i++) if (aliases[i] === name) return this.record
    const record = this.record
    if (isRecord(record) && hasOwn.call(record, name)) return record[name]
    return this.base.get(name)
  }
  root(): unknown {
    if (this.merged === undefined) {
      const baseRoot = this.base.root()
      const merged: Record<string, unknown> = isRecord(baseRoot) ? { ...baseRoot } : {}
      if (isRecord(this.record)) Object.assign(merged, this.record)
      for (const alias of this.aliases) merged[alias] = this.record
      this.merged = merged
    }
    return this.merged
  }
  dollar(name: string): unknown {
    return this.get(name)
  }
}

// ---- evaluators -------------------------------------------------------------------

export type Evaluator = (scope: Scope) => unknown

export interface EvaluatorOptions {
  /** Where the expression sits in the connector (for error messages). */
  readonly path?: string | undefined
  /**
   * URL context: values interpolated after the start of the string are
   * percent-encoded (`/users/${inputs.id}` with id `a/b` gives `/users/a%2Fb`).
   */
  readonly urlEncode?: boolean | undefined
}

const fail = (compiled: CompiledExpression, options: EvaluatorOptions, error: unknown): never => {
  if (error instanceof ExpressionError) throw error
  const reason = error instanceof Error ? error.message : String(error)
  throw new ExpressionError(compiled.source, `failed: ${reason}`, false, options.path)
}

const checkString = (value: unknown, compiled: CompiledExpression, scope: Scope, options: EvaluatorOptions) => {
  if (typeof value === "string" && value.length > scope.bounds.maxStringLength) {
    throw new ExpressionError(
      compiled.source,
      `produced ${value.length} characters; at most ${scope.bounds.maxStringLength} allowed`,
      true,
      options.path
    )
  }
  return value
}

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

// ---- JEXL -------------------------------------------------------------------------

type Closure = (scope: Scope) => unknown

const jexlMember = (value: unknown, name: string): unknown => {
  if (value === undefined || value === null) return undefined
  const target = Array.isArray(value) ? value[0] : value
  return (target as Record<string, unknown>)[name]
}

/**
 * A closure with jexl's semantics for the common node types, or undefined when the AST
 * uses anything else (relative filters, unknown on-demand operators, missing functions):
 * those run through jexl itself.
 */
const compileJexlAst = (ast: JexlAst): Closure | undefined => {
  switch (ast.type) {
    case "Literal": {
      const value = ast.value
      return () => value
    }
    case "Identifier": {
      if (ast.relative === true) return undefined
      const name = ast.value
      if (ast.from === undefined) {
        if (name === "$") return (scope) => scope.root()
        return (scope) => scope.get(name)
      }
      if (ast.from.type === "Identifier" && ast.from.from === undefined && ast.from.value === "$" && !ast.from.relative) {
        return (scope) => scope.dollar(name)
      }
      const from = compileJexlAst(ast.from)
      if (from === undefined) return undefined
      return (scope) => jexlMember(from(scope), name)
    }
    case "FilterExpression": {
      if (ast.relative) return undefined
      const subject = compileJexlAst(ast.subject)
      const expr = compileJexlAst(ast.expr)
      if (subject === undefined || expr === undefined) return undefined
      return (scope) => {
        const value = subject(scope)
        const key = expr(scope)
        if (typeof key === "boolean") return key ? value : undefined
        return (value as Record<string, unknown>)[key as string]
      }
    }
    case "BinaryExpression": {
      const left = compileJexlAst(ast.left)
      const right = compileJexlAst(ast.right)
      if (left === undefined || right === undefined) return undefined
      switch (ast.operator) {
        case "&&":
          return (scope) => {
            const value = left(scope)
            return value ? right(scope) : value
          }
        case "||":
          return (scope) => {
            const value = left(scope)
            return value ? value : right(scope)
          }
        case "??":
          return (scope) => {
            const value = left(scope)
            return value === undefined || value === null ? right(scope) : value
          }
      }
      const op = binaryOperator(ast.operator)
      if (op === undefined) return undefined
      return (scope) => op(left(scope), right(scope))
    }
    case "UnaryExpression": {
      // `!` is jexl's only unary operator
      const right = compileJexlAst(ast.right)
      if (right === undefined || ast.operator !== "!") return undefined
      return (scope) => !right(scope)
    }
    case "ConditionalExpression": {
      const test = compileJexlAst(ast.test)
      const consequent = ast.consequent === undefined ? undefined : compileJexlAst(ast.consequent)
      const alternate = ast.alternate === undefined ? undefined : compileJexlAst(ast.alternate)
      if (test === undefined || alternate === undefined) return undefined
      if (ast.consequent !== undefined && consequent === undefined) return undefined
      return (scope) => {
        const value = test(scope)
        if (value) return consequent === undefined ? value : consequent(scope)
        return alternate(scope)
      }
    }
    case "ArrayLiteral": {
      const items: Array<Closure> = []
      for (const item of ast.value) {
        const compiled = compileJexlAst(item)
        if (compiled === undefined) return undefined
        items.push(compiled)
      }
      return (scope) => items.map((item) => item(scope))
    }
    case "ObjectLiteral": {
      const entries: Array<[string, Closure]> = []
      for (const [key, item] of Object.entries(ast.value)) {
        const compiled = compileJexlAst(item)
        if (compiled === undefined) return undefined
        entries.push([key, compiled])
      }
      return (scope) => {
        const out: Record<string, unknown> = {}
        for (const [key, item] of entries) out[key] = item(scope)
        return out
      }
    }
    case "FunctionCall": {
      // the language registers the helpers as both its functions and its transforms
      const fn = hasOwn.call(expressionHelpers, ast.name) ? expressionHelpers[ast.name] : undefined
      if (fn === undefined) return undefined
      const args: Array<Closure> = []
      for (const arg of ast.args ?? []) {
        const compiled = compileJexlAst(arg)
        if (compiled === undefined) return undefined
        args.push(compiled)
      }
      if (args.length === 1) {
        const only = args[0]!
        return (scope) => fn(only(scope))
      }
      return (scope) => fn(...args.map((arg) => arg(scope)))
    }
  }
  return undefined
}

/** The object jexl's own evaluator reads: the root, with `$` naming it. */
const jexlContext = (scope: Scope): Record<string, unknown> => {
  const root = scope.root()
  const context: Record<string, unknown> = isRecord(root) ? Object.create(root) : {}
  context.$ = root
  return context
}

const jexlEvaluator = (compiled: CompiledJexl, options: EvaluatorOptions): Evaluator => {
  const fast = compileJexlAst(jexlAst(compiled.expression))
  const expression = compiled.expression
  return (scope) => {
    let value: unknown
    try {
      value = fast !== undefined ? fast(scope) : expression.evalSync(jexlContext(scope))
    } catch (error) {
      return fail(compiled, options, error)
    }
    return checkString(value, compiled, scope, options)
  }
}

/** `true` when the AST compiles to a closure (no fallback to jexl's evaluator); for tests. */
export const isFastJexl = (compiled: CompiledJexl): boolean =>
  compileJexlAst(jexlAst(compiled.expression)) !== undefined

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
