/** One curl command of a README ```sh block, as a reader would paste it. */
export interface ReadmeExample {
  /** 1-based line of the README where the command starts. */
  readonly line: number
  /** The command with its `\` continuations joined. */
  readonly command: string
  /** The status the README says it answers (`# readme-test: expect <status> <reason>`), else any 2xx. */
  readonly expected: number | undefined
}

const fence = /^\s*```\s*(\S*)/
const marker = /^#\s*readme-test:\s*expect\s+(\d{3})\s+\S/
const invokesCurl = /(^|[\s;&|(`])curl\s/

/**
 * Every command in the README's `sh`/`bash`/`shell` blocks that runs curl, in document order.
 * A comment line `# readme-test: expect 409 <why>` right above a command says which status it
 * answers instead of a 2xx; the reason is required so that every exception explains itself.
 */
export const readmeCurlExamples = (markdown: string): ReadonlyArray<ReadmeExample> => {
  const lines = markdown.split("\n")
  const examples: Array<ReadmeExample> = []
  let inShell = false
  let inBlock = false
  let expected: number | undefined
  for (let index = 0; index < lines.length; index++) {
    const opened = fence.exec(lines[index]!)
    if (opened !== null) {
      if (inBlock) {
        inBlock = inShell = false
      } else {
        inBlock = true
        inShell = ["sh", "bash", "shell", "console"].includes(opened[1]!)
      }
      expected = undefined
      continue
    }
    if (!inShell) continue
    const start = index
    let command = lines[index]!
    while (command.endsWith("\\") && index + 1 < lines.length) command = `${command.slice(0, -1)} ${lines[++index]!.trim()}`
    const trimmed = command.trim()
    const marked = marker.exec(trimmed)
    if (marked !== null) {
      expected = Number(marked[1])
      continue
    }
    if (trimmed.startsWith("#") || trimmed === "") continue
    if (invokesCurl.test(trimmed)) examples.push({ line: start + 1, command: trimmed, expected })
    expected = undefined
  }
  return examples
}

/** The shell variables a command reads (`$NAME`, `${NAME}`), shell specials aside. */
export const variablesOf = (command: string): ReadonlyArray<string> =>
  [...new Set([...command.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]!))]

/** What the `curl` wrapper writes to stderr after each transfer: the answer's status. */
export const STATUS_PREFIX = "readme-test-status:"

/**
 * A bash script that runs `command` with `curl` standing for the real one plus `-sS` and a
 * status line on stderr per transfer, so pipes and `$(…)` around it keep working.
 */
export const instrumented = (command: string) =>
  [
    `curl() { command curl -sS --max-time 120 -w '%{stderr}\\n${STATUS_PREFIX}%{http_code}\\n' "$@"; }`,
    "set -o pipefail",
    command
  ].join("\n")

/** The statuses the wrapper reported on stderr, in order. */
export const statusesIn = (stderr: string): ReadonlyArray<number> =>
  stderr.split("\n").filter((line) => line.startsWith(STATUS_PREFIX)).map((line) => Number(line.slice(STATUS_PREFIX.length)))
