import { Either, Schema } from "effect"
import {
  type Alias,
  Composer,
  type CST,
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  Lexer,
  LineCounter,
  Parser,
  visit,
  type YAMLMap
} from "yaml"
import { canonicalJson, sha256Hex } from "./Canonical.js"
import {
  type ConnectorDefinition as ConnectorDefinitionType,
  ConnectorDefinition,
  duplicateIds
} from "./ConnectorDefinition.js"
import { type ConnectorIssue, ConnectorParseError, formatPath } from "./ConnectorParseError.js"
import { withoutVerification } from "./ConnectorVerification.js"
import { type CompiledExpressions, compileConnectorExpressions } from "./compileConnectorExpressions.js"
import { defaultParseLimits, HARD_MAX_DEPTH, type ParseLimits } from "./ParseLimits.js"
import { flattenParseIssue, type PathIssue } from "./schemaIssues.js"

export { defaultParseLimits, type ExpressionLimits, HARD_MAX_DEPTH, type ParseLimits } from "./ParseLimits.js"

export interface ParsedConnector {
  readonly definition: ConnectorDefinitionType
  /** `canonicalJson` of the document: same content, same text, whatever the YAML spelling. */
  readonly canonical: string
  /**
   * SHA-256 (hex) of `canonical` without `info.verification` (see `withoutVerification`): the
   * identity of what the connector does, which its verification metadata is not part of.
   */
  readonly contentHash: string
  /** Every expression-bearing string, compiled, keyed by its path (see `compileConnectorExpressions`). */
  readonly compiled: CompiledExpressions
}

// ---- positions --------------------------------------------------------------------

interface Position {
  readonly line: number
  readonly column: number
}

const positionAt = (text: string, offset: number): Position => {
  let line = 1
  let lineStart = 0
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++
      lineStart = i + 1
    }
  }
  return { line, column: offset - lineStart + 1 }
}

const linePosition = (lines: LineCounter, offset: number): Position => {
  const { line, col } = lines.linePos(offset)
  return { line, column: col }
}

/**
 * Finds the position of the YAML node at a path, or of the nearest existing parent. A
 * document may carry tens of thousands of issues, so map keys and aliases are indexed
 * on first use instead of searched per issue (which made refusing one document quadratic).
 */
const locator = (doc: Document.Parsed, lines: LineCounter) => {
  const keyIndexes = new WeakMap<YAMLMap, Map<string, unknown>>()
  const resolved = new WeakMap<Alias, unknown>()
  const child = (map: YAMLMap, key: string): unknown => {
    let index = keyIndexes.get(map)
    if (index === undefined) {
      index = new Map()
      for (const item of map.items) {
        const name = isScalar(item.key) ? String(item.key.value) : undefined
        if (name !== undefined && !index.has(name)) index.set(name, item.value ?? item.key)
      }
      keyIndexes.set(map, index)
    }
    return index.get(key)
  }
  const target = (alias: Alias): unknown => {
    if (!resolved.has(alias)) resolved.set(alias, alias.resolve(doc))
    return resolved.get(alias)
  }
  return (path: ReadonlyArray<PropertyKey>): Position | undefined => {
    let node: unknown = doc.contents
    let found: Position | undefined
    const mark = (candidate: unknown) => {
      const range = (candidate as { range?: readonly [number, number, number] } | null)?.range
      if (range !== undefined) found = linePosition(lines, range[0])
    }
    mark(node)
    for (const segment of path) {
      if (isAlias(node)) node = target(node)
      if (isMap(node)) {
        const next = child(node, String(segment))
        if (next === undefined) break
        node = next
      } else if (isSeq(node) && typeof segment === "number") {
        if (segment >= node.items.length) break
        node = node.items[segment]
      } else {
        break
      }
      mark(node)
    }
    return found
  }
}

// ---- bounds -----------------------------------------------------------------------

/**
 * Runs yaml's CST parser (iterative, so safe at any depth) and stops as soon as nesting
 * exceeds `maxDepth`. Its stack holds the document, one token per open collection and
 * one in-progress token, hence the 2. The tokens are composed afterwards; this is what
 * `parseDocument` does, with the depth check in between.
 */
const parseTokens = (
  text: string,
  lines: LineCounter,
  maxDepth: number
): { readonly tokens: Array<CST.Token> } | { readonly tooDeepAt: number } => {
  const parser = new Parser(lines.addNewLine)
  const tokens: Array<CST.Token> = []
  lines.addNewLine(0)
  for (const lexeme of new Lexer().lex(text)) {
    for (const token of parser.next(lexeme)) tokens.push(token)
    if (parser.stack.length - 2 > maxDepth) return { tooDeepAt: parser.offset }
  }
  for (const token of parser.end()) tokens.push(token)
  return { tokens }
}

/**
 * Keys repeated within one mapping, as yaml's `uniqueKeys` reports them, found with a set
 * per mapping (yaml compares each key with every earlier one). Keys compare as the strings
 * they become, so `1:` and `"1":` collide as they would in the loaded object.
 */
