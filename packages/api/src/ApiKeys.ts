import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ApiKeyScope, Authentication } from "./Authentication.js"
import { NextCursor, PageSize, strictObject } from "./Params.js"

/** The most active keys a project may hold: a leaked automation loop cannot mint keys without end. */
export const MAX_ACTIVE_API_KEYS = 100

/** Stored trimmed; blank is refused. */
const ApiKeyName = Schema.String.pipe(
  Schema.filter((name) => name.trim().length > 0, { message: () => "name must not be empty" }),
  Schema.maxLength(100, { message: () => "name must be at most 100 characters" })
).annotations({ description: "What the key is for (1 to 100 characters, stored without surrounding spaces)" })

export const CreateApiKey = Schema.Struct({
  name: ApiKeyName,
  scope: Schema.optional(ApiKeyScope).annotations({ description: "full_access when omitted" })
}).annotations({ identifier: "CreateApiKey", ...strictObject })
export type CreateApiKey = typeof CreateApiKey.Type

/** A key as the API shows it after its creation: never the key itself, nor its hash. */
export const ApiKey = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  name: Schema.String,
  scope: ApiKeyScope,
  key_prefix: Schema.String.annotations({ description: "The key's first characters, to tell keys apart (swy_ and 6 more)" }),
  created_at: Schema.String,
  last_used_at: Schema.NullOr(Schema.String).annotations({
    description: "When a request last authenticated with the key (to within a few seconds); null if never"
  }),
  revoked_at: Schema.NullOr(Schema.String).annotations({ description: "null while the key works" })
}).annotations({ identifier: "ApiKey" })
export type ApiKey = typeof ApiKey.Type

/** The create answer: the only time the key is shown. */
export const ApiKeyWithSecret = Schema.Struct({
  ...ApiKey.fields,
  key: Schema.String.annotations({ description: "The API key (swy_…); shown once, stored only as a hash" })
}).annotations({ identifier: "ApiKeyWithSecret" })
export type ApiKeyWithSecret = typeof ApiKeyWithSecret.Type

export const ApiKeyList = Schema.Struct({
  data: Schema.Array(ApiKey).annotations({ description: "Newest first, at most page_size" }),
  next: Schema.NullOr(Schema.String).annotations({
    description: "Pass as `next` for the following (older) page; null on the last page"
  })
}).annotations({ identifier: "ApiKeyList" })
export type ApiKeyList = typeof ApiKeyList.Type

/** Keyset pages of the project's keys, newest first; revoked keys only when asked for. */
export const ListApiKeysParams = Schema.Struct({
  page_size: Schema.optional(PageSize),
  next: Schema.optional(NextCursor),
  include_revoked: Schema.optional(Schema.Literal("true", "false").annotations({
    message: () => "include_revoked must be true or false"
  })).annotations({ description: "true also lists revoked keys (default false)" })
})
export type ListApiKeysParams = typeof ListApiKeysParams.Type

const ApiKeyId = HttpApiSchema.param("id", Schema.String)

/**
 * The project's API keys. Full Access keys only (any other scope is 403, reads included): a
 * key that may list and mint keys holds every scope.
 */
export class ApiKeysGroup extends HttpApiGroup.make("api_keys")
  .add(
    HttpApiEndpoint.post("create_api_key", "/v2/api_keys")
      .setPayload(CreateApiKey)
      .addSuccess(ApiKeyWithSecret, { status: 201 })
      .annotate(OpenApi.Summary, "Create an API key")
      .annotate(
        OpenApi.Description,
        `A new key for the caller's project; the key is in this answer only (it is stored as a hash). At most ${MAX_ACTIVE_API_KEYS} active keys per project (409 beyond)`
      )
  )
  .add(
    HttpApiEndpoint.get("list_api_keys", "/v2/api_keys")
      .setUrlParams(ListApiKeysParams)
      .addSuccess(ApiKeyList)
      .annotate(OpenApi.Summary, "List API keys")
      .annotate(OpenApi.Description, "The project's keys, newest first, a page at a time (follow `next`); never a key itself")
  )
  .add(
    HttpApiEndpoint.del("revoke_api_key")`/v2/api_keys/${ApiKeyId}`
      .addSuccess(ApiKey)
      .annotate(OpenApi.Summary, "Revoke an API key")
      .annotate(
        OpenApi.Description,
        "The key stops working at once on this server and within seconds on the others; answers the revoked key, or 404 for an id that is not an active key of the project"
      )
  )
  .middleware(Authentication)
  .annotate(OpenApi.Description, "The project's API keys: Full Access keys only")
{}
