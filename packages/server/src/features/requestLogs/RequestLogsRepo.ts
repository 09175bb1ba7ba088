import { SqlClient, type Statement } from "@effect/sql"
import type { RequestLogOrderBy, RequestLogOrderDirection, RequestLogSourceType } from "@switchyard/api"
import { Effect, Option, Schema } from "effect"
import { isUuid } from "../../platform/database/isUuid.js"

const StoredProviderCall = Schema.Struct({
  method: Schema.String,
  url: Schema.String,
  status: Schema.NullOr(Schema.Number),
  durationMs: Schema.Number,
  requestBody: Schema.optional(Schema.NullOr(Schema.String)),
  responseBody: Schema.optional(Schema.NullOr(Schema.String))
})

export const RequestLogRow = Schema.Struct({
  id: Schema.String,
  account_id: Schema.String,
  provider: Schema.NullOr(Schema.String),
  kind: Schema.Literal("rpc", "unified", "mcp", "connect"),
  action: Schema.String,
  status: Schema.Number,
  duration_ms: Schema.Number,
  http_method: Schema.NullOr(Schema.String),
  path: Schema.NullOr(Schema.String),
  url: Schema.NullOr(Schema.String),
  error: Schema.NullOr(Schema.String),
  created_at: Schema.DateFromSelf,
  /** created_at as PostgreSQL prints it, to the microsecond (a Date keeps milliseconds): the keyset's time. */
  created_at_exact: Schema.String
})
export type RequestLogRow = typeof RequestLogRow.Type

export const RequestLogDetailRow = Schema.Struct({
  ...RequestLogRow.fields,
  provider_calls: Schema.Array(StoredProviderCall)
})
export type RequestLogDetailRow = typeof RequestLogDetailRow.Type

export interface RequestLogFilters {
  readonly accountIds: ReadonlyArray<string>
  readonly providers: ReadonlyArray<string>
  readonly actions: ReadonlyArray<string>
  readonly requestIds: ReadonlyArray<string>
  readonly httpMethods: ReadonlyArray<string>
  readonly sourceTypes: ReadonlyArray<RequestLogSourceType>
  readonly statusCodes: ReadonlyArray<number>
  readonly success: boolean | undefined
  readonly startDate: Date | undefined
  readonly endDate: Date | undefined
}

/** Where the previous page ended: the last row's sort value (exact time text, or duration) and id. */
export interface RequestLogKeyset {
  readonly value: string | number
  readonly id: string
}

export interface RequestLogQuery {
  readonly projectId: string
  readonly filters: RequestLogFilters
  readonly orderBy: RequestLogOrderBy
  readonly direction: RequestLogOrderDirection
  readonly after: Option.Option<RequestLogKeyset>
  readonly limit: number
}

/** The column a stats query groups by. */
export type StatsGroupColumn = "provider" | "kind" | "action" | "account_id"

export interface StatsQuery {
  readonly projectId: string
  readonly start: Date
  readonly end: Date
  readonly interval: "hour" | "day"
  readonly groupBy: StatsGroupColumn | undefined
  readonly accountIds: ReadonlyArray<string>
  readonly providers: ReadonlyArray<string>
  readonly sourceTypes: ReadonlyArray<RequestLogSourceType>
}

const StatsGroupRow = Schema.Struct({
  key: Schema.NullOr(Schema.String),
  total: Schema.Boolean,
  requests: Schema.Number,
  errors: Schema.Number,
  p50: Schema.NullOr(Schema.Number),
  p95: Schema.NullOr(Schema.Number)
})
export type StatsGroupRow = typeof StatsGroupRow.Type

const StatsBucketRow = Schema.Struct({
  bucket_ms: Schema.Number,
  key: Schema.NullOr(Schema.String),
  requests: Schema.Number,
  errors: Schema.Number
})
export type StatsBucketRow = typeof StatsBucketRow.Type

const decodeStatsGroups = Schema.decodeUnknown(Schema.Array(StatsGroupRow))
const decodeStatsBuckets = Schema.decodeUnknown(Schema.Array(StatsBucketRow))

/** Whether `id` can be a stored entry's id (anything else cannot be found, and must not reach a uuid cast). */
export const isRequestLogId = isUuid

const decodeRows = Schema.decodeUnknown(Schema.Array(RequestLogRow))
const decodeDetail = Schema.decodeUnknown(RequestLogDetailRow)

