import { HttpApiEndpoint, HttpApiSchema, OpenApi } from "@effect/platform"
import { Context, Schema } from "effect"
import { UnifiedHeaders } from "./common/headers.js"
import {
  BatchResponse,
  CreateResponse,
  DeleteResponse,
  OrderResponse,
  RecordWriteResponse,
  UpsertResponse,
  WriteResponse,
  WriteResult
} from "./common/responses.js"
import type { WireQuery } from "./common/unifiedQuery.js"
import { describeUnifiedOperation } from "./describeUnifiedOperation.js"

/** How the server answers a unified operation. */
export type UnifiedKind =
  | "list"
  | "get"
  | "download"
  | "create"
  | "update"
  | "move"
  | "reject"
  | "upload"
  | "delete"
  | "invite"
  | "batch"
  | "upsert"
  | "order"

type ReadKind = "list" | "get" | "download"
type WriteKind = Exclude<UnifiedKind, ReadKind>

/** What the server needs to serve a unified endpoint: its kind and the connector action it runs. */
export interface UnifiedOperationSpec {
  readonly kind: UnifiedKind
  readonly actionId: string
  /** An update whose answer names the record changed (`data: {id, remote_id}`), as a create's does. */
  readonly answersRecord?: boolean
}

/** Annotation on every unified endpoint; read it back with `unifiedOperationOf`. */
export class UnifiedOperation extends Context.Tag("@switchyard/api/UnifiedOperation")<
  UnifiedOperation,
  UnifiedOperationSpec
>() {}

/** The operation an endpoint was declared as, if `unifiedEndpoint` declared it. */
export const unifiedOperationOf = (endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps) =>
  Context.getOption(endpoint.annotations, UnifiedOperation)

const methods = {
  list: "GET",
  get: "GET",
  download: "GET",
  create: "POST",
  upload: "POST",
  move: "POST",
  reject: "POST",
  update: "PATCH",
  delete: "DELETE",
  invite: "POST",
  batch: "POST",
  upsert: "PUT",
  order: "POST"
} as const

// Write answers are fixed by kind, so the server's answer for a kind always matches the contract.
const writeAnswers = {
  create: { schema: CreateResponse, status: 201 },
  upload: { schema: WriteResult, status: 201 },
  move: { schema: RecordWriteResponse },
  reject: { schema: RecordWriteResponse },
  update: { schema: WriteResponse },
  delete: { schema: DeleteResponse },
  invite: { schema: RecordWriteResponse },
  batch: { schema: BatchResponse, status: 202 },
  upsert: { schema: UpsertResponse, status: 201 },
  order: { schema: OrderResponse }
} as const

type WriteAnswer<K extends WriteKind> = Schema.Schema.Type<(typeof writeAnswers)[K]["schema"]>

type PathParams<P extends string> = P extends `${string}/:${infer Param}/${infer Rest}` ? Param | PathParams<`/${Rest}`>
  : P extends `${string}/:${infer Param}` ? Param
  : never

/** The decoded path of `/a/:id/b/:subResourceId`: `{id, subResourceId}` (none when the path has no parameter). */
type PathOf<P extends string> = [PathParams<P>] extends [never] ? never : { readonly [K in PathParams<P>]: string }

type Loose = HttpApiEndpoint.HttpApiEndpoint.AnyWithProps

type Transform = (operation: Record<string, any>) => Record<string, any>

interface CommonOptions<Id extends string, Kind extends UnifiedKind, Path extends `/${string}`> {
  readonly kind: Kind
  /** The operation id: endpoint name, OpenAPI operationId and the connector action id. */
  readonly id: Id
  /** Router path; `:name` segments are string path parameters. */
  readonly path: Path
  readonly summary: string
  /** What this operation adds to the description every unified operation of its kind gets. */
  readonly description?: string
  /** Documents what the OpenAPI generator cannot see (see `documentUnifiedQuery`). */
  readonly openApi?: Transform
}

interface ReadOptions<Id extends string, Kind extends ReadKind, Path extends `/${string}`, Query, Success>
  extends CommonOptions<Id, Kind, Path>
{
  readonly query: Schema.Schema<Query, WireQuery>
  readonly success: Schema.Schema<Success, any>
}