const duplicateKeys = (doc: Document.Parsed): Array<{ readonly pos: readonly [number, number]; readonly message: string }> => {
  const found: Array<{ readonly pos: readonly [number, number]; readonly message: string }> = []
  visit(doc, {
    Map(_, map) {
      const seen = new Set<string>()
      for (const { key } of map.items) {
        if (!isScalar(key)) continue
        const name = String(key.value)
        if (seen.has(name)) {
          const offset = key.range?.[0] ?? 0
          found.push({ pos: [offset, offset], message: "Map keys must be unique" })
        }
        seen.add(name)
      }
    }
  })
  return found
}

interface Walked {
  readonly value: unknown
  readonly depth: number
  readonly parent: Walked | undefined
  readonly key: PropertyKey | undefined
}

const pathOf = (entry: Walked): Array<PropertyKey> => {
  const path: Array<PropertyKey> = []
  for (let at: Walked | undefined = entry; at?.key !== undefined; at = at.parent) path.unshift(at.key)
  return path
}

/**
 * Depth and size of the converted value: aliases can deepen, widen or loop it, and a few
 * aliases of one long string multiply the text to store (50 of a 500 KB one: 25 MB).
 */
const checkShape = (value: unknown, limits: ParseLimits, maxDepth: number): PathIssue | undefined => {
  const pending: Array<Walked> = [{ value, depth: 0, parent: undefined, key: undefined }]
  let nodes = 0
  let chars = 0
  while (pending.length > 0) {
    const entry = pending.pop()!
    if (++nodes > limits.maxNodes) {
      return { path: [], message: `more than ${limits.maxNodes} values after expanding aliases` }
    }
    const current = entry.value
    chars += (typeof entry.key === "string" ? entry.key.length : 0) + (typeof current === "string" ? current.length : 0)
    if (chars > limits.maxExpandedChars) {
      return {
        path: pathOf(entry),
        message: `more than ${limits.maxExpandedChars} characters after expanding aliases (maxExpandedChars)`
      }
    }
    if (typeof current !== "object" || current === null) continue
    const depth = entry.depth + 1
    if (depth > maxDepth) {
      return { path: pathOf(entry), message: `nested deeper than ${maxDepth} levels (maxDepth)` }
    }
    const children = Array.isArray(current) ? current.entries() : Object.entries(current)
    for (const [key, child] of children) pending.push({ value: child, depth, parent: entry, key })
  }
  return undefined
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** `maxActions` / `maxStepsPerAction`, checked before the schema so huge lists are not decoded. */
const checkCounts = (document: unknown, limits: ParseLimits): Array<PathIssue> => {
  const issues: Array<PathIssue> = []
  if (!isRecord(document)) return issues
  const checkSteps = (action: unknown, path: Array<PropertyKey>) => {
    if (isRecord(action) && Array.isArray(action.steps) && action.steps.length > limits.maxStepsPerAction) {
      issues.push({
        path: [...path, "steps"],
        message: `${action.steps.length} steps; at most ${limits.maxStepsPerAction} allowed (maxStepsPerAction)`
      })
    }
  }
  const lists: Array<[unknown, Array<PropertyKey>]> = [[document.actions, ["actions"]]]
  if (isRecord(document.events)) lists.push([document.events.actions, ["events", "actions"]])
  for (const [actions, path] of lists) {
    if (!Array.isArray(actions)) continue
    if (actions.length > limits.maxActions) {
      issues.push({ path, message: `${actions.length} actions; at most ${limits.maxActions} allowed (maxActions)` })
      continue
    }
    actions.forEach((action, index) => checkSteps(action, [...path, index]))
  }
  // inline refresh actions (`authentication[i].<name>.refreshAuthentication.action`)
  if (Array.isArray(document.authentication)) {
    document.authentication.forEach((entry, index) => {
      if (!isRecord(entry)) return
      for (const [name, method] of Object.entries(entry)) {
        if (isRecord(method) && isRecord(method.refreshAuthentication)) {
          const path = ["authentication", index, name, "refreshAuthentication", "action"]
          checkSteps(method.refreshAuthentication.action, path)
        }
      }
    })
  }
  return issues
}

/** Duplicate ids straight from the raw document (the schema's filters skip invalid lists). */
const rawDuplicates = (document: unknown): Array<PathIssue> => {
  const issues: Array<PathIssue> = []
  if (!isRecord(document)) return issues
  const lists: Array<[unknown, Array<PropertyKey>]> = [[document.actions, ["actions"]]]
  if (isRecord(document.events)) lists.push([document.events.actions, ["events", "actions"]])
  for (const [actions, path] of lists) {
    if (!Array.isArray(actions)) continue
    for (const issue of duplicateIds(actions, "actionId")) issues.push({ ...issue, path: [...path, ...issue.path] })
    actions.forEach((action, index) => {
      if (!isRecord(action) || !Array.isArray(action.steps)) return
      for (const issue of duplicateIds(action.steps, "stepId")) {
        issues.push({ ...issue, path: [...path, index, "steps", ...issue.path] })
      }
    })
  }
  return issues
}

// ---- parse ------------------------------------------------------------------------

const decode = Schema.decodeUnknownEither(ConnectorDefinition)

const fail = (issues: ReadonlyArray<ConnectorIssue>) => Either.left(ConnectorParseError.fromIssues(issues))

const at = (path: string, message: string, position?: Position): ConnectorIssue =>
  position === undefined ? { path, message } : { path, message, line: position.line, column: position.column }

/**
 * Parses, validates and compiles one connector YAML document. A bad document never
 * throws: every problem found comes back in one `ConnectorParseError`.
 */
export const parseConnector = (
  text: string,
  limits?: Partial<ParseLimits>
): Either.Either<ParsedConnector, ConnectorParseError> => {
  const bounds: ParseLimits = { ...defaultParseLimits, ...limits }
  const maxDepth = Math.min(bounds.maxDepth, HARD_MAX_DEPTH)

  const bytes = Buffer.byteLength(text, "utf8")
  if (bytes > bounds.maxBytes) {
    return fail([at("", `document is ${bytes} bytes; at most ${bounds.maxBytes} allowed (maxBytes)`)])
  }

  const lines = new LineCounter()
  const parsed = parseTokens(text, lines, maxDepth)
  if ("tooDeepAt" in parsed) {
    return fail([at("", `nested deeper than ${maxDepth} levels (maxDepth)`, positionAt(text, parsed.tooDeepAt))])
  }
  // `<<` merge keys are common in hand-written YAML; keys must be strings (no `? [a, b]`);
  // unique keys are checked by `duplicateKeys`, not by yaml, whose check is quadratic
  const composer = new Composer({ prettyErrors: false, stringKeys: true, uniqueKeys: false, merge: true })
  const [doc, ...extra] = composer.compose(parsed.tokens, true, text.length)
  if (doc === undefined) return fail([at("", "YAML: no document")])
  // an unknown tag (`!include x`) would otherwise load silently as a plain string
  const unresolvedTags = doc.warnings.filter((warning) => warning.code === "TAG_RESOLVE_FAILED")
  const yamlErrors = [
    ...[...doc.errors, ...unresolvedTags, ...duplicateKeys(doc)]
      .sort((a, b) => a.pos[0] - b.pos[0])
      .map((error) => at("", `YAML: ${error.message}`, linePosition(lines, error.pos[0]))),
    ...extra.slice(0, 1).map((next) => at("", "YAML: more than one document", linePosition(lines, next.range[0])))
  ]
  if (yamlErrors.length > 0) return fail(yamlErrors)

  let document: unknown
  try {
    document = doc.toJS({ maxAliasCount: bounds.maxAliasCount })
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return fail([at("", `YAML aliases: ${reason} (maxAliasCount ${bounds.maxAliasCount})`)])
  }

  const locate = locator(doc, lines)
  return checkDocument(
    document,
    bounds,
    (issue) => at(formatPath(issue.path), issue.message, locate(issue.path))
  )
}

/**
 * Checks and compiles a connector document that is already a value: a stored version's
 * JSON, or what `parseConnector` read from YAML elsewhere (a worker thread). The checks
 * after the YAML stage all run (shape, counts, schema, expressions); issues have no line.
 */
export const parseConnectorValue = (
  document: unknown,
  limits?: Partial<ParseLimits>
): Either.Either<ParsedConnector, ConnectorParseError> =>
  checkDocument(document, { ...defaultParseLimits, ...limits }, (issue) => at(formatPath(issue.path), issue.message))

const checkDocument = (
  document: unknown,
  bounds: ParseLimits,
  located: (issue: PathIssue) => ConnectorIssue
): Either.Either<ParsedConnector, ConnectorParseError> => {
  const maxDepth = Math.min(bounds.maxDepth, HARD_MAX_DEPTH)
  const shape = checkShape(document, bounds, maxDepth)
  if (shape !== undefined) return fail([located(shape)])

  const counts = checkCounts(document, bounds)
  if (counts.length > 0) return fail(counts.map(located))

  const decoded = decode(document, { errors: "all", onExcessProperty: "preserve" })
  const expressions = compileConnectorExpressions(document, bounds)

  const problems: Array<PathIssue> = []
  if (Either.isLeft(decoded)) problems.push(...flattenParseIssue(decoded.left.issue), ...rawDuplicates(document))
  problems.push(...expressions.issues)

  if (problems.length > 0 || Either.isLeft(decoded)) {
    const seen = new Set<string>()
    const issues = problems.map(located).filter((issue) => {
      const key = `${issue.path}\u0000${issue.message}`
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
    // document order; issues without a position (none expected) go last
    issues.sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity) || (a.column ?? 0) - (b.column ?? 0))
    return fail(issues)
  }

  const canonical = canonicalJson(document)
  const hashed = withoutVerification(document)
  return Either.right({
    definition: decoded.right,
    canonical,
    contentHash: sha256Hex(hashed === document ? canonical : canonicalJson(hashed)),
    compiled: expressions.compiled
  })
}
