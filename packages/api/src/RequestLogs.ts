import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authentication } from "./Authentication.js"
import { commaSeparated, PageSize } from "./Params.js"

/** How the logged action was called: the action RPC, a unified operation, or an MCP tool. */
/** `connect`: a connect page's check of the credentials an end user entered (before any account exists). */
export const RequestLogSourceType = Schema.Literal("rpc", "unified", "mcp", "connect").annotations({ identifier: "RequestLogSourceType" })
export type RequestLogSourceType = typeof RequestLogSourceType.Type

export const RequestLogOrderBy = Schema.Literal("event_datetime", "eventDatetime", "duration")
export type RequestLogOrderBy = typeof RequestLogOrderBy.Type

export const RequestLogOrderDirection = Schema.Literal("asc", "desc")
export type RequestLogOrderDirection = typeof RequestLogOrderDirection.Type

/** One provider call of a logged run (StackOne's step request), its URL with credentials redacted. */
export const RequestLogStep = Schema.Struct({
  http_method: Schema.String,
  url: Schema.String,
  status: Schema.NullOr(Schema.Int).annotations({ description: "null when the provider never answered (timeout, connection failure)" }),
  duration: Schema.Int.annotations({ description: "Milliseconds" }),
  success: Schema.Boolean,
  request_body: Schema.NullOr(Schema.String).annotations({
    description: "Redacted and cut to 16,384 characters; null unless the project keeps bodies (CLI: projects request-log-bodies)"
  }),
  response_body: Schema.NullOr(Schema.String).annotations({ description: "As request_body" })
}).annotations({ identifier: "RequestLogStep" })
export type RequestLogStep = typeof RequestLogStep.Type

const recordFields = {
  request_id: Schema.String,
  event_datetime: Schema.String.annotations({ description: "When the request started (ISO 8601)" }),
  start_time: Schema.String,
  end_time: Schema.String,
  account_id: Schema.String,
  provider: Schema.NullOr(Schema.String).annotations({ description: "The account's connector key" }),
  action: Schema.String,
  source_type: RequestLogSourceType,
  http_method: Schema.NullOr(Schema.String).annotations({ description: "Of the incoming call; null where not recorded" }),
  path: Schema.NullOr(Schema.String),
  url: Schema.NullOr(Schema.String),
  status: Schema.Int.annotations({ description: "The status the caller was answered with" }),
  duration: Schema.Int.annotations({ description: "Milliseconds" }),
  success: Schema.Boolean,
  error_message: Schema.NullOr(Schema.String).annotations({ description: "What a failed call was answered (beyond StackOne's shape)" })
}

export const RequestLogRecord = Schema.Struct(recordFields).annotations({ identifier: "RequestLogRecord" })
export type RequestLogRecord = typeof RequestLogRecord.Type

export const RequestLogDetail = Schema.Struct({
  ...recordFields,
  step_requests: Schema.Array(RequestLogStep)
}).annotations({ identifier: "RequestLogDetail" })
export type RequestLogDetail = typeof RequestLogDetail.Type

export const RequestLogsPage = Schema.Struct({
  next: Schema.NullOr(Schema.String).annotations({ description: "Pass as `next` for the following page; null on the last" }),
  data: Schema.Array(RequestLogRecord)
}).annotations({ identifier: "RequestLogsPage" })
export type RequestLogsPage = typeof RequestLogsPage.Type

export const RequestLogResult = Schema.Struct({ data: RequestLogDetail }).annotations({ identifier: "RequestLogResult" })
export type RequestLogResult = typeof RequestLogResult.Type

const StatusCode = Schema.NumberFromString.pipe(
  Schema.int({ message: () => "status_codes must be whole numbers" }),
  Schema.between(100, 599, { message: () => "status_codes must be HTTP status codes (100-599)" })
)

const BooleanParam = (name: string) =>
  Schema.transform(
    Schema.Literal("true", "false").annotations({ message: () => `${name} must be true or false` }),
    Schema.Boolean,
    { strict: true, decode: (text) => text === "true", encode: (flag) => (flag ? "true" : "false") }
  ).annotations({ jsonSchema: { type: "boolean" } })

