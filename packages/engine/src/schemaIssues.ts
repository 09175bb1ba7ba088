import { Option, type ParseResult, SchemaAST as AST } from "effect"

/*
 * Effect's formatters say "Expected string, actual 1" or "is missing" and list one entry
 * per union member. Connector authors get one short line per problem instead:
 * `required`, `expected string`, `expected one of list, get, ...`.
 */

/** A problem at a path of raw segments (before formatting and location lookup). */
export interface PathIssue {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

const describeMembers = (members: ReadonlyArray<AST.AST>): string => {
  const flat: Array<AST.AST> = []
  const pending = [...members]
  while (pending.length > 0) {
    const member = pending.shift()!
    if (AST.isUnion(member)) pending.unshift(...member.types)
    else flat.push(member)
  }
  // `null` and `undefined` only appear because optional keys accept an empty YAML value
  const meaningful = flat.filter((member) =>
    !(AST.isLiteral(member) && member.literal === null) && !AST.isUndefinedKeyword(member)
  )
  const shown = meaningful.length > 0 ? meaningful : flat
  if (shown.every(AST.isLiteral)) {
    const values = shown.map((member) => String((member as AST.Literal).literal))
    return values.length === 1 ? JSON.stringify(values[0]) : `one of ${values.join(", ")}`
  }
  return [...new Set(shown.map(describe))].join(" or ")
}

/** What a value must look like to pass `ast`, in a word or two. */
export const describe = (ast: AST.AST): string => {
  switch (ast._tag) {
    case "StringKeyword":
    case "TemplateLiteral":
      return "string"
    case "NumberKeyword":
      return "number"
    case "BooleanKeyword":
      return "boolean"
    case "Literal":
      return JSON.stringify(ast.literal)
    case "Union":
      return describeMembers(ast.types)
    case "TypeLiteral":
      return "object"
    case "TupleType":
      return "array"
    case "Refinement":
      return describe(ast.from)
    case "Transformation":
      return describe(ast.from)
    case "Suspend":
      return describe(ast.f())
    case "UnknownKeyword":
    case "AnyKeyword":
      return "a value"
    default:
      return "a valid value"
  }
}

/** The message a refinement was annotated with (`Schema.pattern(re, {message})`), if any. */
const annotatedMessage = (issue: ParseResult.ParseIssue, ast: AST.AST): string | undefined =>
  Option.match(AST.getMessageAnnotation(ast), {
    onNone: () => undefined,
    onSome: (annotation) => {
      const out = annotation(issue)
      if (typeof out === "string") return out
      if (typeof out === "object" && out !== null && "message" in out && typeof out.message === "string") {
        return out.message
      }
      return undefined
    }
  })

const leafMessage = (issue: ParseResult.Type): string =>
  issue.message ??
    (AST.isRefinement(issue.ast) ? annotatedMessage(issue, issue.ast) : undefined) ??
    `expected ${describe(issue.ast)}`

/** Every leaf problem under `issue`, one short message each. */
export const flattenParseIssue = (root: ParseResult.ParseIssue): Array<PathIssue> => {
  const out: Array<PathIssue> = []
  const walk = (issue: ParseResult.ParseIssue, path: ReadonlyArray<PropertyKey>, into: Array<PathIssue>): void => {
    switch (issue._tag) {
      case "Pointer": {
        const more = Array.isArray(issue.path) ? issue.path : [issue.path as PropertyKey]
        walk(issue.issue, [...path, ...more], into)
        return
      }
      case "Composite": {
        const children: Array<PathIssue> = []
        const issues = Array.isArray(issue.issues) ? issue.issues : [issue.issues as ParseResult.ParseIssue]
        for (const child of issues) walk(child, path, children)
        if (AST.isUnion(issue.ast)) {
          // A member that got further (a deeper path) explains the failure best; if none
          // did, the value matched no member at all: say what the union accepts.
          const deeper = children.filter((child) => child.path.length > path.length)
          if (deeper.length > 0) into.push(...deeper)
          else into.push({ path, message: `expected ${describe(issue.ast)}` })
        } else {
          into.push(...children)
        }
        return
      }
      case "Refinement":
      case "Transformation":
        walk(issue.issue, path, into)
        return
      case "Type":
        into.push({ path, message: leafMessage(issue) })
        return
      case "Missing":
        into.push({ path, message: "required" })
        return
      case "Unexpected":
        into.push({ path, message: issue.message ?? "unexpected key" })
        return
      case "Forbidden":
        into.push({ path, message: issue.message ?? "not allowed here" })
        return
    }
  }
  walk(root, [], out)
  return out
}
