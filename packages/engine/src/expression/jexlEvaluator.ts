import type { CompiledJexl } from "../Expressions.js"
import { binaryOperator, jexlAst, type JexlAst } from "../ExpressionLanguage.js"
import { expressionHelpers } from "../ExpressionHelpers.js"
import type { Scope } from "./ExpressionScope.js"
import { type Evaluator, type EvaluatorOptions, checkString, fail } from "./Evaluator.js"

/*
 * JEXL expressions whose AST is made of the usual nodes become closures with jexl's own
 * semantics; anything else runs through jexl's `evalSync`. Neither can call anything but the
 * registered helpers.
 */

const hasOwn = Object.prototype.hasOwnProperty

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

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

export const jexlEvaluator = (compiled: CompiledJexl, options: EvaluatorOptions): Evaluator => {
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