const DateParam = (name: string) =>
  Schema.DateTimeUtc.annotations({
    message: () => `${name} must be an ISO 8601 date or date-time`,
    jsonSchema: { type: "string", format: "date-time" }
  })

const list = commaSeparated(Schema.String.pipe(Schema.maxLength(200)))

/** The filters, each also accepted as StackOne's deep-object form `filter[<name>]`. */
const filters = {
  account_ids: Schema.optional(list),
  providers: Schema.optional(list),
  actions: Schema.optional(list),
  request_ids: Schema.optional(list),
  http_methods: Schema.optional(list),
  source_types: Schema.optional(commaSeparated(RequestLogSourceType.annotations({
    message: () => "source_types must be any of rpc, unified, mcp, connect"
  }))),
  status_codes: Schema.optional(commaSeparated(StatusCode)),
  success: Schema.optional(BooleanParam("success")),
  start_date: Schema.optional(DateParam("start_date")).annotations({ description: "Entries that started at or after" }),
  end_date: Schema.optional(DateParam("end_date")).annotations({ description: "Entries that started before" })
}

export type RequestLogFilterName = keyof typeof filters

const asDeepObject = <F extends Record<string, unknown>>(fields: F) =>
  Object.fromEntries(Object.entries(fields).map(([name, field]) => [`filter[${name}]`, field])) as {
    readonly [K in keyof F & string as `filter[${K}]`]: F[K]
  }

export const ListRequestLogsParams = Schema.Struct({
  page_size: Schema.optional(PageSize),
  next: Schema.optional(Schema.String.pipe(Schema.maxLength(4096))),
  ...filters,
  ...asDeepObject(filters),
  order_by: Schema.optional(RequestLogOrderBy.annotations({
    message: () => "order_by must be event_datetime (or eventDatetime) or duration"
  })).annotations({ description: "event_datetime (default; StackOne's eventDatetime too) or duration" }),
  order_direction: Schema.optional(RequestLogOrderDirection.annotations({ message: () => "order_direction must be asc or desc" }))
    .annotations({ description: "desc (default) or asc" })
})
export type ListRequestLogsParams = typeof ListRequestLogsParams.Type

/** Bucket widths of the stats, and the longest range each may cover (168 hourly, 90 daily buckets). */
export const RequestLogStatsInterval = Schema.Literal("hour", "day").annotations({ identifier: "RequestLogStatsInterval" })
export type RequestLogStatsInterval = typeof RequestLogStatsInterval.Type
export const MAX_STATS_RANGE_DAYS: Readonly<Record<RequestLogStatsInterval, number>> = { hour: 7, day: 90 }

/** What the stats may be grouped by. */
export const RequestLogStatsGroupBy = Schema.Literal("provider", "source_type", "action", "account_id")
  .annotations({ identifier: "RequestLogStatsGroupBy" })
export type RequestLogStatsGroupBy = typeof RequestLogStatsGroupBy.Type

/** The groups listed by name, the busiest first; the rest are summed into one group marked `other`. */
export const MAX_STATS_GROUPS = 10

export const RequestLogStatsParams = Schema.Struct({
  start_date: Schema.optional(DateParam("start_date")).annotations({
    description: "Start of the range (rounded down to its bucket); default: end_date minus 24 hours (hour) or 7 days (day)"
  }),
  end_date: Schema.optional(DateParam("end_date")).annotations({
    description: "End of the range (rounded up to its bucket); default: now"
  }),
  interval: Schema.optional(RequestLogStatsInterval).annotations({ description: "Bucket width: hour (default; ranges up to 7 days) or day (up to 90 days)" }),
  group_by: Schema.optional(RequestLogStatsGroupBy).annotations({ description: "Split the counts by this; ungrouped when omitted" }),
  account_ids: Schema.optional(list),
  providers: Schema.optional(list),
  source_types: Schema.optional(commaSeparated(RequestLogSourceType))
})
export type RequestLogStatsParams = typeof RequestLogStatsParams.Type