interface WriteOptions<Id extends string, Kind extends WriteKind, Path extends `/${string}`, Body>
  extends CommonOptions<Id, Kind, Path>
{
  /** The request body; a write without one (a delete) leaves it out. */
  readonly body?: Schema.Schema<Body, any>
  /** An update answering `data: {id, remote_id}` of the record changed (see `UnifiedOperationSpec`). */
  readonly answersRecord?: boolean
}

/** A write without a request body (a delete). */
type BodilessWriteOptions<Id extends string, Kind extends WriteKind, Path extends `/${string}`> =
  & Omit<WriteOptions<Id, Kind, Path, never>, "body">
  & { readonly body?: undefined }

type Endpoint<Id extends string, Kind extends UnifiedKind, Path extends string, Query, Body, Success> =
  HttpApiEndpoint.HttpApiEndpoint<
    Id,
    (typeof methods)[Kind],
    PathOf<Path>,
    Query,
    Body,
    UnifiedHeaders,
    Success
  >

/**
 * Declares a unified endpoint: method and answer follow from `kind`, every endpoint takes the
 * unified headers, and the kind and action id are recorded as the `UnifiedOperation` annotation.
 */
export function unifiedEndpoint<
  const Id extends string,
  const Kind extends ReadKind,
  const Path extends `/${string}`,
  Query,
  Success
>(options: ReadOptions<Id, Kind, Path, Query, Success>): Endpoint<Id, Kind, Path, Query, never, Success>
export function unifiedEndpoint<
  const Id extends string,
  const Kind extends WriteKind,
  const Path extends `/${string}`
>(options: BodilessWriteOptions<Id, Kind, Path>): Endpoint<Id, Kind, Path, never, never, WriteAnswer<Kind>>
export function unifiedEndpoint<
  const Id extends string,
  const Kind extends WriteKind,
  const Path extends `/${string}`,
  Body
>(options: WriteOptions<Id, Kind, Path, Body>): Endpoint<Id, Kind, Path, never, Body, WriteAnswer<Kind>>
export function unifiedEndpoint(
  options:
    | ReadOptions<string, ReadKind, `/${string}`, unknown, unknown>
    | WriteOptions<string, WriteKind, `/${string}`, any>
    | BodilessWriteOptions<string, WriteKind, `/${string}`>
): HttpApiEndpoint.HttpApiEndpoint.Any {
  // built step by step, so typed loosely here; the overloads above give callers the exact type
  let endpoint = HttpApiEndpoint.make(methods[options.kind])(options.id, options.path) as unknown as Loose
  const params = Array.from(options.path.matchAll(/:(\w+)/g), (match) => match[1]!)
  if (params.length > 0) {
    // as the template-literal constructor builds it
    endpoint = endpoint.setPath(
      Schema.Struct(Object.fromEntries(params.map((name) => [name, HttpApiSchema.param(name, Schema.String)])))
    )
  }
  endpoint = endpoint.setHeaders(UnifiedHeaders)
  if ("query" in options) {
    endpoint = endpoint.setUrlParams(options.query).addSuccess(options.success)
  } else {
    const answer: { readonly schema: Schema.Schema.Any; readonly status?: number } =
      options.kind === "update" && options.answersRecord === true ? { schema: RecordWriteResponse } : writeAnswers[options.kind]
    if ("body" in options && options.body !== undefined) endpoint = endpoint.setPayload(options.body)
    endpoint = endpoint.addSuccess(
      answer.schema,
      answer.status === undefined ? undefined : { status: answer.status }
    )
  }
  endpoint = endpoint
    .annotate(OpenApi.Identifier, options.id)
    .annotate(OpenApi.Summary, options.summary)
    .annotate(
      OpenApi.Description,
      describeUnifiedOperation({ kind: options.kind, actionId: options.id, description: options.description })
    )
    .annotate(UnifiedOperation, {
      kind: options.kind,
      actionId: options.id,
      ...("answersRecord" in options && options.answersRecord === true ? { answersRecord: true } : {})
    })
  if (options.openApi !== undefined) endpoint = endpoint.annotate(OpenApi.Transform, options.openApi)
  return endpoint
}
