import { type CompiledExpression } from "../Expressions.js"
import { type Scope, ExpressionError } from "./ExpressionScope.js"

/* A compiled expression as a closure over a scope, and the failures every evaluator shares. */

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

export const fail = (compiled: CompiledExpression, options: EvaluatorOptions, error: unknown): never => {
  if (error instanceof ExpressionError) throw error
  const reason = error instanceof Error ? error.message : String(error)
  throw new ExpressionError(compiled.source, `failed: ${reason}`, false, options.path)
}

export const checkString = (value: unknown, compiled: CompiledExpression, scope: Scope, options: EvaluatorOptions) => {
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
