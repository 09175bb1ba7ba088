/*
 * `tsx bench/requestLogStats.ts` (needs DATABASE_URL: a PostgreSQL server on which it may create
 * and drop a database): what `GET /requests/logs/stats` costs on a log of a million rows.
 *
 * A fresh database is migrated by the server's own MigrationsLive, then given BENCH_LOG_ROWS rows
 * (default 1,000,000) over the last 30 days for one project (5 providers, 4 source types, 40
 * actions, 2,000 accounts, one run in 20 failed), plus as many for a second project that no
 * query may read. Each shape of the overview (24 hours hourly, 7 days hourly by provider, 30 days
 * daily by provider, 30 days daily by account) runs through the service's own queries
 * (RequestLogsRepo.stats: both passes) a few times; printed are the best and median times and
 * PostgreSQL's plan for the heavier pass.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { MigrationsLive } from "../src/platform/database/Sql.js"
import { RequestLogsRepo, type StatsQuery } from "../src/features/requestLogs/RequestLogsRepo.js"
import { createBenchDatabase, printableUrl } from "./postgres.js"
import { installCleanup } from "./processes.js"

const adminUrl = process.env["DATABASE_URL"]
if (adminUrl === undefined || adminUrl === "") {
  console.error("set DATABASE_URL to a PostgreSQL server on which the benchmark may create a database")
  process.exit(1)
}
const ROWS = Number(process.env["BENCH_LOG_ROWS"] ?? 1_000_000)
const RUNS = 5
const DAY = 86_400_000

const PROJECT = "00000000-0000-4000-8000-000000000001"
const OTHER = "00000000-0000-4000-8000-000000000002"

/** The log of one project: `rows` runs spread evenly over the 30 days before `now`. */
const seed = (sql: SqlClient.SqlClient, projectId: string, rows: number, now: Date) => sql`
  INSERT INTO request_logs (id, project_id, account_id, kind, action, status, duration_ms, provider, created_at)
  SELECT gen_random_uuid(), ${projectId}::uuid, 'acc-' || (n % 2000),
    (ARRAY['unified', 'rpc', 'mcp', 'connect'])[1 + n % 4],
    'action_' || (n % 40),
    CASE WHEN n % 20 = 0 THEN 502 ELSE 200 END,
    20 + ((n::bigint * 7919) % 900)::int,
    (ARRAY['greenhouse', 'lever', 'bamboohr', 'workday', 'talentlms'])[1 + n % 5],
    ${now.toISOString()}::timestamptz - (n::double precision / ${rows} * interval '30 days')
  FROM generate_series(1, ${rows}) AS n`

const shapes = (now: Date): ReadonlyArray<readonly [string, StatsQuery]> => {
  const base = { projectId: PROJECT, accountIds: [], providers: [], sourceTypes: [] }
  const hourEnd = new Date(Math.ceil(now.getTime() / 3_600_000) * 3_600_000)
  const dayEnd = new Date(Math.ceil(now.getTime() / DAY) * DAY)
  return [
    ["24 h hourly, ungrouped", { ...base, interval: "hour", start: new Date(hourEnd.getTime() - DAY), end: hourEnd, groupBy: undefined }],
    ["7 days hourly by provider", { ...base, interval: "hour", start: new Date(hourEnd.getTime() - 7 * DAY), end: hourEnd, groupBy: "provider" }],
    ["30 days daily by provider", { ...base, interval: "day", start: new Date(dayEnd.getTime() - 30 * DAY), end: dayEnd, groupBy: "provider" }],
    ["30 days daily by account", { ...base, interval: "day", start: new Date(dayEnd.getTime() - 30 * DAY), end: dayEnd, groupBy: "account_id" }]
  ]
}

const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const times: Array<number> = []
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now()
      yield* effect
      times.push(performance.now() - started)
    }
    times.sort((a, b) => a - b)
    return { best: times[0]!, median: times[Math.floor(times.length / 2)]! }
  })

/** The plan's scan of request_logs and PostgreSQL's own execution time, for the 30-day grouped pass. */
const planOf = (sql: SqlClient.SqlClient, query: StatsQuery) =>
  Effect.gen(function*() {
    const rows = yield* sql.unsafe<{ "QUERY PLAN": string }>(`
      EXPLAIN (ANALYZE, BUFFERS)
      SELECT provider AS key, count(*)::int, (count(*) FILTER (WHERE status >= 400))::int,
        percentile_disc(0.5) WITHIN GROUP (ORDER BY duration_ms), percentile_disc(0.95) WITHIN GROUP (ORDER BY duration_ms)
      FROM request_logs
      WHERE project_id = '${query.projectId}' AND created_at >= '${query.start.toISOString()}' AND created_at < '${query.end.toISOString()}'
      GROUP BY GROUPING SETS ((provider), ())`)
    const lines = rows.map((row) => row["QUERY PLAN"])
    const scan = lines.find((line) => /Scan/.test(line))?.trim().replace(/\s+\(cost=.*$/, "") ?? "?"
    const execution = lines.find((line) => line.startsWith("Execution Time"))?.trim() ?? "?"
    return `${scan}; ${execution}`
  })

const program = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), 'bench')`
  yield* sql`
    INSERT INTO projects (id, organization_id, name)
    SELECT id, (SELECT id FROM organizations LIMIT 1), 'bench ' || id FROM (VALUES (${PROJECT}::uuid), (${OTHER}::uuid)) AS p(id)`
  const now = new Date()
  const seeding = performance.now()
  yield* seed(sql, PROJECT, ROWS, now)
  yield* seed(sql, OTHER, ROWS, now)
  yield* sql`VACUUM ANALYZE request_logs`
  const [size] = yield* sql<{ table: string }>`SELECT pg_size_pretty(pg_table_size('request_logs')) AS table`
  console.log(`seeded ${(2 * ROWS).toLocaleString("en-US")} rows (${ROWS.toLocaleString("en-US")} per project, 30 days) in ` +
    `${((performance.now() - seeding) / 1000).toFixed(1)} s; table ${size!.table}`)

  const repo = yield* RequestLogsRepo
  const measure = (label: string) =>
    Effect.gen(function*() {
      console.log(`\n${label}`)
      for (const [name, query] of shapes(now)) {
        const result = yield* repo.stats(query)
        const counted = result.groups.find((row) => row.total)?.requests ?? 0
        const { best, median } = yield* timed(repo.stats(query))
        console.log(`  ${name.padEnd(28)} ${counted.toLocaleString("en-US").padStart(9)} rows  best ${best.toFixed(0).padStart(5)} ms  median ${median.toFixed(0).padStart(5)} ms`)
      }
      console.log(`  plan (30 days by provider, first pass): ${yield* planOf(sql, shapes(now)[2]![1])}`)
    })
  yield* measure("as migrated")
})

installCleanup()
const database = await createBenchDatabase(adminUrl)
console.log(`request log stats on PostgreSQL (${printableUrl(adminUrl)}), ${RUNS} runs per shape`)
try {
  await Effect.runPromise(program.pipe(
    Effect.provide(RequestLogsRepo.Default),
    Effect.provide(MigrationsLive.pipe(Layer.provideMerge(PgClient.layer({ url: Redacted.make(database.url) }))))
  ))
} finally {
  await database.drop()
}
