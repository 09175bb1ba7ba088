/*
 * Every bound a connector document is held to, in one place. A connector may be uploaded
 * by a customer, so its text is untrusted: each bound is checked before the work it
 * protects (size before parsing, nesting before composing, aliases while converting,
 * expression size and nesting before the JEXL/JSONPath parsers, whose cost grows with
 * length times nesting). The defaults leave several times the room the built-in
 * connectors use (largest expression about 1,100 characters, nesting 8, about 420
 * expressions and 17,000 expression characters in one connector).
 */

export interface ParseLimits {
  /** UTF-8 size of the text, checked before parsing. */
  readonly maxBytes: number
  /** Nesting of mappings and sequences (the top-level mapping is 1); at most `HARD_MAX_DEPTH`. */
  readonly maxDepth: number
  /** Entries in `actions` (and, separately, in `events.actions`). */
  readonly maxActions: number
  /** Entries in each action's `steps`. */
  readonly maxStepsPerAction: number
  /** yaml's alias expansion budget (`maxAliasCount`); stops "billion laughs" documents. */
  readonly maxAliasCount: number
  /** Values (scalars and collections) in the document after aliases are expanded. */
  readonly maxNodes: number
  /** Characters of keys and strings after aliases are expanded: what would be stored. */
  readonly maxExpandedChars: number
  /** Characters in one expression (JEXL, JSONPath or interpolation; plain literals are free). */
  readonly maxExpressionLength: number
  /** Nesting inside one expression: brackets, helper calls and `?:` (see `expressionNesting`). */
  readonly maxExpressionDepth: number
  /** Expressions in one connector: bounds the total compile work with `maxExpressionChars`. */
  readonly maxExpressions: number
  /** Characters of all expressions in one connector together. */
  readonly maxExpressionChars: number
}

/** The per-expression part of `ParseLimits`, checked by `compileExpression`. */
export type ExpressionLimits = Pick<ParseLimits, "maxExpressionLength" | "maxExpressionDepth">

export const defaultParseLimits: ParseLimits = {
  maxBytes: 512 * 1024,
  maxDepth: 64,
  maxActions: 500,
  maxStepsPerAction: 100,
  maxAliasCount: 100,
  maxNodes: 200_000,
  maxExpandedChars: 2 * 1024 * 1024,
  maxExpressionLength: 4096,
  maxExpressionDepth: 32,
  maxExpressions: 5000,
  maxExpressionChars: 64 * 1024
}

/**
 * Ceiling for `maxDepth`. yaml composes documents recursively; near the stack limit V8
 * can abort the whole process (seen as a fatal "RegExpCompiler Allocation failed"), so
 * nesting is checked on yaml's iterative CST parser first and never allowed near it.
 */
export const HARD_MAX_DEPTH = 256
