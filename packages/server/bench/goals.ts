/*
 * The goals of issues 13 and 32, checked against one run's figures: each printed with the figures it was
 * decided on and "met" or "MISSED", so a reader can check the verdict without trusting it.
 */
import { formatMb } from "./rss.js"
import { baselineOf, effectAnchorOf, type Row } from "./table.js"

export interface ServerMemory {
  readonly database: "embedded" | "postgres"
  readonly idle: number | undefined
  /** RSS after a further minute without requests: once V8 has given back start-up garbage. */
  readonly idleLater: number | undefined
  readonly afterFirst: number | undefined
  readonly afterAll: number | undefined
  /** Unified list requests answered when `afterAll` was read. */
  readonly unifiedListRequests: number
}

export interface Goal {
  readonly text: string
  readonly figures: string
  /** undefined: could not be decided (e.g. no /proc to read RSS from). */
  readonly met: boolean | undefined
}

export const SOAK_GOAL_REQUESTS = 100_000

export const checkGoals = (rows: ReadonlyArray<Row>, memory: ReadonlyArray<ServerMemory>): ReadonlyArray<Goal> => {
  const goals: Array<Goal> = []
  const find = (path: string, database: string, clients: number) =>
    rows.find((row) => row.path === path && row.database === database && row.clients === clients)
  for (const { database, idle, afterFirst, afterAll, unifiedListRequests } of memory) {
    const list1 = find(UNIFIED_LIST, database, 1)
    const base1 = list1 && baselineOf(rows, list1)
    if (list1 && base1) {
      goals.push({
        text: `[${database}] 1 client: unified list p50 ≤ hand-written p50 + 2 ms`,
        figures: `${list1.result.p50} ms vs ${base1.result.p50} + 2 ms`,
        met: list1.result.p50 <= base1.result.p50 + 2
      })
      goals.push({
        text: `[${database}] 1 client: unified list p99 ≤ hand-written p99 + 5 ms`,
        figures: `${list1.result.p99} ms vs ${base1.result.p99} + 5 ms`,
        met: list1.result.p99 <= base1.result.p99 + 5
      })
    }
    for (const path of [UNIFIED_LIST, RPC_LIST]) {
      const row = find(path, database, 50)
      const base = row && baselineOf(rows, row)
      if (row && base) {
        const ratio = row.result.reqPerSec / base.result.reqPerSec
        goals.push({
          text: `[${database}] 50 clients: ${path === UNIFIED_LIST ? "unified list" : "RPC"} throughput ≥ 0.5× hand-written`,
          figures: `${row.result.reqPerSec.toFixed(0)} vs ${base.result.reqPerSec.toFixed(0)} req/s = ${ratio.toFixed(2)}×`,
          met: ratio >= 0.5
        })
      }
    }
    // issue 32: against the same proxy on Effect HttpApi, what Switchyard adds to its framework
    for (const [path, name, least] of [[UNIFIED_LIST, "unified list", 0.6], [UNIFIED_GET, "unified get", 0.5], [RPC_LIST, "RPC list", 0.6]] as const) {
      const row = find(path, database, 50)
      const anchor = row && effectAnchorOf(rows, row)
      if (row && anchor) {
        const ratio = row.result.reqPerSec / anchor.result.reqPerSec
        goals.push({
          text: `[${database}] 50 clients: ${name} throughput ≥ ${least}× the Effect proxy`,
          figures: `${row.result.reqPerSec.toFixed(0)} vs ${anchor.result.reqPerSec.toFixed(0)} req/s = ${ratio.toFixed(2)}×`,
          met: ratio >= least
        })
      }
    }
    const list50 = find(UNIFIED_LIST, database, 50)
    const anchor50 = list50 && effectAnchorOf(rows, list50)
    if (list50?.result.cpuMsPerRequest !== undefined && anchor50?.result.cpuMsPerRequest !== undefined) {
      goals.push({
        text: `[${database}] 50 clients: CPU per unified list request ≤ 2× the Effect proxy's`,
        figures: `${list50.result.cpuMsPerRequest.toFixed(2)} vs ${anchor50.result.cpuMsPerRequest.toFixed(2)} ms = ${(list50.result.cpuMsPerRequest / anchor50.result.cpuMsPerRequest).toFixed(2)}×`,
        met: list50.result.cpuMsPerRequest <= 2 * anchor50.result.cpuMsPerRequest
      })
    }
    const shortened = unifiedListRequests < SOAK_GOAL_REQUESTS ? ` (shortened run: the goal is stated for ${SOAK_GOAL_REQUESTS.toLocaleString("en-US")})` : ""
    goals.push({
      text: `[${database}] RSS after ${unifiedListRequests.toLocaleString("en-US")} unified list requests within 50 MB of RSS after the first 1,000`,
      figures: `${formatMb(afterAll)} vs ${formatMb(afterFirst)}` +
        (afterAll !== undefined && afterFirst !== undefined ? ` (${afterAll >= afterFirst ? "+" : "−"}${Math.abs(afterAll - afterFirst).toFixed(0)} MB)` : "") + shortened,
      met: afterAll === undefined || afterFirst === undefined ? undefined : Math.abs(afterAll - afterFirst) <= 50
    })
    const limit = database === "embedded" ? 300 : 150
    goals.push({
      text: `[${database}] idle RSS right after start ≤ ${limit} MB`,
      figures: formatMb(idle),
      met: idle === undefined ? undefined : idle <= limit
    })
  }
  return goals
}

export const formatGoals = (goals: ReadonlyArray<Goal>): string => {
  const width = Math.max(...goals.map((goal) => goal.text.length))
  return goals
    .map((goal) => `${goal.met === undefined ? "n/a   " : goal.met ? "met   " : "MISSED"}  ${goal.text.padEnd(width)}  ${goal.figures}`)
    .join("\n")
}

export const UNIFIED_LIST = "unified GET /unified/ats/applications?page_size=100"
export const UNIFIED_GET = "unified GET /unified/ats/applications/:id"
export const EFFECT_LIST = "Effect proxy GET /applications?page_size=100"
export const EFFECT_GET = "Effect proxy GET /applications/:id"
export const RPC_LIST = "RPC POST /actions/rpc ats_list_applications"
