import { JSONPathClass } from "jsonpath-plus"

/*
 * jsonpath-plus parses paths with regular expressions and never reports a syntax error:
 * `toPathArray("$.[")` and evaluating `$..[?(` against `{}` both succeed. To reject broken
 * paths when a connector is loaded, this module walks the path grammar jsonpath-plus
 * accepts (dot names, `..`, brackets with names, indexes, slices, unions, `*`, filters
 * `?(...)` and scripts `(...)`, the `^` and `~` operators and `@type()` selectors).
 * Filter and script bodies are parsed (never run) with jsonpath-plus's own safe-eval
 * parser, the one it uses when it evaluates them with `eval: "safe"`. That parser has no
 * public export, only `JSONPathClass.prototype.safeVm.Script`: `checkSafeScriptHook`
 * stops start-up if an upgrade removes it or it stops telling good filters from bad,
 * rather than letting filter validation switch itself off.
 */

type ScriptParser = new (code: string) => unknown

/** Throws unless `prototype.safeVm.Script` parses a known good filter and refuses a broken one. */
export const checkSafeScriptHook = (prototype: unknown): ScriptParser => {
  const Script = (prototype as { safeVm?: { Script?: unknown } } | undefined)?.safeVm?.Script
  const parses = (code: string) => {
    try {
      new (Script as ScriptParser)(code)
      return true
    } catch {
      return false
    }
  }
  const problem = typeof Script !== "function"
    ? "JSONPathClass.prototype.safeVm.Script is missing"
    : !parses("_$_v.a == 1 && _$_v.b")
    ? "its safe-eval parser refuses a valid filter"
    : parses("_$_v.a ==")
    ? "its safe-eval parser accepts a broken filter"
    : undefined
  if (problem !== undefined) {
    throw new Error(
      `The installed jsonpath-plus cannot validate JSONPath filters (${problem}); pin jsonpath-plus to 11.3.0 or update JsonPathSyntax.ts`
    )
  }
  return Script as ScriptParser
}

const SafeScript = checkSafeScriptHook(JSONPathClass.prototype)

class PathSyntaxError extends Error {}

const fail = (message: string, at: number): never => {
  throw new PathSyntaxError(`${message} at character ${at + 1}`)
}

const isSpace = (c: string | undefined) => c === " " || c === "\t" || c === "\n" || c === "\r"

/** Index just after the quoted string starting at `start` (a `'` or `"`). */
const skipQuoted = (src: string, start: number): number => {
  const quote = src[start]
  for (let i = start + 1; i < src.length; i++) {
    if (src[i] === "\\") i++
    else if (src[i] === quote) return i + 1
  }
  return fail("unterminated string", start)
}

/** Index of the `)` matching the `(` at `open`, skipping quoted strings. */
const matchParen = (src: string, open: number): number => {
  let depth = 0
  for (let i = open; i < src.length; i++) {
    const c = src[i]
    if (c === "'" || c === '"') i = skipQuoted(src, i) - 1
    else if (c === "(") depth++
    else if (c === ")" && --depth === 0) return i
  }
  return fail("unclosed (", open)
}

/** Parses a filter/script body; `@`, `@parent`, ... become identifiers as jsonpath-plus does. */
const checkScript = (code: string, at: number) => {
  if (code.trim() === "") fail("empty expression", at)
  const script = code.replace(/@(parentProperty|parent|property|root|path)?/g, (_, name) => `_$_${name ?? "v"}`)
  try {
    new SafeScript(script)
  } catch (error) {
    fail(`invalid filter expression (${error instanceof Error ? error.message : String(error)})`, at)
  }
}

/** Parses `[...]` starting at `open`; returns the index after `]`. */
const parseBracket = (src: string, open: number): number => {
  let i = open + 1
  while (isSpace(src[i])) i++
  if (i >= src.length) return fail("unclosed [", open)
  if (src[i] === "?" || src[i] === "(") {
    const paren = src[i] === "?" ? i + 1 : i
    if (src[paren] !== "(") return fail(`expected ( after ?`, paren)
    const close = matchParen(src, paren)
    checkScript(src.slice(paren + 1, close), paren + 1)
    i = close + 1
  } else if (src[i] === "'" || src[i] === '"') {
    for (;;) {
      i = skipQuoted(src, i)
      while (isSpace(src[i])) i++
      if (src[i] !== ",") break
      i++
      while (isSpace(src[i])) i++
      if (src[i] !== "'" && src[i] !== '"') return fail("expected a quoted name after ,", i)
    }
  } else {
    const start = i
    while (i < src.length && src[i] !== "]") {
      if (src[i] === "[" || src[i] === "'" || src[i] === '"' || src[i] === "(" || src[i] === ")") {
        return fail(`unexpected "${src[i]}"`, i)
      }
      i++
    }
    const body = src.slice(start, i).trim()
    if (body === "") return fail("empty []", open)
    if (body.split(",").some((part) => part.trim() === "")) return fail("empty member in []", start)
  }
  while (isSpace(src[i])) i++
  if (i >= src.length) return fail("unclosed [", open)
  if (src[i] !== "]") return fail(`expected ] but found "${src[i]}"`, i)
  return i + 1
}

const TYPE_SELECTOR = /^@[a-zA-Z]+\(\)/

/** Parses a member name (or `*`, or an `@type()` selector) at `start`; returns the index after it. */
const parseName = (src: string, start: number): number => {
  const selector = TYPE_SELECTOR.exec(src.slice(start))
  if (selector !== null) return start + selector[0].length
  let i = start
  while (i < src.length && !".[]'\"()".includes(src[i]!) && !isSpace(src[i])) i++
  if (i === start) {
    return i >= src.length ? fail("expected a name", start) : fail(`unexpected "${src[i]}"`, start)
  }
  return i
}

/** `undefined` when `src` is a JSONPath jsonpath-plus reads as intended, else why not. */
export const jsonPathSyntaxError = (src: string): string | undefined => {
  try {
    if (src[0] !== "$") fail("a JSONPath starts with $", 0)
    let i = 1
    while (i < src.length) {
      const c = src[i]!
      if (c === ".") {
        const descendant = src[i + 1] === "."
        i += descendant ? 2 : 1
        if (i >= src.length) fail(`expected a name after ${descendant ? ".." : "."}`, i - 1)
        i = src[i] === "[" ? parseBracket(src, i) : parseName(src, i)
      } else if (c === "[") {
        i = parseBracket(src, i)
      } else if (c === "^" || c === "~") {
        i++
      } else {
        fail(`unexpected "${c}"`, i)
      }
    }
    return undefined
  } catch (error) {
    if (error instanceof PathSyntaxError) return error.message
    throw error
  }
}
