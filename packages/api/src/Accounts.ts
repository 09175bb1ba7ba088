import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authentication } from "./Authentication.js"
import { commaSeparated, expandParam, PageNumber, PageOf, PageSize, strictObject, Uuid } from "./Params.js"

export const AccountStatus = Schema.Literal("active", "inactive", "error", "suspended", "expired", "disabled")
  .annotations({ identifier: "AccountStatus" })
export type AccountStatus = typeof AccountStatus.Type

export const StatusReason = Schema.Struct({
  code: Schema.String,
  description: Schema.String,
  timestamp: Schema.String
}).annotations({ identifier: "StatusReason" })

export const AccountExpansion = Schema.Literal("connector", "connector_profile", "last_request", "actions")
export type AccountExpansion = typeof AccountExpansion.Type

export const AccountConnector = Schema.Struct({
  key: Schema.String,
  version: Schema.NullOr(Schema.String),
  title: Schema.String,
  description: Schema.NullOr(Schema.String)
}).annotations({ identifier: "AccountConnector" })
export type AccountConnector = typeof AccountConnector.Type

export const AccountConnectorProfile = Schema.Struct({
  id: Schema.String,
  label: Schema.String
}).annotations({ identifier: "AccountConnectorProfile" })
export type AccountConnectorProfile = typeof AccountConnectorProfile.Type

export const AccountAction = Schema.Struct({
  id: Schema.String,
  label: Schema.String,
  description: Schema.NullOr(Schema.String),
  enabled: Schema.Boolean
}).annotations({ identifier: "AccountAction" })
export type AccountAction = typeof AccountAction.Type

export const Account = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  owner_id: Schema.String,
  owner_name: Schema.NullOr(Schema.String),
  owner_username: Schema.NullOr(Schema.String),
  connector_key: Schema.String,
  connector_version: Schema.NullOr(Schema.String),
  connector_profile_id: Schema.NullOr(Schema.String),
  status: AccountStatus,
  status_reasons: Schema.Array(StatusReason),
  settings: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  label: Schema.NullOr(Schema.String),
  metadata: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })).annotations({
    description: "What the connect session that linked the account carried"
  }),
  linked_via: Schema.Literal("api", "connect_session").annotations({
    description: "How the credentials were last linked: POST /v2/accounts, or an end user through a connect session"
  }),
  connect_session_id: Schema.NullOr(Schema.String),
  connected_at: Schema.String,
  created_at: Schema.String,
  updated_at: Schema.String,
  connector: Schema.NullOr(AccountConnector),
  connector_profile: Schema.NullOr(AccountConnectorProfile),
  last_request: Schema.NullOr(Schema.String).annotations({
    description: "When the account was last active (requests and action runs); null unless expanded or never active"
  }),
  actions: Schema.NullOr(Schema.Array(AccountAction))
}).annotations({ identifier: "Account" })
export type Account = typeof Account.Type

export const AccountsPage = PageOf(Account, "AccountsPage")

const expand = Schema.optional(expandParam(AccountExpansion))

export const ListAccountsParams = Schema.Struct({
  expand,
  page: Schema.optional(PageNumber),
  page_size: Schema.optional(PageSize),
  account_id: Schema.optional(commaSeparated(Schema.String)),
  connector_key: Schema.optional(commaSeparated(Schema.String)),
  status: Schema.optional(commaSeparated(AccountStatus)),
  owner_id: Schema.optional(commaSeparated(Schema.String)),
  search: Schema.optional(Schema.String),
  connector_profile_id: Schema.optional(commaSeparated(Uuid)),
  capability: Schema.optional(Schema.String)
})
export type ListAccountsParams = typeof ListAccountsParams.Type

export const FilterOption = Schema.Struct({ value: Schema.String, label: Schema.String })

export const AccountFilters = Schema.Struct({
  connector_keys: Schema.Array(FilterOption),
  account_ids: Schema.Array(FilterOption),
  owner_ids: Schema.Array(FilterOption),
  statuses: Schema.Array(FilterOption)
}).annotations({ identifier: "AccountFilters" })

export const StatusReasonInput = Schema.Struct({
  code: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)),
  description: Schema.String.pipe(Schema.maxLength(2000)),
  timestamp: Schema.optional(Schema.DateTimeUtc)
})

export const PatchAccount = Schema.Struct({
  status: Schema.optional(AccountStatus),
  status_reasons: Schema.optional(Schema.Array(StatusReasonInput).pipe(Schema.maxItems(50)))
}).annotations({ identifier: "PatchAccount", ...strictObject })
export type PatchAccount = typeof PatchAccount.Type

const JsonObject = Schema.Record({ key: Schema.String, value: Schema.Unknown })

const text = (max: number) => Schema.String.pipe(Schema.minLength(1), Schema.maxLength(max))

export const CreateAccount = Schema.Struct({
  connector_key: Schema.String.pipe(
    Schema.pattern(/^[a-z0-9_-]{1,100}$/, { message: () => "connector_key must match [a-z0-9_-]{1,100}" })
  ),
  connector_version: Schema.optional(text(100)),
  connector_profile_id: Schema.optional(Uuid),
  name: text(200),
  owner_id: text(200),
  owner_name: Schema.optional(text(200)),
  owner_username: Schema.optional(text(200)),
  auth_method: Schema.optional(text(100)).annotations({
    description: "The connector's authentication method the credentials are for (a name from GET /v2/connectors/{id}); " +
      "without it, the one method, or the first the credentials fit"
  }),
  credentials: JsonObject.annotations({
    description: "Provider credentials: the chosen authentication method's config fields (GET /v2/connectors/{id}), " +
      "checked at link time (400 naming each missing or unknown field); stored encrypted, never returned"
  }),
  settings: Schema.optional(JsonObject)
}).annotations({ identifier: "CreateAccount", ...strictObject })
export type CreateAccount = typeof CreateAccount.Type

