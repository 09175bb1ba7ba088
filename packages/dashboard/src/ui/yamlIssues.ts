/** One problem the server found in an uploaded connector document. */
export interface YamlIssue {
  /** `actions[0].steps[0].stepFunction.parameters.url: is missing`, or a YAML syntax error. */
  readonly text: string
  /** 1-based, where the server located it; absent for problems of the whole document (its size). */
  readonly line?: number
  readonly column?: number
}

export interface YamlIssues {
  readonly issues: ReadonlyArray<YamlIssue>
  /** "… and 12 more": the server spells out the first 20 problems only. */
  readonly more?: string
}

const PREFIX = "Invalid connector YAML: "
/** Each issue ends with where it is, `(line 12, col 5)`, then `; ` or the end of the message. */
const POSITION = / \(line (\d+), col (\d+)\)(?=; |$)/g

/**
 * The problems of a refused upload (422), read from the error's message: the API answers them
 * as one sentence, `path: message (line L, col C); …`, the engine's `formatIssues`, and carries
 * no structured list. Undefined when the message is not that (another refusal: a version
 * conflict, a size limit the parser does not reach), so the caller shows it as it is.
 */
export const parseYamlIssues = (message: string): YamlIssues | undefined => {
  if (!message.startsWith(PREFIX)) return undefined
  const body = message.slice(PREFIX.length)
  const issues: Array<YamlIssue> = []
  let from = 0
  for (const match of body.matchAll(POSITION)) {
    issues.push({ text: body.slice(from, match.index), line: Number(match[1]), column: Number(match[2]) })
    from = match.index + match[0].length + 2
  }
  // what follows the last positioned issue: unpositioned ones (sorted last), or the count left out
  const rest = body.slice(from).trim()
  const more = /^(?:(.*); )?(\.\.\. and \d+ more)$/.exec(rest)
  const unpositioned = more === null ? rest : more[1] ?? ""
  if (unpositioned.length > 0) issues.push({ text: unpositioned })
  return more === null ? { issues } : { issues, more: more[2]!.replace("...", "…") }
}

/** The lines around `line` (1-based) to show beside an issue, `context` either side. */
export const excerpt = (yaml: string, line: number, context = 2) => {
  const lines = yaml.split(/\r?\n/)
  const first = Math.max(1, line - context)
  const last = Math.min(lines.length, line + context)
  return lines.slice(first - 1, last).map((text, index) => ({ number: first + index, text }))
}

/** The character offsets of a line (1-based) in `text`, to select it in a text area. */
export const lineRange = (text: string, line: number): { start: number; end: number } => {
  let start = 0
  for (let current = 1; current < line; current++) {
    const next = text.indexOf("\n", start)
    if (next === -1) return { start: text.length, end: text.length }
    start = next + 1
  }
  const end = text.indexOf("\n", start)
  return { start, end: end === -1 ? text.length : end }
}
