import { HttpApiBuilder, type HttpApiGroup, HttpServerRequest } from "@effect/platform"
import {
  Api,
  type ApiError,
  CurrentCaller,
  UnifiedAtsGroup,
  UnifiedHrisGroup,
  UnifiedLmsGroup
} from "@switchyard/api"
import { Effect, type Layer } from "effect"
import { jsonSafe } from "../Actions/jsonSafe.js"
import { markAnswered } from "../ErrorResponses.js"
import { documentOf, documentResponse } from "./documentResponse.js"
import { type UnifiedCall, UnifiedRunner } from "./UnifiedRunner.js"
import { kindOf, type UnifiedKind, wantsHeartbeat, withHeartbeat } from "./UnifiedResponses.js"

/** The decoded request of any unified endpoint, as the handlers receive it. */
interface UnifiedRequest {
  readonly path?: Readonly<Record<string, string>>
  readonly urlParams?: Readonly<Record<string, unknown>>
  readonly headers: { readonly "x-account-id": string; readonly prefer?: string | undefined }
  readonly payload?: unknown
}

const known = new Set(["raw", "fields", "page_size", "next", "page", "updated_after", "sync_token", "expand", "include", "filter", "proxy", "format", "export_format"])

const csv = (value: unknown) =>
  value === undefined ? undefined : Array.isArray(value) ? value.join(",") : String(value)

const toCall = (operationId: string, request: UnifiedRequest): UnifiedCall => {
  const params = request.urlParams ?? {}
  const extra = Object.fromEntries(Object.entries(params).filter(([key]) => !known.has(key)))
  return {
    operationId,
    accountId: request.headers["x-account-id"],
    path: request.path,
    filter: params.filter as Record<string, unknown> | undefined,
    proxy: params.proxy as Record<string, unknown> | undefined,
    raw: params.raw === true,
    fields: csv(params.fields),
    pageSize: typeof params.page_size === "number" ? params.page_size : undefined,
    next: params.next as string | undefined,
    page: params.page === undefined ? undefined : String(params.page),
    updatedAfter: params.updated_after as string | undefined,
    syncToken: params.sync_token as string | undefined,
    expand: csv(params.expand),
    include: csv(params.include),
    extra: {
      ...extra,
      ...(params.format === undefined ? {} : { format: params.format }),
      ...(params.export_format === undefined ? {} : { export_format: params.export_format })
    },
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

const answer = (runner: UnifiedRunner, kind: UnifiedKind, operationId: string, request: UnifiedRequest) =>
  Effect.gen(function*() {
    const caller = yield* CurrentCaller
    const call = toCall(operationId, request)
    const work: Effect.Effect<unknown, ApiError> = Effect.map(runner.run(caller.projectId, call), (result) => {
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
        default:
          return { statusCode: 200, message: "Record updated successfully", timestamp }
      }
    })
    if (kind === "download") {
      // errors up to the provider's answer are ordinary error bodies; the bytes are streamed after
      const result = yield* runner.run(caller.projectId, { ...call, streamDownloads: true })
      const document = documentOf(result.data)
      if (document === undefined) return yield* Effect.die(new Error(`${operationId} returned no document bytes`))
      return documentResponse(document, request.urlParams ?? {}, yield* HttpServerRequest.HttpServerRequest)
    }
    if (wantsHeartbeat(request.headers.prefer)) return yield* withHeartbeat(work)
    return yield* work
  })

/** Every unified endpoint runs the connector action named like it; one generic handler serves all. */
const unifiedGroup = <const Name extends "unified_ats" | "unified_hris" | "unified_lms">(
  name: Name,
  endpoints: Readonly<Record<string, { readonly method: string }>>
): Layer.Layer<HttpApiGroup.ApiGroup<"switchyard", Name>, never, UnifiedRunner> =>
  HttpApiBuilder.group(Api, name, (handlers) =>
    Effect.gen(function*() {
      const runner = yield* UnifiedRunner
      // Handlers are registered by name in a loop; the group's endpoint set is the contract.
      let built: any = handlers
      for (const [operationId, endpoint] of Object.entries(endpoints)) {
        const kind = kindOf(operationId, endpoint.method)
        built = built.handle(operationId, (request: UnifiedRequest) =>
          Effect.tap(answer(runner, kind, operationId, request), () => markAnswered))
      }
      return built
    }) as any) as any

export const UnifiedHttpLive = [
  unifiedGroup("unified_ats", UnifiedAtsGroup.endpoints),
  unifiedGroup("unified_hris", UnifiedHrisGroup.endpoints),
  unifiedGroup("unified_lms", UnifiedLmsGroup.endpoints)
] as const