/** The request_logs table as the request log API reads it: always within one project. */
export class RequestLogsRepo extends Effect.Service<RequestLogsRepo>()("Switchyard/RequestLogsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const columns = sql`
      id::text AS id, account_id, provider, kind, action, status, duration_ms, http_method, path, url, error, created_at,
      created_at::text AS created_at_exact`

    const where = (projectId: string, filters: RequestLogFilters) => {
      const clauses: Array<Statement.Fragment> = [sql`project_id = ${projectId}`]
      if (filters.accountIds.length > 0) clauses.push(sql.in("account_id", filters.accountIds))
      if (filters.providers.length > 0) clauses.push(sql.in("provider", filters.providers))
      if (filters.actions.length > 0) clauses.push(sql.in("action", filters.actions))
      if (filters.requestIds.length > 0) {
        clauses.push(sql`id::text IN ${sql.in(filters.requestIds.map((id) => id.toLowerCase()))}`)
      }
      if (filters.httpMethods.length > 0) {
        clauses.push(sql`http_method IN ${sql.in(filters.httpMethods.map((method) => method.toUpperCase()))}`)
      }
      if (filters.sourceTypes.length > 0) clauses.push(sql.in("kind", filters.sourceTypes))
      if (filters.statusCodes.length > 0) clauses.push(sql.in("status", filters.statusCodes))
      // success is what the caller was answered: any status below 400
      if (filters.success === true) clauses.push(sql`status < 400`)
      if (filters.success === false) clauses.push(sql`status >= 400`)
      if (filters.startDate !== undefined) clauses.push(sql`created_at >= ${filters.startDate.toISOString()}::timestamptz`)
      if (filters.endDate !== undefined) clauses.push(sql`created_at < ${filters.endDate.toISOString()}::timestamptz`)
      return clauses
    }

    /** One page in the asked order, by keyset (id breaks ties), so paging stays cheap on a large log. */
    const list = (query: RequestLogQuery) => {
      const clauses = where(query.projectId, query.filters)
      const column = query.orderBy === "duration" ? sql`duration_ms` : sql`created_at`
      const direction = sql.literal(query.direction === "asc" ? "ASC" : "DESC")
      if (Option.isSome(query.after)) {
        const { id, value } = query.after.value
        const beyond = sql.literal(query.direction === "asc" ? ">" : "<")
        const sortValue = query.orderBy === "duration" ? sql`${value}::int` : sql`${value}::timestamptz`
        clauses.push(sql`(${column}, id) ${beyond} (${sortValue}, ${id}::uuid)`)
      }
      return sql`
        SELECT ${columns} FROM request_logs WHERE ${sql.and(clauses)}
        ORDER BY ${column} ${direction}, id ${direction}
        LIMIT ${query.limit}`.pipe(Effect.flatMap(decodeRows), Effect.orDie)
    }

    const find = (projectId: string, id: string) =>
      isRequestLogId(id)
        ? sql`SELECT ${columns}, provider_calls FROM request_logs WHERE project_id = ${projectId} AND id = ${id}::uuid`.pipe(
          Effect.flatMap((rows) =>
            rows.length === 0 ? Effect.succeed(Option.none()) : Effect.map(decodeDetail(rows[0]), Option.some)
          ),
          Effect.orDie
        )
        : Effect.succeed(Option.none<RequestLogDetailRow>())

    /**
     * A range's counts and durations in two passes over the project's rows in range (found by
     * the (project_id, created_at) index): per group with the range's total (GROUPING SETS), and
     * per bucket and group. bench/requestLogStats.ts measures them on a million rows.
     */
    const stats = (query: StatsQuery) =>
      Effect.gen(function*() {
        const clauses = where(query.projectId, {
          accountIds: query.accountIds,
          providers: query.providers,
          actions: [],
          requestIds: [],
          httpMethods: [],
          sourceTypes: query.sourceTypes,
          statusCodes: [],
          success: undefined,
          startDate: query.start,
          endDate: query.end
        })
        const key = query.groupBy === undefined ? sql`NULL::text` : sql`${sql(query.groupBy)}::text`
        const measures = sql`
          count(*)::int AS requests, (count(*) FILTER (WHERE status >= 400))::int AS errors,
          percentile_disc(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50,
          percentile_disc(0.95) WITHIN GROUP (ORDER BY duration_ms) AS p95`
        const groups = yield* (query.groupBy === undefined
          ? sql`SELECT NULL::text AS key, true AS total, ${measures} FROM request_logs WHERE ${sql.and(clauses)}`
          : sql`
            SELECT ${key} AS key, GROUPING(${sql(query.groupBy)}) = 1 AS total, ${measures}
            FROM request_logs WHERE ${sql.and(clauses)}
            GROUP BY GROUPING SETS ((${sql(query.groupBy)}), ())`).pipe(Effect.flatMap(decodeStatsGroups))
        const buckets = yield* sql`
          SELECT (extract(epoch FROM date_trunc(${query.interval}, created_at, 'UTC')) * 1000)::float8 AS bucket_ms,
            ${key} AS key, count(*)::int AS requests, (count(*) FILTER (WHERE status >= 400))::int AS errors
          FROM request_logs WHERE ${sql.and(clauses)}
          GROUP BY 1, 2`.pipe(Effect.flatMap(decodeStatsBuckets))
        return { groups, buckets }
      }).pipe(Effect.orDie)

    return { list, find, stats } as const
  })
}) {}
