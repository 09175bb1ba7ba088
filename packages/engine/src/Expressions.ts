import { Either } from "effect"
import { JSONPath } from "jsonpath-plus"
import { expressionHelpers } from "./ExpressionHelpers.js"
import { expressionLanguage, jexlAst, type JexlExpression } from "./ExpressionLanguage.js"
import { jsonPathSyntaxError } from "./JsonPathSyntax.js"
import { defaultParseLimits, type ExpressionLimits } from "./ParseLimits.js"

export { expressionHelpers, expressionLanguage, type JexlExpression }

/*
 * Connector values are told apart by shape (connector-format.md, "Expressions"):
 *   `{{ ... }}`      JEXL
 *   contains `${…}`  string interpolation of context paths
 *   starts with `$`  JSONPath
 *   anything else    literal
 * Everything is compiled when a connector is loaded, so a broken expression is a load
 * error with a path and line, and a runner evaluates the compiled form without parsing.
 * Nothing here evaluates anything.
 */

export interface CompiledLiteral {
  readonly kind: "literal"
  readonly source: string
}

export interface CompiledJsonPath {
  readonly kind: "jsonpath"
  readonly source: string
  /** jsonpath-plus path array (`["$", "inputs", "id"]`); evaluate `source` or this. */
  readonly path: ReadonlyArray<string>
}

export interface CompiledInterpolation {
  readonly kind: "interpolation"
  readonly source: string
  /** Literal text and the compiled path of each `${…}`, in order. */
  readonly parts: ReadonlyArray<string | CompiledJsonPath>
}

export interface CompiledJexl {
  readonly kind: "jexl"
  readonly source: string
  /** The text between `{{` and `}}`. */
  readonly body: string
  readonly expression: JexlExpression
  /** Helpers the expression calls (all known: unknown names fail compilation). */
  readonly calls: ReadonlyArray<string>
}

export type CompiledExpression = CompiledLiteral | CompiledJsonPath | CompiledInterpolation | CompiledJexl

export type ExpressionKind = CompiledExpression["kind"]

const JEXL_WRAPPED = /^\s*\{\{([\s\S]*)\}\}\s*$/

/** Which form `source` is, by shape alone. */
export const classifyExpression = (source: string): ExpressionKind =>
  JEXL_WRAPPED.test(source)
    ? "jexl"
    : source.includes("${")
    ? "interpolation"
    : source.startsWith("$")
    ? "jsonpath"
    : "literal"

const compileJsonPath = (source: string): Either.Either<CompiledJsonPath, string> => {
  const problem = jsonPathSyntaxError(source)
  if (problem !== undefined) return Either.left(`invalid JSONPath ${JSON.stringify(source)}: ${problem}`)
  // jsonpath-plus keeps every path it splits in a module-wide cache that is never pruned:
  // split on first use (when a stored connector runs), so a refused upload leaves nothing there
  let path: ReadonlyArray<string> | undefined
  return Either.right({
    kind: "jsonpath",
    source,
    get path() {
      return path ??= JSONPath.toPathArray(source)
    }
  })
}

/** Index of the `}` closing a `${` whose body starts at `start`, skipping quotes and brackets. */
const closingBrace = (source: string, start: number): number => {
  let depth = 0
  for (let i = start; i < source.length; i++) {
    const c = source[i]
    if (c === "'" || c === '"') {
      const end = source.indexOf(c, i + 1)
      if (end === -1) return -1
      i = end
    } else if (c === "[" || c === "(" || c === "{") depth++
    else if (c === "]" || c === ")") depth--
    else if (c === "}") {
      if (depth === 0) return i
      depth--
    }
  }
  return -1
}

const compileInterpolation = (source: string): Either.Either<CompiledInterpolation, string> => {
  const parts: Array<string | CompiledJsonPath> = []
  let text = ""
  let i = 0
  while (i < source.length) {
    const open = source.indexOf("${", i)
    if (open === -1) {
      text += source.slice(i)
      break
    }
    text += source.slice(i, open)
    const close = closingBrace(source, open + 2)
    if (close === -1) return Either.left(`unterminated \${ at character ${open + 1}`)
    const inner = source.slice(open + 2, close).trim()
    if (inner === "") return Either.left(`empty \${} at character ${open + 1}`)
    // `${inputs.id}` reads the context like `$.inputs.id`
    const path = inner.startsWith("$") ? inner : inner.startsWith("[") ? `$${inner}` : `$.${inner}`
    const compiled = compileJsonPath(path)
    if (Either.isLeft(compiled)) return Either.left(`in \${${inner}}: ${compiled.left}`)
    if (text !== "") parts.push(text)
    text = ""
    parts.push(compiled.right)
    i = close + 1
  }
  if (text !== "") parts.push(text)
  return Either.right({ kind: "interpolation", source, parts })
}

