import { Data } from "effect"

/**
 * One problem in a connector document. `path` reads like
 * `actions[3].steps[0].stepFunction.parameters.url` ("" for the whole document);
 * `line`/`column` (1-based) point at the YAML node, or at the nearest existing
 * parent when the key is missing.
 */
export interface ConnectorIssue {
  readonly path: string
  readonly message: string
  readonly line?: number
  readonly column?: number
}

/** How many issues the error message spells out; `issues` always has all of them. */
export const MESSAGE_ISSUE_LIMIT = 20

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$-]*$/

/** `["actions", 3, "steps"]` → `actions[3].steps`; odd keys are quoted: `scopeDefinitions["a:b"]`. */
export const formatPath = (segments: ReadonlyArray<PropertyKey>): string => {
  let path = ""
  for (const segment of segments) {
    if (typeof segment === "number") path += `[${segment}]`
    else {
      const key = String(segment)
      path += IDENTIFIER.test(key) ? (path === "" ? key : `.${key}`) : `[${JSON.stringify(key)}]`
    }
  }
  return path
}

export const formatIssue = (issue: ConnectorIssue): string => {
  const where = issue.line === undefined ? "" : ` (line ${issue.line}, col ${issue.column ?? 1})`
  return `${issue.path === "" ? "" : `${issue.path}: `}${issue.message}${where}`
}

export const formatIssues = (issues: ReadonlyArray<ConnectorIssue>): string => {
  const shown = issues.slice(0, MESSAGE_ISSUE_LIMIT).map(formatIssue)
  const more = issues.length - shown.length
  return more > 0 ? `${shown.join("; ")}; ... and ${more} more` : shown.join("; ")
}

/** A connector document that cannot be loaded, with every problem found. */
export class ConnectorParseError extends Data.TaggedError("ConnectorParseError")<{
  readonly issues: ReadonlyArray<ConnectorIssue>
  readonly message: string
}> {
  static fromIssues(issues: ReadonlyArray<ConnectorIssue>): ConnectorParseError {
    return new ConnectorParseError({ issues, message: formatIssues(issues) })
  }
}
