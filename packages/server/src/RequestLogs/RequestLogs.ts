import {
  DEFAULT_PAGE_SIZE,
  type ListRequestLogsParams,
  type RequestLogDetail,
  type RequestLogOrderBy,
  type RequestLogOrderDirection,
  type RequestLogRecord,
  type RequestLogsPage
} from "@switchyard/api"
import { DateTime, Effect, Option } from "effect"
import * as Crypto from "node:crypto"
import { CredentialCipher } from "../Crypto/CredentialCipher.js"
import { InvalidRequestLogCursor, RequestLogNotFound } from "./RequestLogErrors.js"
import { type RequestLogDetailRow, type RequestLogKeyset, type RequestLogRow, RequestLogsRepo } from "./RequestLogsRepo.js"

interface CursorPayload {
  /** project */
  readonly p: string
  /** order: `<order_by>.<direction>` */
  readonly o: string
  /** the last row's sort value: its exact time as text, or its duration in ms */
  readonly v: string | number
  /** the last row's id */
  readonly i: string
}

const isCursorPayload = (value: unknown): value is CursorPayload => {
  if (typeof value !== "object" || value === null) return false
  const payload = value as Record<string, unknown>
  return typeof payload.p === "string" && typeof payload.o === "string" && typeof payload.i === "string" &&
    (typeof payload.v === "string" || (typeof payload.v === "number" && Number.isInteger(payload.v)))
}

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

/**
 * The request log API: a project's logged action runs, filtered and paged by keyset. The
 * `next` cursor is signed and names its project and order, so it can neither reach another
 * project's entries nor be replayed under a different order.
 */
export class RequestLogs extends Effect.Service<RequestLogs>()("Switchyard/RequestLogs", {
  effect: Effect.gen(function*() {
    const repo = yield* RequestLogsRepo
    const cipher = yield* CredentialCipher
    const key = cipher.derivedKey("request-log-cursor")
    const sign = (body: string) => Crypto.createHmac("sha256", key).update(body).digest("base64url").slice(0, 32)

    const encodeCursor = (payload: CursorPayload) => {
      const body = Buffer.from(JSON.stringify(payload)).toString("base64url")
      return `${body}.${sign(body)}`
    }

    const decodeCursor = (token: string, projectId: string, order: string) =>
      Effect.gen(function*() {
        const [body, signature, extra] = token.split(".")
        if (body === undefined || signature === undefined || extra !== undefined) {
          return yield* new InvalidRequestLogCursor({ reason: "malformed" })
        }
        const expected = sign(body)
        if (signature.length !== expected.length || !Crypto.timingSafeEqual(Buffer.from(signature), Buffer.from(expected))) {
          return yield* new InvalidRequestLogCursor({ reason: "signature does not match" })
        }
        const payload = yield* Effect.try({
          try: (): unknown => JSON.parse(Buffer.from(body, "base64url").toString("utf8")),
          catch: () => new InvalidRequestLogCursor({ reason: "malformed" })
        })
        if (!isCursorPayload(payload)) return yield* new InvalidRequestLogCursor({ reason: "malformed" })
        if (payload.p !== projectId) return yield* new InvalidRequestLogCursor({ reason: "it belongs to another project" })
        if (payload.o !== order) {
          return yield* new InvalidRequestLogCursor({ reason: `it continues order ${payload.o}, not ${order}` })
        }
        // the value's type follows the order: a signed cursor of this order always has the right one
        if ((typeof payload.v === "number") !== (order.startsWith("duration"))) {
          return yield* new InvalidRequestLogCursor({ reason: "malformed" })
        }
        return { value: payload.v, id: payload.i } satisfies RequestLogKeyset
      })

    const list = (projectId: string, params: ListRequestLogsParams) =>
      Effect.gen(function*() {
        const orderBy: RequestLogOrderBy = params.order_by ?? "event_datetime"
        const direction: RequestLogOrderDirection = params.order_direction ?? "desc"
        const order = `${orderBy}.${direction}`
        const pageSize = params.page_size ?? DEFAULT_PAGE_SIZE
        const after = params.next === undefined || params.next.length === 0
          ? Option.none<RequestLogKeyset>()
          : Option.some(yield* decodeCursor(params.next, projectId, order))
        // one row more than asked tells whether another page follows
        const rows = yield* repo.list({
          projectId,
          filters: {
            accountIds: params.account_ids ?? [],
            providers: params.providers ?? [],
            actions: params.actions ?? [],
            requestIds: params.request_ids ?? [],
            httpMethods: params.http_methods ?? [],
            sourceTypes: params.source_types ?? [],
            statusCodes: params.status_codes ?? [],
            success: params.success,
            startDate: params.start_date === undefined ? undefined : DateTime.toDateUtc(params.start_date),
            endDate: params.end_date === undefined ? undefined : DateTime.toDateUtc(params.end_date)
          },
          orderBy,
          direction,
          after,
          limit: pageSize + 1
        })
        const page = rows.slice(0, pageSize)
        const last = page[page.length - 1]
        const next = rows.length > pageSize && last !== undefined
          ? encodeCursor({
            p: projectId,
            o: order,
            v: orderBy === "duration" ? last.duration_ms : last.created_at_exact,
            i: last.id
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

    return { list, get } as const
  }),
  dependencies: [RequestLogsRepo.Default, CredentialCipher.Default]
}) {}