/** Brackets left open or closed twice; jexl accepts `(a` silently. */
const unbalanced = (body: string): string | undefined => {
  const stack: Array<string> = []
  const pairs: Record<string, string> = { ")": "(", "]": "[", "}": "{" }
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!
    if (c === "'" || c === '"') {
      let j = i + 1
      while (j < body.length && body[j] !== c) j += body[j] === "\\" ? 2 : 1
      if (j >= body.length) return `unterminated string at character ${i + 1}`
      i = j
    } else if (c === "(" || c === "[" || c === "{") stack.push(c)
    else if (c in pairs) {
      if (stack.pop() !== pairs[c]) return `unexpected "${c}" at character ${i + 1}`
    }
  }
  return stack.length > 0 ? `unclosed "${stack[stack.length - 1]}"` : undefined
}

/** Names of every function and transform called in a jexl AST. */
const callsIn = (ast: unknown): Array<string> => {
  const names = new Set<string>()
  const pending: Array<unknown> = [ast]
  while (pending.length > 0) {
    const node = pending.pop()
    if (Array.isArray(node)) pending.push(...node)
    else if (typeof node === "object" && node !== null) {
      const record = node as Record<string, unknown>
      if (record.type === "FunctionCall" && typeof record.name === "string") names.add(record.name)
      for (const value of Object.values(record)) if (typeof value === "object") pending.push(value)
    }
  }
  return [...names].sort()
}

const compileJexl = (source: string): Either.Either<CompiledJexl, string> => {
  const body = JEXL_WRAPPED.exec(source)![1]!
  if (body.trim() === "") return Either.left("empty {{ }} expression")
  const balance = unbalanced(body)
  if (balance !== undefined) return Either.left(`invalid JEXL ${JSON.stringify(body.trim())}: ${balance}`)
  try {
    const expression = expressionLanguage.compile(body)
    const calls = callsIn(jexlAst(expression))
    // a misspelt helper is the author's mistake: report it when the connector loads, not on a run
    const unknown = calls.filter((name) => !Object.hasOwn(expressionHelpers, name))
    if (unknown.length > 0) {
      return Either.left(
        `invalid JEXL ${JSON.stringify(body.trim())}: unknown helper ${unknown.map((name) => `"${name}"`).join(", ")}` +
          ` (helpers: ${Object.keys(expressionHelpers).join(", ")})`
      )
    }
    return Either.right({ kind: "jexl", source, body, expression, calls })
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return Either.left(`invalid JEXL ${JSON.stringify(body.trim())}: ${message}`)
  }
}

/**
 * How deeply the parsers will nest while reading `source`, found in one linear pass.
 * Each bracket (`(`, `[`, `{`: groups, helper calls, arrays, objects, filters) opens a
 * level, and so does each ternary `?` until the bracket around it closes: jexl parses
 * `a ? b : c ? d : ...` as nested sub-expressions, each re-reading the rest. Quoted text
 * is skipped. Returns the 0-based index where `maxDepth` is first exceeded, if it is.
 */
export const expressionNesting = (source: string, maxDepth: number): number | undefined => {
  const ternaries: Array<number> = [0]
  let depth = 0
  for (let i = 0; i < source.length; i++) {
    const c = source[i]
    if (c === "'" || c === '"') {
      let j = i + 1
      while (j < source.length && source[j] !== c) j += source[j] === "\\" ? 2 : 1
      i = j
    } else if (c === "(" || c === "[" || c === "{") {
      ternaries.push(0)
      if (++depth > maxDepth) return i
    } else if (c === ")" || c === "]" || c === "}") {
      if (ternaries.length > 1) depth -= 1 + ternaries.pop()!
    } else if (c === "?") {
      if (source[i + 1] === "?") i++
      else {
        ternaries[ternaries.length - 1]!++
        if (++depth > maxDepth) return i
      }
    }
  }
  return undefined
}

/** Why `source` is too large or too deep to hand to a parser, if it is. */
const overLimits = (source: string, kind: ExpressionKind, limits: ExpressionLimits): string | undefined => {
  if (source.length > limits.maxExpressionLength) {
    return `expression is ${source.length} characters; at most ${limits.maxExpressionLength} allowed (maxExpressionLength)`
  }
  // the `{{ }}` around JEXL is no nesting
  const text = kind === "jexl" ? JEXL_WRAPPED.exec(source)![1]! : source
  const deepAt = expressionNesting(text, limits.maxExpressionDepth)
  if (deepAt !== undefined) {
    return `expression nested deeper than ${limits.maxExpressionDepth} levels at character ${deepAt + 1} (maxExpressionDepth)`
  }
  return undefined
}

/**
 * Compiles one connector value; `Left` carries a short reason. Size and nesting are
 * checked first, in linear time: the parsers' cost grows with length times nesting.
 */
export const compileExpression = (
  source: string,
  limits: ExpressionLimits = defaultParseLimits
): Either.Either<CompiledExpression, string> => {
  const kind = classifyExpression(source)
  if (kind === "literal") return Either.right({ kind: "literal", source })
  const tooBig = overLimits(source, kind, limits)
  if (tooBig !== undefined) return Either.left(tooBig)
  switch (kind) {
    case "jexl":
      return compileJexl(source)
    case "interpolation":
      return compileInterpolation(source)
    case "jsonpath":
      return compileJsonPath(source)
  }
}
