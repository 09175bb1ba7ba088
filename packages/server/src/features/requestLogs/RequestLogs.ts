import {
  DEFAULT_PAGE_SIZE,
  type ListRequestLogsParams,
  type RequestLogDetail,
  type RequestLogOrderBy,
  type RequestLogOrderDirection,
  type RequestLogRecord,
  type RequestLogsPage,
  type RequestLogStatsParams
} from "@switchyard/api"
import { DateTime, Effect, Either, Option } from "effect"
import { RequestLogCursor } from "./RequestLogCursor.js"
import { InvalidRequestLogStats, RequestLogNotFound } from "./RequestLogErrors.js"
import { type RequestLogDetailRow, type RequestLogKeyset, type RequestLogRow, RequestLogsRepo } from "./RequestLogsRepo.js"
import { groupColumn, statsAnswer, statsRange } from "./statsAnswer.js"

type ListFilterName = "account_ids" | "providers" | "actions" | "request_ids" | "http_methods" | "source_types" | "status_codes"

/** A list filter as given plainly and as `filter[<name>]` (StackOne's form): either matches. */
const listOf = <K extends ListFilterName>(params: ListRequestLogsParams, name: K) =>
  [...(params[name] ?? []), ...(params[`filter[${name}]`] ?? [])] as ReadonlyArray<NonNullable<ListRequestLogsParams[K]>[number]>

const dateOf = (date: DateTime.Utc | undefined) => date === undefined ? undefined : DateTime.toDateUtc(date)

const toRecord = (row: RequestLogRow): RequestLogRecord => {
  const start = row.created_at.toISOString()
  return {
    request_id: row.id,
    event_datetime: start,
    start_time: start,
    end_time: new Date(row.created_at.getTime() + row.duration_ms).toISOString(),
    account_id: row.account_id,
    provider: row.provider,
    action: row.action,
    source_type: row.kind,
    http_method: row.http_method,
    path: row.path,
    url: row.url,
    status: row.status,
    duration: row.duration_ms,
    success: row.status < 400,
    error_message: row.error
  }
}

const toDetail = (row: RequestLogDetailRow): RequestLogDetail => ({
  ...toRecord(row),
  step_requests: row.provider_calls.map((call) => ({
    http_method: call.method,
    url: call.url,
    status: call.status,
    duration: call.durationMs,
    success: call.status !== null && call.status < 400,
    request_body: call.requestBody ?? null,
    response_body: call.responseBody ?? null
  }))
})

/** The request log API: a project's logged action runs, filtered and paged by keyset (`RequestLogCursor`). */
export class RequestLogs extends Effect.Service<RequestLogs>()("Switchyard/RequestLogs", {
  effect: Effect.gen(function*() {
    const repo = yield* RequestLogsRepo
    const cursor = yield* RequestLogCursor

    const list = (projectId: string, params: ListRequestLogsParams) =>
      Effect.gen(function*() {
        // eventDatetime is StackOne's spelling of the same order (and continues its cursors)
        const orderBy: RequestLogOrderBy = params.order_by === "duration" ? "duration" : "event_datetime"
        const direction: RequestLogOrderDirection = params.order_direction ?? "desc"
        const order = `${orderBy}.${direction}`
        const pageSize = params.page_size ?? DEFAULT_PAGE_SIZE
        const after = params.next === undefined || params.next.length === 0
          ? Option.none<RequestLogKeyset>()
          : Option.some(yield* cursor.decode(params.next, projectId, order))
        // one row more than asked tells whether another page follows
        const rows = yield* repo.list({
          projectId,
          filters: {
            accountIds: listOf(params, "account_ids"),
            providers: listOf(params, "providers"),
            actions: listOf(params, "actions"),
            requestIds: listOf(params, "request_ids"),
            httpMethods: listOf(params, "http_methods"),
            sourceTypes: listOf(params, "source_types"),
            statusCodes: listOf(params, "status_codes"),
            success: params.success ?? params["filter[success]"],
            startDate: dateOf(params.start_date ?? params["filter[start_date]"]),
            endDate: dateOf(params.end_date ?? params["filter[end_date]"])
          },
          orderBy,
          direction,
          after,
          limit: pageSize + 1
        })
        const page = rows.slice(0, pageSize)
        const last = page[page.length - 1]
        const next = rows.length > pageSize && last !== undefined
          ? cursor.encode(projectId, order, {
            value: orderBy === "duration" ? last.duration_ms : last.created_at_exact,
            id: last.id
          })
          : null
        return { next, data: page.map(toRecord) } satisfies RequestLogsPage
      })

    const get = (projectId: string, id: string) =>
      repo.find(projectId, id).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(new RequestLogNotFound({ id })),
          onSome: (row) => Effect.succeed({ data: toDetail(row) })
        }))
      )

    /** Counts and durations per bucket (and group) over a bounded range: the dashboard's overview. */
    const stats = (projectId: string, params: RequestLogStatsParams) =>
      Effect.gen(function*() {
        const interval = params.interval ?? "hour"
        const range = statsRange(interval, dateOf(params.start_date), dateOf(params.end_date), Date.now())
        if (Either.isLeft(range)) return yield* new InvalidRequestLogStats({ message: range.left })
        const { end, start } = range.right
        const rows = yield* repo.stats({
          projectId,
          start,
          end,
          interval,
          groupBy: params.group_by === undefined ? undefined : groupColumn[params.group_by],
          accountIds: params.account_ids ?? [],
          providers: params.providers ?? [],
          sourceTypes: params.source_types ?? []
        })
        return statsAnswer({ interval, groupBy: params.group_by, start, end, ...rows })
      })

    return { list, get, stats } as const
  }),
  dependencies: [RequestLogsRepo.Default, RequestLogCursor.Default]
}) {}
