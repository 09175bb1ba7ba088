import { HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { MAX_STATS_GROUPS, type RequestLogStats } from "@switchyard/api"
import { DateTime, Effect } from "effect"
import * as Crypto from "node:crypto"
import { freshProject, keyFor, otherProject } from "./support/Fixtures.js"
import { TestServer } from "./support/TestServer.js"
import { expectErrorBody, send, withKey } from "./support/Wire.js"

/*
 * `GET /requests/logs/stats`: counts per bucket and group, durations per group, every bucket
 * of the range (empty ones as zeros), one project's rows only, and bounded ranges. The log
 * rows are written straight into the table, at the times and with the outcomes each case needs.
 */

interface LogRow {
  readonly at: string
  readonly provider?: string | null
  readonly kind?: string
  readonly action?: string
  readonly status?: number
  readonly duration: number
}

const insertRows = (projectId: string, rows: ReadonlyArray<LogRow>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    for (const row of rows) {
      yield* sql`
        INSERT INTO request_logs (id, project_id, account_id, kind, action, status, duration_ms, provider, created_at)
        VALUES (${Crypto.randomUUID()}, ${projectId}, 'acc-1', ${row.kind ?? "unified"}, ${row.action ?? "ats_list_jobs"},
                ${row.status ?? 200}, ${row.duration}, ${row.provider === undefined ? "greenhouse" : row.provider},
                ${row.at}::timestamptz)`
    }
  }).pipe(Effect.orDie)

const stats = (key: string, query: string) =>
  Effect.map(send(HttpClientRequest.get(`/requests/logs/stats?${query}`).pipe(withKey(key))), (response) => {
    expect(response.status, response.text).toBe(200)
    return response.json as RequestLogStats
  })

