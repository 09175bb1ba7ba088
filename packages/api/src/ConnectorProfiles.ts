import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authentication } from "./Authentication.js"
import { commaSeparated, expandParam, PageNumber, PageOf, PageSize, strictObject, Uuid } from "./Params.js"

export const ProfileConnector = Schema.Struct({
  key: Schema.String,
  owner: Schema.Literal("builtin", "custom"),
  title: Schema.String,
  description: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ProfileConnector" })

export const ConnectorProfile = Schema.Struct({
  id: Schema.String,
  connector_key: Schema.String,
  version_spec: Schema.String.annotations({ description: "exact version, latest, or a semver range such as 1.x" }),
  label: Schema.String,
  active: Schema.Boolean,
  enabled_actions: Schema.Array(Schema.String),
  account_settings: Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
    description: "Settings every account linked through the profile receives (e.g. base_url)"
  }),
  setup_fields_set: Schema.Array(Schema.String).annotations({
    description: "Which setup fields (the project's OAuth app) are stored; their values are never shown"
  }),
  created_at: Schema.String,
  updated_at: Schema.String,
  connector: Schema.NullOr(ProfileConnector),
  version: Schema.NullOr(Schema.String).annotations({ description: "The version the profile resolves to now" }),
  accounts_count: Schema.NullOr(Schema.Int),
  enabled_actions_count: Schema.NullOr(Schema.Int)
}).annotations({ identifier: "ConnectorProfile" })
export type ConnectorProfile = typeof ConnectorProfile.Type

export const ConnectorProfilesPage = PageOf(ConnectorProfile, "ConnectorProfilesPage")

export const ProfileExpansion = Schema.Literal("connector", "version", "accounts_count", "enabled_actions_count")
export type ProfileExpansion = typeof ProfileExpansion.Type

const BooleanFromText = Schema.transformLiterals(["true", true], ["false", false])

export const ListConnectorProfilesParams = Schema.Struct({
  page: Schema.optional(PageNumber),
  page_size: Schema.optional(PageSize),
  connector_key: Schema.optional(commaSeparated(Schema.String)),
  active: Schema.optional(BooleanFromText),
  expand: Schema.optional(expandParam(ProfileExpansion))
})
export type ListConnectorProfilesParams = typeof ListConnectorProfilesParams.Type

const VersionSpec = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))
const ActionIds = Schema.Array(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))).pipe(
  Schema.maxItems(1000)
)

const AccountSettings = Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
  description: "Settings every account linked through the profile receives, such as base_url"
})

/** The connector's setupFields (the project's OAuth app): stored encrypted, never shown again. */
const SetupValues = Schema.Record({ key: Schema.String, value: Schema.String.pipe(Schema.maxLength(10_000)) }).annotations({
  description: "Values of the connector's setupFields, such as clientId and clientSecret; write-only"
})

export const CreateConnectorProfile = Schema.Struct({
  connector_key: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)),
  label: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  version: Schema.optional(VersionSpec).annotations({ description: "default latest" }),
  active: Schema.optional(Schema.Boolean),
  enabled_actions: Schema.optional(ActionIds).annotations({ description: "default: every action of the version" }),
  account_settings: Schema.optional(AccountSettings),
  setup: Schema.optional(SetupValues)
}).annotations({ identifier: "CreateConnectorProfile", ...strictObject })
export type CreateConnectorProfile = typeof CreateConnectorProfile.Type

export const UpdateConnectorProfile = Schema.Struct({
  label: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))),
  version: Schema.optional(VersionSpec),
  active: Schema.optional(Schema.Boolean),
  enabled_actions: Schema.optional(ActionIds),
  account_settings: Schema.optional(AccountSettings),
  setup: Schema.optional(SetupValues)
}).annotations({ identifier: "UpdateConnectorProfile", ...strictObject })
export type UpdateConnectorProfile = typeof UpdateConnectorProfile.Type

const ProfileId = HttpApiSchema.param("id", Uuid)
const AllExpansions = Schema.Struct({ expand: Schema.optional(expandParam(ProfileExpansion)) })
/** `enabled_actions_count` is not expandable on create: read it back with GET. */
const CreateExpansions = Schema.Struct({
  expand: Schema.optional(expandParam(Schema.Literal("connector", "version", "accounts_count")))
})

export class ConnectorProfilesGroup extends HttpApiGroup.make("connector_profiles")
  .add(
    HttpApiEndpoint.get("list_connector_profiles", "/v2/connector_profiles")
      .setUrlParams(ListConnectorProfilesParams)
      .addSuccess(Schema.Union(ConnectorProfilesPage, Schema.Array(ConnectorProfile)))
      .annotate(OpenApi.Summary, "List connector profiles")
      .annotate(
        OpenApi.Description,
        "The project's connector profiles; filter by `connector_key` (comma-separated or repeated) and `active`. `expand` adds `connector`, `version` (the version the profile resolves to now), `accounts_count` and `enabled_actions_count` (null unless expanded). Paginated envelope when page or page_size is given, else a bare array"
      )
  )
  .add(
    HttpApiEndpoint.post("create_connector_profile", "/v2/connector_profiles")
      .setUrlParams(CreateExpansions)
      .setPayload(CreateConnectorProfile)
      .addSuccess(ConnectorProfile, { status: 201 })
      .annotate(OpenApi.Summary, "Create a connector profile")
      .annotate(
        OpenApi.Description,
        "How the project uses one connector: the version its accounts run (exact, `latest` or a semver range such as 1.x; default latest), the actions they may run (default every action of that version), `account_settings` every account linked through it receives, and `setup` values (the project's OAuth app) stored encrypted and never shown again. A version or action id the connector does not have is 422 naming it; `enabled_actions_count` cannot be expanded here (read it back with GET)"
      )
  )
  .add(
    HttpApiEndpoint.get("get_connector_profile")`/v2/connector_profiles/${ProfileId}`
      .setUrlParams(AllExpansions)
      .addSuccess(ConnectorProfile)
      .annotate(OpenApi.Summary, "Get a connector profile")
      .annotate(
        OpenApi.Description,
        "One profile of the project by id (a UUID; 404 otherwise). Its `setup` values are never shown: `setup_fields_set` names the ones stored"
      )
  )
  .add(
    HttpApiEndpoint.patch("update_connector_profile")`/v2/connector_profiles/${ProfileId}`
      .setUrlParams(AllExpansions)
      .setPayload(UpdateConnectorProfile)
      .addSuccess(ConnectorProfile)
      .annotate(OpenApi.Summary, "Update a connector profile")
      .annotate(
        OpenApi.Description,
        "Changes only the fields given; accounts linked through the profile run on what it resolves to from their next call. `active: false` switches the integration off (its accounts' calls answer 412); a version or action id the connector does not have is 422"
      )
  )
  .add(
    HttpApiEndpoint.del("delete_connector_profile")`/v2/connector_profiles/${ProfileId}`
      .addSuccess(HttpApiSchema.NoContent)
      .annotate(OpenApi.Summary, "Delete a connector profile")
      .annotate(
        OpenApi.Description,
        "204; a profile that accounts still link through is 409 (relink or delete them first)"
      )
  )
  .middleware(Authentication)
  .annotate(OpenApi.Description, "How a project uses a connector: the version its accounts run, the actions they may run, shared account settings and the project's OAuth app")
{}
