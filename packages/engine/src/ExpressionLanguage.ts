import jexl from "jexl"
import { expressionHelpers } from "./ExpressionHelpers.js"

/*
 * The JEXL instance connectors are compiled and evaluated with, configured through jexl's
 * public API only (addFunctions, addTransforms, addBinaryOp, compile). The binary
 * operators are registered from our own table, so the evaluator's closures and jexl's own
 * evaluator run the same functions. Reading a compiled AST has no public API: `jexlAst`
 * uses `Expression._getAst`, and `checkJexlAstHook` stops start-up if an upgrade removes
 * it or changes the shape the engine reads.
 */

export const expressionLanguage = new jexl.Jexl()

export type JexlExpression = ReturnType<typeof expressionLanguage.compile>

export type JexlAst = ReturnType<JexlExpression["_getAst"]>

export type BinaryOperator = (left: any, right: any) => unknown

/** jexl 2.3's default eager binary operators, with its precedences and results. */
const binaryOperators: Readonly<Record<string, { readonly precedence: number; readonly eval: BinaryOperator }>> = {
  "+": { precedence: 30, eval: (left, right) => left + right },
  "-": { precedence: 30, eval: (left, right) => left - right },
  "*": { precedence: 40, eval: (left, right) => left * right },
  "/": { precedence: 40, eval: (left, right) => left / right },
  "//": { precedence: 40, eval: (left, right) => Math.floor(left / right) },
  "%": { precedence: 50, eval: (left, right) => left % right },
  "^": { precedence: 50, eval: (left, right) => Math.pow(left, right) },
  "==": { precedence: 20, eval: (left, right) => left == right },
  "!=": { precedence: 20, eval: (left, right) => left != right },
  ">": { precedence: 20, eval: (left, right) => left > right },
  ">=": { precedence: 20, eval: (left, right) => left >= right },
  "<": { precedence: 20, eval: (left, right) => left < right },
  "<=": { precedence: 20, eval: (left, right) => left <= right },
  in: {
    precedence: 20,
    eval: (left, right) =>
      typeof right === "string" ? right.indexOf(left) !== -1 : Array.isArray(right) ? right.some((item) => item === left) : false
  }
}

/** The function of an eager binary operator; the lazy `&&`, `||`, `??` and unary `!` are not here. */
export const binaryOperator = (operator: string): BinaryOperator | undefined =>
  Object.hasOwn(binaryOperators, operator) ? binaryOperators[operator]!.eval : undefined

for (const [operator, { eval: fn, precedence }] of Object.entries(binaryOperators)) {
  expressionLanguage.addBinaryOp(operator, precedence, fn)
}

expressionLanguage.addFunctions(expressionHelpers)
expressionLanguage.addTransforms(expressionHelpers)

interface LazyOperand {
  readonly eval: () => PromiseLike<unknown>
}

// StackOne expressions use `a ?? b`; jexl has no such operator. Same precedence as `||`,
// and lazy (evaluated on demand) like it. The typings omit jexl's documented 4th
// `manualEval` argument.
;(expressionLanguage.addBinaryOp as (
  operator: string,
  precedence: number,
  fn: (left: LazyOperand, right: LazyOperand) => PromiseLike<unknown>,
  manualEval: boolean
) => void).call(
  expressionLanguage,
  "??",
  10,
  (left, right) => left.eval().then((value) => (value === undefined || value === null ? right.eval() : value)),
  true
)

/** The AST of a compiled expression (the hook `checkJexlAstHook` vouches for). */
export const jexlAst = (expression: JexlExpression): JexlAst => expression._getAst()

/** One expression with every node type the engine reads, and the parts of its AST it relies on. */
const PROBE = `!a.b ? [x|lower, string(1)] : {k: c[.d == "e"]}`
const PROBE_AST = {
  type: "ConditionalExpression",
  test: { type: "UnaryExpression", operator: "!", right: { type: "Identifier", value: "b", from: { type: "Identifier", value: "a" } } },
  consequent: {
    type: "ArrayLiteral",
    value: [
      { type: "FunctionCall", name: "lower", pool: "transforms", args: [{ type: "Identifier", value: "x" }] },
      { type: "FunctionCall", name: "string", pool: "functions", args: [{ type: "Literal", value: 1 }] }
    ]
  },
  alternate: {
    type: "ObjectLiteral",
    value: {
      k: {
        type: "FilterExpression",
        relative: true,
        subject: { type: "Identifier", value: "c" },
        expr: {
          type: "BinaryExpression",
          operator: "==",
          left: { type: "Identifier", value: "d", relative: true },
          right: { type: "Literal", value: "e" }
        }
      }
    }
  }
}

/** Every member of `expected` is in `actual` with the same shape (extra members allowed). */
const hasShape = (actual: unknown, expected: unknown): boolean => {
  if (typeof expected !== "object" || expected === null) return Object.is(actual, expected)
  if (typeof actual !== "object" || actual === null || Array.isArray(actual) !== Array.isArray(expected)) return false
  if (Array.isArray(expected) && (actual as Array<unknown>).length !== expected.length) return false
  return Object.entries(expected).every(([key, value]) => hasShape((actual as Record<string, unknown>)[key], value))
}

/** Throws unless `language` compiles to ASTs readable through `_getAst` in the shape the engine reads. */
export const checkJexlAstHook = (language: { compile(source: string): unknown }): void => {
  const expression = language.compile(PROBE) as { _getAst?: unknown }
  const problem = typeof expression._getAst !== "function"
    ? "Expression._getAst is missing"
    : hasShape(expression._getAst(), PROBE_AST)
    ? undefined
    : `Expression._getAst no longer returns the AST the engine reads for ${PROBE}`
  if (problem !== undefined) {
    throw new Error(`The installed jexl cannot be used by the engine (${problem}); pin jexl to 2.3.0 or update ExpressionLanguage.ts`)
  }
}

checkJexlAstHook(expressionLanguage)
