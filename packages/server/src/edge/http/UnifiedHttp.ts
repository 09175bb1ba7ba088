import { HttpApiBuilder, type HttpApiEndpoint, HttpServerRequest } from "@effect/platform"
import { Api, type ApiError, CurrentCaller, type UnifiedOperationSpec, unifiedOperationOf } from "@switchyard/api"
import { Effect, Option } from "effect"
import { jsonSafe } from "../../features/actions/jsonSafe.js"
import { markAnswered } from "../ErrorResponses.js"
import { toApiError } from "../toApiError.js"
import { type JsonAnswer, jsonAnswer } from "../wire/jsonAnswer.js"
import { documentOf, documentResponse } from "./documentResponse.js"
import { wantsHeartbeat, withHeartbeat } from "./UnifiedResponses.js"
import { type AnswerBody, type UnifiedCall, type UnifiedResult, UnifiedRunner } from "../../features/unified/UnifiedRunner.js"

/** The decoded request of any unified endpoint, as the handlers receive it. */
interface UnifiedRequest {
  readonly path?: Readonly<Record<string, string>>
  readonly urlParams?: Readonly<Record<string, unknown>>
  readonly headers: { readonly "x-account-id": string; readonly prefer?: string | undefined }
  readonly payload?: unknown
}

const csv = (value: unknown) =>
  value === undefined ? undefined : Array.isArray(value) ? value.join(",") : String(value)

const toCall = (operationId: string, request: UnifiedRequest): UnifiedCall => {
  // the parameters a unified call gives a meaning to; any other declared one is an action input
  const {
    expand,
    fields,
    filter,
    include,
    next,
    page,
    page_size,
    proxy,
    raw,
    sync_token,
    updated_after,
    ...extra
  } = request.urlParams ?? {}
  return {
    operationId,
    accountId: request.headers["x-account-id"],
    path: request.path,
    filter: filter as Record<string, unknown> | undefined,
    proxy: proxy as Record<string, unknown> | undefined,
    raw: raw === true,
    fields: csv(fields),
    pageSize: typeof page_size === "number" ? page_size : undefined,
    next: next as string | undefined,
    page: page === undefined ? undefined : String(page),
    updatedAfter: updated_after as string | undefined,
    syncToken: sync_token as string | undefined,
    expand: csv(expand),
    include: csv(include),
    extra,
    // Decoded bodies may hold bytes (uploads); connectors speak JSON, so they get base64 back.
    body: request.payload === undefined ? undefined : jsonSafe(request.payload)
  }
}

const idsOf = (data: unknown) => {
  const record = (typeof data === "object" && data !== null ? data : {}) as Record<string, unknown>
  const id = record.id ?? record.remote_id
  return {
    id: id === undefined || id === null ? null : String(id),
    remote_id: record.remote_id === undefined || record.remote_id === null ? (id === undefined || id === null ? null : String(id)) : String(record.remote_id)
  }
}

/**
 * What a batch action answered about its items, as the unified batch answer's `errors`: the
 * action's `errors` (one list of messages per item), else none refused.
 */
const batchErrorsOf = (data: unknown): ReadonlyArray<ReadonlyArray<string>> | null => {
  const errors = typeof data === "object" && data !== null ? (data as Record<string, unknown>).errors : undefined
  if (!Array.isArray(errors)) return null
  return errors.map((item) => (Array.isArray(item) ? item.map(String) : item === null || item === undefined ? [] : [String(item)]))
}

const upsertedOf = (data: unknown) => {
  const record = (typeof data === "object" && data !== null ? data : {}) as Record<string, unknown>
  const reference = record.external_reference
  return { ...idsOf(data), external_reference: reference === undefined || reference === null ? null : String(reference) }
}