layer(TestServer(), { excludeTestServices: true })("request log stats", (it) => {
  it.effect("hourly by provider: every bucket of the range, counts per group, durations per group and in all", () =>
    Effect.gen(function*() {
      const { client, key, projectId } = yield* freshProject
      yield* insertRows(projectId, [
        { at: "2026-11-20T10:05:00Z", provider: "greenhouse", duration: 10 },
        { at: "2026-11-20T10:20:00Z", provider: "greenhouse", duration: 20, status: 502 },
        { at: "2026-11-20T10:59:59.999Z", provider: "greenhouse", duration: 30 },
        { at: "2026-11-20T11:00:00Z", provider: "lever", duration: 50, status: 404 },
        { at: "2026-11-20T11:30:00Z", provider: "lever", duration: 60 },
        { at: "2026-11-20T12:10:00Z", provider: "greenhouse", duration: 40 },
        // outside the range once it is widened to whole hours (10:00 to 13:00)
        { at: "2026-11-20T09:59:59Z", provider: "greenhouse", duration: 999 },
        { at: "2026-11-20T13:00:00Z", provider: "lever", duration: 999 }
      ])
      // another project's rows in the same hours are not counted
      const other = yield* otherProject
      yield* insertRows(other.project.id, [{ at: "2026-11-20T10:30:00Z", duration: 5 }])

      // through the derived client, as a TypeScript service asks
      const answer = yield* client.request_logs.get_request_log_stats({
        urlParams: {
          start_date: DateTime.unsafeMake("2026-11-20T10:15:00Z"),
          end_date: DateTime.unsafeMake("2026-11-20T12:30:00Z"),
          group_by: "provider"
        }
      })
      expect(answer).toMatchObject({
        start_date: "2026-11-20T10:00:00.000Z",
        end_date: "2026-11-20T13:00:00.000Z",
        interval: "hour",
        group_by: "provider",
        // durations 10, 20, 30, 40, 50, 60: the median and 95th percentile are values seen
        totals: { requests: 6, errors: 2, p50_duration: 30, p95_duration: 60 }
      })
      expect(answer.groups).toEqual([
        { key: "greenhouse", other: false, requests: 4, errors: 1, p50_duration: 20, p95_duration: 40 },
        { key: "lever", other: false, requests: 2, errors: 1, p50_duration: 50, p95_duration: 60 }
      ])
      const counts = (requests: number, errors: number) => ({ requests, errors })
      expect(answer.buckets.map(({ groups, start, ...totals }) => ({ start, ...totals, groups: groups.map((g) => [g.key, g.requests, g.errors]) })))
        .toEqual([
          { start: "2026-11-20T10:00:00.000Z", ...counts(3, 1), groups: [["greenhouse", 3, 1], ["lever", 0, 0]] },
          { start: "2026-11-20T11:00:00.000Z", ...counts(2, 1), groups: [["greenhouse", 0, 0], ["lever", 2, 1]] },
          { start: "2026-11-20T12:00:00.000Z", ...counts(1, 0), groups: [["greenhouse", 1, 0], ["lever", 0, 0]] }
        ])

      // a filter narrows every figure
      const lever = yield* stats(key, "start_date=2026-11-20T10:00:00Z&end_date=2026-11-20T13:00:00Z&providers=lever")
      expect(lever.totals).toEqual({ requests: 2, errors: 1, p50_duration: 50, p95_duration: 60 })
      expect(lever.groups).toEqual([])
      expect(lever.buckets.map((bucket) => bucket.requests)).toEqual([0, 2, 0])
    }))

  it.effect(`beyond the busiest ${MAX_STATS_GROUPS} groups, the rest are summed as one group marked other`, () =>
    Effect.gen(function*() {
      const { key, projectId } = yield* freshProject
      // action_00 is the busiest (13 runs) … action_11 the quietest (2 runs)
      const rows = Array.from({ length: 12 }, (_, n) =>
        Array.from({ length: 13 - n }, (_, i) => ({
          at: `2026-11-21T08:${String(i).padStart(2, "0")}:00Z`,
          action: `action_${String(n).padStart(2, "0")}`,
          duration: 100 + n,
          status: n === 11 && i === 0 ? 500 : 200
        }))).flat()
      yield* insertRows(projectId, rows)
      const answer = yield* stats(key, "start_date=2026-11-21T08:00:00Z&end_date=2026-11-21T09:00:00Z&group_by=action")
      expect(answer.groups).toHaveLength(MAX_STATS_GROUPS + 1)
      expect(answer.groups.slice(0, MAX_STATS_GROUPS).map((group) => group.key)).toEqual(
        Array.from({ length: MAX_STATS_GROUPS }, (_, n) => `action_${String(n).padStart(2, "0")}`)
      )
      expect(answer.groups[MAX_STATS_GROUPS]).toEqual({ key: null, other: true, requests: 3 + 2, errors: 1, p50_duration: null, p95_duration: null })
      expect(answer.totals.requests).toBe(rows.length)
      expect(answer.buckets).toHaveLength(1)
      expect(answer.buckets[0]!.groups.map((group) => group.requests)).toEqual([13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 5])
    }))

  it.effect("daily and ungrouped: empty days are zeros; no group lists", () =>
    Effect.gen(function*() {
      const { key, projectId } = yield* freshProject
      yield* insertRows(projectId, [
        { at: "2026-11-01T23:59:00Z", duration: 7 },
        { at: "2026-11-03T00:00:00Z", duration: 9, status: 429 }
      ])
      const answer = yield* stats(key, "interval=day&start_date=2026-11-01T12:00:00Z&end_date=2026-11-04")
      expect(answer).toMatchObject({ start_date: "2026-11-01T00:00:00.000Z", end_date: "2026-11-04T00:00:00.000Z", group_by: null, groups: [] })
      expect(answer.buckets).toEqual([
        { start: "2026-11-01T00:00:00.000Z", requests: 1, errors: 0, groups: [] },
        { start: "2026-11-02T00:00:00.000Z", requests: 0, errors: 0, groups: [] },
        { start: "2026-11-03T00:00:00.000Z", requests: 1, errors: 1, groups: [] }
      ])
      expect(answer.totals).toEqual({ requests: 2, errors: 1, p50_duration: 7, p95_duration: 9 })
      // a range with nothing in it: zeros and no durations
      const empty = yield* stats(key, "interval=day&start_date=2026-10-01&end_date=2026-10-03")
      expect(empty.totals).toEqual({ requests: 0, errors: 0, p50_duration: null, p95_duration: null })
      expect(empty.buckets.map((bucket) => bucket.requests)).toEqual([0, 0])
    }))

  it.effect("by default the last 24 hours, hourly, ending with the hour now is in", () =>
    Effect.gen(function*() {
      const { key } = yield* freshProject
      const before = Date.now()
      const answer = yield* stats(key, "")
      const after = Date.now()
      const start = Date.parse(answer.start_date)
      const end = Date.parse(answer.end_date)
      expect(answer.interval).toBe("hour")
      expect(end).toBeGreaterThanOrEqual(before)
      expect(end - after).toBeLessThanOrEqual(3_600_000)
      expect(start).toBeLessThanOrEqual(before - 24 * 3_600_000)
      expect(answer.buckets.length).toBe((end - start) / 3_600_000)
      expect([24, 25]).toContain(answer.buckets.length)
    }))

  it.effect("ranges and values the rules refuse are a 400 that says why; Read Only keys may read, Actions keys may not", () =>
    Effect.gen(function*() {
      const { key, projectId } = yield* freshProject
      const refusals: ReadonlyArray<readonly [string, string]> = [
        ["interval=week", 'interval: Expected "hour" or "day", actual "week"'],
        ["group_by=status", 'group_by: Expected "provider", "source_type", "action" or "account_id", actual "status"'],
        ["start_date=yesterday", "start_date must be an ISO 8601 date or date-time"],
        ["start_date=2026-11-02&end_date=2026-11-01", "start_date must be before end_date"],
        ["start_date=2026-11-01&end_date=2026-11-09", "hourly stats cover at most 7 (use interval=day"],
        ["interval=day&start_date=2026-01-01&end_date=2026-06-01", "daily stats cover at most 90"],
        ["source_types=rpc,cron", 'source_types.1: Expected "rpc", "unified", "mcp" or "connect", actual "cron"']
      ]
      for (const [query, message] of refusals) {
        const refused = expectErrorBody(yield* send(HttpClientRequest.get(`/requests/logs/stats?${query}`).pipe(withKey(key))), 400)
        expect(refused.message, query).toContain(message)
      }
      const readOnly = yield* keyFor(projectId, "read_only")
      yield* stats(readOnly.key, "interval=day")
      const actions = yield* keyFor(projectId, "actions")
      expectErrorBody(yield* send(HttpClientRequest.get("/requests/logs/stats").pipe(withKey(actions.key))), 403)
    }))
})
