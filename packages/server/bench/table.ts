/*
 * The results table: every measured row beside the hand-written proxy's row of the same kind
 * (list or get) and client count, since "how much slower than what I would write myself" is the
 * question the benchmark answers; and beside the same proxy on Effect HttpApi, which splits that
 * answer into what the framework costs and what Switchyard adds on top of it.
 */
import type { LoadResult } from "./autocannon.js"

export type Database = "embedded" | "postgres" | "—"

export interface Row {
  readonly path: string
  /** Rows of one kind are compared with the hand-written row of that kind. */
  readonly kind: "list" | "get"
  /** The Switchyard run (embedded or postgres) the row was measured in; rows compare within a run. */
  readonly run: "embedded" | "postgres"
  readonly database: Database
  readonly clients: number
  readonly handWritten: boolean
  /** The same proxy on Effect HttpApi (effectProxy.ts): the framework's own cost, the anchor Switchyard is compared with too. */
  readonly effectProxy?: boolean
  readonly result: LoadResult
}

export const baselineOf = (rows: ReadonlyArray<Row>, row: Pick<Row, "run" | "kind" | "clients">): Row | undefined =>
  rows.find((candidate) => candidate.handWritten && candidate.run === row.run && candidate.kind === row.kind && candidate.clients === row.clients)

/** The Effect proxy's row a row is compared with: same run, kind and client count. */
export const effectAnchorOf = (rows: ReadonlyArray<Row>, row: Pick<Row, "run" | "kind" | "clients">): Row | undefined =>
  rows.find((candidate) => candidate.effectProxy === true && candidate.run === row.run && candidate.kind === row.kind && candidate.clients === row.clients)

const signed = (n: number) => `${n >= 0 ? "+" : "−"}${Math.abs(n).toFixed(0)}`

/** Plain text, columns aligned: text left, numbers right. */
export const formatTable = (header: ReadonlyArray<string>, body: ReadonlyArray<ReadonlyArray<string>>, leftColumns: number): string => {
  const widths = header.map((title, i) => Math.max(title.length, ...body.map((line) => line[i]?.length ?? 0)))
  // An empty line separates groups.
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((cell, i) => (i < leftColumns ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ").trimEnd()
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n")
}

export const resultsTable = (rows: ReadonlyArray<Row>): string => {
  const runs = [...new Set(rows.map((row) => row.run))]
  const rank = (row: Row) => runs.indexOf(row.run) * 4 + (row.kind === "list" ? 0 : 2) + (row.clients === 1 ? 0 : 1)
  // Stable sort: within a run, kind and client count, rows keep the order they were measured in.
  const ordered = [...rows].sort((a, b) => rank(a) - rank(b))
  const body: Array<ReadonlyArray<string>> = []
  ordered.forEach((row, i) => {
    if (i > 0 && ordered[i - 1]!.run !== row.run) body.push([])
    const base = baselineOf(rows, row)
    const compared = base !== undefined && !row.handWritten
    const anchor = effectAnchorOf(rows, row)
    body.push([
      row.path,
      row.database,
      String(row.clients),
      row.result.reqPerSec.toFixed(0),
      row.result.p50.toFixed(0),
      row.result.p99.toFixed(0),
      row.result.cpuMsPerRequest === undefined ? "—" : row.result.cpuMsPerRequest.toFixed(2),
      row.handWritten ? "(baseline)" : compared ? `${(row.result.reqPerSec / base.result.reqPerSec).toFixed(2)}×` : "—",
      row.effectProxy === true
        ? "(anchor)"
        : anchor !== undefined && !row.handWritten ? `${(row.result.reqPerSec / anchor.result.reqPerSec).toFixed(2)}×` : "—",
      compared ? signed(row.result.p50 - base.result.p50) : "—",
      compared ? signed(row.result.p99 - base.result.p99) : "—"
    ])
  })
  return formatTable(
    ["path", "database", "clients", "req/s", "p50 ms", "p99 ms", "CPU ms/req", "req/s ÷ hand-written", "req/s ÷ Effect proxy", "p50 − hand-written (ms)", "p99 − hand-written (ms)"],
    body,
    2
  )
}