/** The unified answer of an operation of `kind` whose action gave `result`. */
const answerOf = (
  { answersRecord, kind }: Pick<UnifiedOperationSpec, "answersRecord" | "kind">,
  result: UnifiedResult
): unknown => {
  const timestamp = new Date().toISOString()
  switch (kind) {
    case "list":
      return { data: Array.isArray(result.data) ? result.data : [], next: result.next, raw: result.raw }
    case "get":
      return { data: result.data, raw: result.raw }
    case "create":
      return { statusCode: 201, message: "Record created successfully", timestamp, data: idsOf(result.data) }
    case "upload":
      return { statusCode: 201, message: "Document uploaded successfully", timestamp }
    case "move":
      return { statusCode: 200, message: "Record moved successfully", timestamp, data: idsOf(result.data) }
    case "reject":
      return { statusCode: 200, message: "Record rejected successfully", timestamp, data: idsOf(result.data) }
    case "update":
      return answersRecord === true
        ? { statusCode: 200, message: "Record updated successfully", timestamp, data: idsOf(result.data) }
        : { statusCode: 200, message: "Record updated successfully", timestamp }
    case "delete":
      return { statusCode: 200, message: "Record deleted successfully", timestamp }
    case "invite":
      return { statusCode: 200, message: "Record invited successfully", timestamp, data: idsOf(result.data) }
    case "batch":
      return { statusCode: 202, message: "Batch operation accepted", timestamp, errors: batchErrorsOf(result.data) }
    case "upsert":
      return { statusCode: 201, message: "Record upserted successfully", timestamp, data: upsertedOf(result.data) }
    case "order": {
      const testUrl = (typeof result.data === "object" && result.data !== null ? result.data as Record<string, unknown> : {}).test_url
      return { ...idsOf(result.data), test_url: typeof testUrl === "string" ? testUrl : null }
    }
    case "download":
      return { statusCode: 200, message: "Record updated successfully", timestamp }
  }
}

const answer = (
  runner: UnifiedRunner,
  operation: UnifiedOperationSpec,
  json: JsonAnswer,
  request: UnifiedRequest
) =>
  Effect.gen(function*() {
    const { actionId: operationId, kind } = operation
    const caller = yield* CurrentCaller
    const call = toCall(operationId, request)
    const run = (call: UnifiedCall, answerBody?: AnswerBody) =>
      Effect.mapError(runner.run(caller.projectId, call, answerBody), toApiError)
    if (kind === "download") {
      // errors up to the provider's answer are ordinary error bodies; the bytes are streamed after
      const result = yield* run({ ...call, streamDownloads: true })
      const document = documentOf(result.data)
      if (document === undefined) return yield* Effect.die(new Error(`${operationId} returned no document bytes`))
      return documentResponse(document, request.urlParams ?? {}, yield* HttpServerRequest.HttpServerRequest)
    }
    // a unified answer that does not fit its schema holds what the provider sent, as the connector
    // mapped it: the run fails as a 502 naming the provider and the fields, never a 500 or a malformed 200
    const body = Effect.map(run(call, (result) => json.body(answerOf(operation, result))), (result) => result.body!)
    if (wantsHeartbeat(request.headers.prefer)) return yield* withHeartbeat(body)
    return json.respond(yield* body)
  })

/** The operation an endpoint declares; an endpoint without one is a fault of the api package. */
const operationOf = (endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps) =>
  Option.match(unifiedOperationOf(endpoint), {
    onNone: () => Effect.dieMessage(`unified endpoint ${endpoint.name} was not declared through unifiedEndpoint`),
    onSome: Effect.succeed
  })

/** What registering every endpoint of a group by name looks like from inside the loop. */
interface UntypedHandlers {
  handle(name: string, handler: (request: UnifiedRequest) => Effect.Effect<unknown, ApiError, unknown>): UntypedHandlers
}

/**
 * Registers one handler for each endpoint of a unified group; each runs the connector action
 * its `UnifiedOperation` annotation names and answers as its kind says.
 */
const handleUnifiedGroup = <E, Provides, R, Endpoints extends HttpApiEndpoint.HttpApiEndpoint.Any>(
  handlers: HttpApiBuilder.Handlers<E, Provides, R, Endpoints>
) =>
  Effect.gen(function*() {
    const runner = yield* UnifiedRunner
    // TypeScript cannot follow a loop that handles every endpoint by name: the loop works on an
    // untyped view, and the result is every endpoint handled, with the handlers' own context.
    let built = handlers as unknown as UntypedHandlers
    for (const endpoint of Object.values(handlers.group.endpoints)) {
      const operation = yield* operationOf(endpoint)
      // the endpoint's answer is checked and encoded by an encoder compiled here, once
      const json = jsonAnswer(endpoint)
      built = built.handle(endpoint.name, (request) =>
        Effect.tap(answer(runner, operation, json, request), () => markAnswered))
    }
    return built as unknown as HttpApiBuilder.Handlers<E, Provides, R>
  })

export const UnifiedHttpLive = [
  HttpApiBuilder.group(Api, "unified_ats", handleUnifiedGroup),
  HttpApiBuilder.group(Api, "unified_hris", handleUnifiedGroup),
  HttpApiBuilder.group(Api, "unified_lms", handleUnifiedGroup)
] as const