/** A unified operation an account can serve, as its endpoint is called. */
export const AccountMetaOperation = Schema.Struct({
  id: Schema.String.annotations({ description: "The operation id, also the connector action it runs" }),
  method: Schema.String,
  path: Schema.String.annotations({ description: "The unified endpoint, path parameters in braces" })
}).annotations({ identifier: "AccountMetaOperation" })
export type AccountMetaOperation = typeof AccountMetaOperation.Type

/**
 * What an account can do (StackOne's `GET /accounts/{id}/meta`: provider, category, models):
 * its connector, its categories and, per unified model, the operations its connector version
 * implements and its connector profile enables.
 */
export const AccountMeta = Schema.Struct({
  provider: Schema.String.annotations({ description: "The connector key" }),
  provider_name: Schema.String.annotations({ description: "The connector's title" }),
  connector: Schema.Struct({ key: Schema.String, version: Schema.String }).annotations({
    description: "The connector version the account's calls run on (through its profile when it has one)"
  }),
  category: Schema.NullOr(Schema.String).annotations({ description: "The connector's first category" }),
  categories: Schema.Array(Schema.String),
  models: Schema.Record({
    key: Schema.String,
    value: Schema.Struct({ category: Schema.String, operations: Schema.Array(AccountMetaOperation) })
  }).annotations({
    description: "Unified models the account can serve, keyed <category>_<model> (ats_applications), with their operations"
  }),
  operations: Schema.Array(AccountMetaOperation).annotations({
    description: "Every unified operation the account can serve"
  })
}).annotations({ identifier: "AccountMeta" })
export type AccountMeta = typeof AccountMeta.Type

const AccountId = HttpApiSchema.param("id", Schema.String)
const ExpandParams = Schema.Struct({ expand })

export class AccountsGroup extends HttpApiGroup.make("accounts")
  .add(
    HttpApiEndpoint.get("list_accounts", "/v2/accounts")
      .setUrlParams(ListAccountsParams)
      .addSuccess(Schema.Union(AccountsPage, Schema.Array(Account)))
      .annotate(OpenApi.Summary, "List accounts")
      .annotate(
        OpenApi.Description,
        "The project's linked accounts, never their credentials. Filters take comma-separated or repeated values; `search` matches the account name or owner username (case-insensitive). Paginated envelope `{data, page, page_size, total, next_page}` (`page` from 1, `page_size` 1..100, default 25), or a bare array of every match when page and page_size are both omitted"
      )
  )
  .add(
    HttpApiEndpoint.get("list_account_filters", "/v2/accounts/filters")
      .addSuccess(AccountFilters)
      .annotate(OpenApi.Summary, "List the values to filter accounts by")
      .annotate(
        OpenApi.Description,
        "The distinct connector keys (labelled with the connector's title), account ids (labelled with the account name), owner ids and statuses among the project's accounts, as `{value, label}` options for filter pickers; pass the values to list_accounts"
      )
  )
  .add(
    HttpApiEndpoint.get("get_account")`/v2/accounts/${AccountId}`
      .setUrlParams(ExpandParams)
      .addSuccess(Account)
      .annotate(OpenApi.Summary, "Get an account")
      .annotate(
        OpenApi.Description,
        "One linked account of the project (404 otherwise), never its credentials. `expand` adds `connector`, `connector_profile`, `last_request` (when the account was last active) and `actions` (each flagged with whether its connector profile enables it); they are null unless expanded"
      )
  )
  .add(
    HttpApiEndpoint.get("get_account_meta")`/v2/accounts/${AccountId}/meta`
      .addSuccess(AccountMeta)
      .annotate(OpenApi.Summary, "Get what an account can do")
      .annotate(
        OpenApi.Description,
        "The account's connector, categories and the unified operations it can serve (implemented by its connector version and enabled by its connector profile)"
      )
  )
  .add(
    HttpApiEndpoint.patch("patch_account")`/v2/accounts/${AccountId}`
      .setUrlParams(ExpandParams)
      .setPayload(PatchAccount)
      .addSuccess(Account)
      .annotate(OpenApi.Summary, "Change an account's status")
      .annotate(
        OpenApi.Description,
        "Sets `status` and/or `status_reasons` (at least one, else 422; a reason without `timestamp` gets the current time) and answers the account; webhooks hear `account.updated`. A suspended, expired or disabled account answers 412 to actions and unified calls until it is active again"
      )
  )
  .add(
    HttpApiEndpoint.del("delete_account")`/v2/accounts/${AccountId}`
      .addSuccess(HttpApiSchema.NoContent)
      .annotate(OpenApi.Summary, "Delete an account")
      .annotate(
        OpenApi.Description,
        "Removes the linked account with its stored credentials: 204, or 404 for an id the project does not have; webhooks hear `account.deleted`"
      )
  )
  .add(
    HttpApiEndpoint.post("create_account", "/v2/accounts")
      .setPayload(CreateAccount)
      .addSuccess(Account, { status: 201 })
      .annotate(OpenApi.Summary, "Link an account")
      .annotate(OpenApi.Description, "Link an account from server-side code (beyond the spec)")
  )
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Linked accounts: a customer's connection to one provider, with its credentials stored encrypted and never returned")
{}