const statsCounts = {
  requests: Schema.Int,
  errors: Schema.Int.annotations({ description: "Answered with a status of 400 or above" })
}
const statsDurations = {
  p50_duration: Schema.NullOr(Schema.Int).annotations({ description: "Median duration in milliseconds; null without requests" }),
  p95_duration: Schema.NullOr(Schema.Int).annotations({ description: "95th percentile duration in milliseconds; null without requests" })
}
const statsGroupKey = {
  key: Schema.NullOr(Schema.String).annotations({ description: "The group's value (null where it was not recorded, or for `other`)" }),
  other: Schema.Boolean.annotations({ description: `true for the sum of the groups beyond the busiest ${MAX_STATS_GROUPS}` })
}

export const RequestLogStatsGroup = Schema.Struct({ ...statsGroupKey, ...statsCounts, ...statsDurations })
  .annotations({ identifier: "RequestLogStatsGroup" })
export type RequestLogStatsGroup = typeof RequestLogStatsGroup.Type

export const RequestLogStatsBucket = Schema.Struct({
  start: Schema.String.annotations({ description: "The bucket's start (UTC, ISO 8601); it covers one interval" }),
  ...statsCounts,
  groups: Schema.Array(Schema.Struct({ ...statsGroupKey, ...statsCounts })).annotations({
    description: "The bucket's counts per group, in the order of `groups`; empty when ungrouped"
  })
}).annotations({ identifier: "RequestLogStatsBucket" })
export type RequestLogStatsBucket = typeof RequestLogStatsBucket.Type

export const RequestLogStats = Schema.Struct({
  start_date: Schema.String,
  end_date: Schema.String,
  interval: RequestLogStatsInterval,
  group_by: Schema.NullOr(RequestLogStatsGroupBy),
  totals: Schema.Struct({ ...statsCounts, ...statsDurations }),
  groups: Schema.Array(RequestLogStatsGroup).annotations({ description: "Busiest first; empty when ungrouped" }),
  buckets: Schema.Array(RequestLogStatsBucket).annotations({ description: "Every bucket of the range, oldest first, empty ones included" })
}).annotations({ identifier: "RequestLogStats" })
export type RequestLogStats = typeof RequestLogStats.Type

const RequestLogId = HttpApiSchema.param("id", Schema.String)

export class RequestLogsGroup extends HttpApiGroup.make("request_logs")
  .add(
    HttpApiEndpoint.get("list_request_logs", "/requests/logs")
      .setUrlParams(ListRequestLogsParams)
      .addSuccess(RequestLogsPage)
      .annotate(OpenApi.Summary, "List request logs")
      .annotate(
        OpenApi.Description,
        "The project's action runs (RPC, unified, MCP), newest first by default; lists are comma-separated or repeated; each filter may also be given as filter[<name>]. Kept SWITCHYARD_REQUEST_LOG_RETENTION_DAYS days"
      )
  )
  .add(
    HttpApiEndpoint.get("get_request_log_stats", "/requests/logs/stats")
      .setUrlParams(RequestLogStatsParams)
      .addSuccess(RequestLogStats)
      .annotate(OpenApi.Summary, "Request log statistics")
      .annotate(
        OpenApi.Description,
        "Requests and errors per hour or day over a bounded range (up to 7 days hourly, 90 days daily), optionally by provider, source type, action or account, with p50 and p95 durations; what the dashboard's overview charts"
      )
  )
  .add(
    HttpApiEndpoint.get("get_request_log")`/requests/logs/${RequestLogId}`
      .addSuccess(RequestLogResult)
      .annotate(OpenApi.Summary, "Get a request log entry")
      .annotate(OpenApi.Description, "One entry with its provider calls (step_requests), their bodies when the project keeps them")
  )
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Every action run of the project (RPC, unified, MCP) with its provider calls")
{}
