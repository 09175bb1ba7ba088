import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authentication } from "./Authentication.js"
import { strictObject } from "./Params.js"

const JsonObject = Schema.Record({ key: Schema.String, value: Schema.Unknown })

export const ActionRpcRequest = Schema.Struct({
  action: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  query: Schema.optional(JsonObject),
  body: Schema.optional(Schema.Unknown),
  path: Schema.optional(JsonObject),
  headers: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
  raw: Schema.optional(Schema.Boolean).annotations({
    description: "When true, the answer carries the provider calls made, with every credential redacted"
  })
}).annotations({ identifier: "ActionRpcRequest", ...strictObject })
export type ActionRpcRequest = typeof ActionRpcRequest.Type

export const RawProviderCall = Schema.Struct({
  method: Schema.String,
  url: Schema.String,
  body: Schema.Unknown,
  response: Schema.NullOr(Schema.Struct({
    status: Schema.Number,
    headers: Schema.Record({ key: Schema.String, value: Schema.String }),
    body: Schema.Unknown
  }))
}).annotations({ identifier: "RawProviderCall" })

export const ActionRpcResponse = Schema.Struct({
  data: Schema.Unknown,
  next: Schema.optional(Schema.NullOr(Schema.Unknown)),
  raw: Schema.optional(Schema.Array(RawProviderCall))
}).annotations({ identifier: "ActionRpcResponse" })
export type ActionRpcResponse = typeof ActionRpcResponse.Type

export const AccountHeaders = Schema.Struct({
  "x-account-id": Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))
})

export const IdempotentAccountHeaders = Schema.Struct({
  "x-account-id": Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  "idempotency-key": Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255)))
})

export class ActionsGroup extends HttpApiGroup.make("actions")
  .add(
    HttpApiEndpoint.post("rpc_action", "/actions/rpc")
      .setHeaders(IdempotentAccountHeaders)
      .setPayload(ActionRpcRequest)
      .addSuccess(ActionRpcResponse)
      .annotate(OpenApi.Summary, "Run a connector action")
      .annotate(
        OpenApi.Description,
        "Runs a connector action for the account in x-account-id. An Idempotency-Key on a write action returns the first result for 24 hours instead of running again (the same key with a different request is 422; while the first run is still going, a retry is 409 with Retry-After). An action the account's connector profile does not enable is 403, an unknown one 404; a suspended, expired or disabled account, or one of an inactive profile, 412. Provider failures: a 4xx answer is 400 with `data` and `provider_errors`, 5xx or unreachable 502, a timeout 408 and rate limiting 429, both with Retry-After. Full Access or Actions keys."
      )
  )
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Run one connector action for one linked account")
{}
