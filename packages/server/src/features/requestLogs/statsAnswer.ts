import {
  MAX_STATS_GROUPS,
  MAX_STATS_RANGE_DAYS,
  type RequestLogStats,
  type RequestLogStatsGroupBy,
  type RequestLogStatsInterval
} from "@switchyard/api"
import { Either } from "effect"
import type { StatsBucketRow, StatsGroupColumn, StatsGroupRow } from "./RequestLogsRepo.js"

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS
const widthOf = (interval: RequestLogStatsInterval) => (interval === "hour" ? HOUR_MS : DAY_MS)

/** The column each `group_by` reads. */
export const groupColumn: Readonly<Record<RequestLogStatsGroupBy, StatsGroupColumn>> = {
  provider: "provider",
  source_type: "kind",
  action: "action",
  account_id: "account_id"
}

/**
 * The range a stats request covers: its defaults filled in (the last 24 hours hourly, the last
 * 7 days daily), widened to whole buckets (UTC), and refused when empty or longer than the
 * interval allows.
 */
export const statsRange = (
  interval: RequestLogStatsInterval,
  start: Date | undefined,
  end: Date | undefined,
  now: number
): Either.Either<{ readonly start: Date; readonly end: Date }, string> => {
  const width = widthOf(interval)
  const endMs = end?.getTime() ?? now
  const startMs = start?.getTime() ?? endMs - (interval === "hour" ? DAY_MS : 7 * DAY_MS)
  if (startMs >= endMs) return Either.left("start_date must be before end_date")
  const from = Math.floor(startMs / width) * width
  const to = Math.ceil(endMs / width) * width
  const days = MAX_STATS_RANGE_DAYS[interval]
  if (to - from > days * DAY_MS) {
    return Either.left(
      `the range covers ${Math.ceil((to - from) / DAY_MS)} days; ${interval === "hour" ? "hourly" : "daily"} stats cover at most ${days}` +
        (interval === "hour" ? " (use interval=day, or a shorter range)" : "")
    )
  }
  return Either.right({ start: new Date(from), end: new Date(to) })
}

const rounded = (value: number | null) => (value === null ? null : Math.round(value))

/**
 * The answer from the two passes' rows: the busiest groups by name (ties by name), the rest
 * summed as `other` (its durations cannot be summed: null), and every bucket of the range with
 * its counts in the order of `groups`.
 */
export const statsAnswer = (options: {
  readonly interval: RequestLogStatsInterval
  readonly groupBy: RequestLogStatsGroupBy | undefined
  readonly start: Date
  readonly end: Date
  readonly groups: ReadonlyArray<StatsGroupRow>
  readonly buckets: ReadonlyArray<StatsBucketRow>
}): RequestLogStats => {
  const total = options.groups.find((row) => row.total)
  const named = options.groups.filter((row) => !row.total)
    .sort((a, b) => b.requests - a.requests || String(a.key).localeCompare(String(b.key)))
  const shown = options.groupBy === undefined ? [] : named.slice(0, MAX_STATS_GROUPS)
  const folded = named.slice(MAX_STATS_GROUPS)
  const shownKeys = new Map(shown.map((row, index) => [row.key, index]))
  const other = options.groupBy !== undefined && folded.length > 0
  const groups = [
    ...shown.map((row) => ({
      key: row.key,
      other: false,
      requests: row.requests,
      errors: row.errors,
      p50_duration: rounded(row.p50),
      p95_duration: rounded(row.p95)
    })),
    ...(other
      ? [{
        key: null,
        other: true,
        requests: folded.reduce((sum, row) => sum + row.requests, 0),
        errors: folded.reduce((sum, row) => sum + row.errors, 0),
        p50_duration: null,
        p95_duration: null
      }]
      : [])
  ]

  const width = widthOf(options.interval)
  const slots = (options.end.getTime() - options.start.getTime()) / width
  const buckets = Array.from({ length: slots }, (_, index) => ({
    start: new Date(options.start.getTime() + index * width).toISOString(),
    requests: 0,
    errors: 0,
    groups: groups.map((group) => ({ key: group.key, other: group.other, requests: 0, errors: 0 }))
  }))
  for (const row of options.buckets) {
    const bucket = buckets[Math.round((row.bucket_ms - options.start.getTime()) / width)]
    if (bucket === undefined) continue
    bucket.requests += row.requests
    bucket.errors += row.errors
    if (options.groupBy === undefined) continue
    const slot = bucket.groups[shownKeys.get(row.key) ?? shown.length]
    if (slot === undefined) continue
    slot.requests += row.requests
    slot.errors += row.errors
  }

  return {
    start_date: options.start.toISOString(),
    end_date: options.end.toISOString(),
    interval: options.interval,
    group_by: options.groupBy ?? null,
    totals: {
      requests: total?.requests ?? 0,
      errors: total?.errors ?? 0,
      p50_duration: rounded(total?.p50 ?? null),
      p95_duration: rounded(total?.p95 ?? null)
    },
    groups,
    buckets
  }
}
