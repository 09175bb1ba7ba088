import { type ActionCheck, actionPassed, type ContractReport, neverExercised, notExercised, reportPassed } from "./ContractCheck.js"
import type { MockExchange } from "./ProviderMock.js"

/*
 * A contract check as text, one line per action and seed (requests valid, answer mapped,
 * unified fields left unmapped), each problem on an indented line below it: what
 * `switchyard connectors check` prints and what a failing test shows.
 */

const MAX_UNMAPPED_SHOWN = 12

const describeRequests = (requests: ReadonlyArray<MockExchange>) => {
  const invalid = requests.filter((request) => request.violations.length > 0).length
  return requests.length === 0
    ? "no provider request"
    : `requests valid ${requests.length - invalid}/${requests.length}`
}

const problems = (requests: ReadonlyArray<MockExchange>) =>
  requests.flatMap((request) =>
    request.violations.map((violation) =>
      `    ${request.method} ${request.path}${request.operation !== undefined && request.operation !== request.path ? ` (${request.operation})` : ""} → ${request.status}: ${violation.location}: ${violation.message}`
    )
  )

const describeAnswer = (check: ActionCheck) => {
  if (notExercised(check)) {
    return check.status === 404
      ? `answered 404 for an id no list gave (the list was empty)`
      : `answered ${check.status} for an id no list gave (the list was empty), which the document refuses`
  }
  if (check.status < 200 || check.status >= 300) return `answered ${check.status}`
  const against = check.checkedAgainst.length === 0 ? "no unified schema known" : check.checkedAgainst.join(" and ")
  const fits = check.answerIssues.length === 0 ? `answer mapped (${against})` : `answer does not fit ${against}`
  return check.via === "rpc" && check.records === 0 && check.answerIssues.length === 0 && check.unmapped.length === 0
    ? `${fits}, 0 records`
    : `${fits}${check.records > 0 ? `, ${check.records} record${check.records === 1 ? "" : "s"}` : ""}`
}

const describeUnmapped = (check: ActionCheck) =>
  check.unmapped.length === 0
    ? ""
    : ` · unified fields unmapped ${check.unmapped.length}: ${check.unmapped.slice(0, MAX_UNMAPPED_SHOWN).join(", ")}${
      check.unmapped.length > MAX_UNMAPPED_SHOWN ? ", …" : ""
    }`

export const formatContractReport = (report: ContractReport): string => {
  const lines: Array<string> = [`${report.connector}: ${reportPassed(report) ? "passed" : "FAILED"}`]
  if (report.base.problem !== undefined) lines.push(`  ✗ base URL: ${report.base.problem}`)
  else if (report.base.server !== undefined) lines.push(`  ✓ base URL on the document's server ${report.base.server}`)
  for (const { base, name } of report.servers) {
    if (base.problem !== undefined) lines.push(`  ✗ server ${name}: ${base.problem}`)
    else if (base.server !== undefined) lines.push(`  ✓ server ${name} on the document's server ${base.server}`)
  }
  for (const seed of report.seeds) {
    const linkProblems = problems(seed.link.requests)
    const linked = seed.link.status < 300 && linkProblems.length === 0
    lines.push(
      `  ${linked ? "✓" : "✗"} seed ${seed.seed} (${seed.profile}): link an account (${seed.link.status}${
        seed.link.error === undefined ? "" : `: ${seed.link.error}`
      }), ${describeRequests(seed.link.requests)}`
    )
    lines.push(...linkProblems)
    for (const check of seed.actions) {
      lines.push(
        `  ${actionPassed(check) ? "✓" : "✗"} seed ${seed.seed} (${seed.profile}): ${check.actionId} (${check.via}): ${describeRequests(check.requests)} · ${
          describeAnswer(check)
        }${describeUnmapped(check)}`
      )
      lines.push(...problems(check.requests))
      if (check.error !== undefined) lines.push(`    ${check.error}`)
      lines.push(...check.answerIssues.map((issue) => `    ${issue}`))
    }
  }
  for (const actionId of neverExercised(report)) lines.push(`  ✗ ${actionId}: answered 2xx in no pass, so its answer was never checked`)
  return lines.join("\n")
}
