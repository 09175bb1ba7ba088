import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authentication } from "./Authentication.js"
import { commaSeparated, expandParam, PageNumber, PageOf, PageSize, strictObject } from "./Params.js"

/** Who publishes a connector: the platform (`builtin`) or the calling project (`custom`). */
export const ConnectorOwner = Schema.Literal("builtin", "custom").annotations({ identifier: "ConnectorOwner" })
export type ConnectorOwner = typeof ConnectorOwner.Type

export const ConfigField = Schema.Struct({
  key: Schema.String,
  label: Schema.NullOr(Schema.String),
  type: Schema.NullOr(Schema.String),
  required: Schema.Boolean,
  secret: Schema.Boolean,
  placeholder: Schema.NullOr(Schema.String),
  description: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ConfigField" })

export const AuthenticationMethod = Schema.Struct({
  key: Schema.String,
  type: Schema.String,
  label: Schema.NullOr(Schema.String),
  authorization_type: Schema.NullOr(Schema.String),
  config_fields: Schema.Array(ConfigField)
}).annotations({ identifier: "AuthenticationMethod", description: "How an account authenticates; never carries secrets" })

export const ActionInput = Schema.Struct({
  name: Schema.String,
  type: Schema.String,
  in: Schema.NullOr(Schema.String),
  required: Schema.Boolean,
  array: Schema.Boolean,
  description: Schema.NullOr(Schema.String),
  values: Schema.NullOr(Schema.Array(Schema.String))
}).annotations({ identifier: "ActionInput" })

export const ConnectorActionSummary = Schema.Struct({
  id: Schema.String,
  label: Schema.String,
  description: Schema.NullOr(Schema.String),
  action_type: Schema.String,
  categories: Schema.Array(Schema.String),
  required_scopes: Schema.Array(Schema.String),
  inputs: Schema.Array(ActionInput),
  enabled: Schema.NullOr(Schema.Boolean).annotations({
    description: "Whether the action is enabled for the given connector profile; null without one"
  })
}).annotations({ identifier: "ConnectorActionSummary" })
export type ConnectorActionSummary = typeof ConnectorActionSummary.Type

export const ScopeDefinition = Schema.Struct({
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  includes: Schema.Array(Schema.String)
}).annotations({ identifier: "ScopeDefinition" })

export const ConnectorActions = Schema.Struct({
  actions: Schema.Array(ConnectorActionSummary),
  event_actions: Schema.Array(ConnectorActionSummary),
  scope_definitions: Schema.Array(ScopeDefinition)
}).annotations({ identifier: "ConnectorActions" })

export const ConnectorVersion = Schema.Struct({
  key: Schema.String,
  version: Schema.String,
  owner: ConnectorOwner,
  content_hash: Schema.String,
  created_at: Schema.String
}).annotations({ identifier: "ConnectorVersion" })
export type ConnectorVersion = typeof ConnectorVersion.Type

export const ChangelogEntry = Schema.Struct({
  version: Schema.String,
  summary: Schema.String,
  labels: Schema.Array(Schema.String),
  release_date: Schema.String,
  affected_actions: Schema.Array(Schema.String)
}).annotations({ identifier: "ChangelogEntry" })
export type ChangelogEntry = typeof ChangelogEntry.Type

export const McpAuth = Schema.Literal("none", "token", "oauth")

export const VerificationLevel = Schema.Literal("contract", "documentation", "community").annotations({
  identifier: "VerificationLevel",
  description:
    "contract: checked against the provider's published OpenAPI document (`document`); documentation: against a look-alike of the provider built from its documentation pages (`sources`); community: not checked by the platform"
})
export type VerificationLevel = typeof VerificationLevel.Type

export const ConnectorVerification = Schema.Struct({
  level: VerificationLevel,
  document: Schema.NullOr(Schema.String).annotations({
    description:
      "contract level: the provider's OpenAPI document the connector was checked against, as a path in the Switchyard repository (packages/connectors/provider-documents/…), the first of `documents` when there are several; null otherwise"
  }),
  documents: Schema.Array(Schema.String).annotations({
    description:
      "contract level: every provider document the connector was checked against, as paths like `document`'s (several where the provider publishes its API in several documents, each request held to the one that has its path); empty otherwise"
  }),
  document_url: Schema.NullOr(Schema.String).annotations({
    description: "contract level: where that document was taken from; null otherwise"
  }),
  sources: Schema.Array(Schema.String).annotations({
    description: "The provider's documentation pages the connector follows (at least one at documentation level)"
  })
}).annotations({
  identifier: "ConnectorVerification",
  description:
    "How this connector version was checked against its provider. A built-in connector says so in its definition (`info.verification`; community when it does not). A custom connector is always community: the server cannot vouch for an uploaded file, whatever its definition claims"
})
export type ConnectorVerification = typeof ConnectorVerification.Type

export const Connector = Schema.Struct({
  id: Schema.String.annotations({ description: "key@version~owner" }),
  key: Schema.String,
  version: Schema.String,
  owner: ConnectorOwner,
  title: Schema.String,
  description: Schema.NullOr(Schema.String),
  categories: Schema.Array(Schema.String),
  documentation_url: Schema.NullOr(Schema.String),
  icon_url: Schema.NullOr(Schema.String),
  authentication_methods: Schema.Array(AuthenticationMethod),
  verification: ConnectorVerification,
  mcp_server_url: Schema.NullOr(Schema.String),
  mcp_auth: Schema.NullOr(McpAuth),
  content_hash: Schema.String,
  created_at: Schema.String,
  actions: Schema.NullOr(ConnectorActions),
  versions: Schema.NullOr(Schema.Array(ConnectorVersion)),
  changelog: Schema.NullOr(Schema.Array(ChangelogEntry)),
  accounts_count: Schema.NullOr(Schema.Int),
  connector_profiles_count: Schema.NullOr(Schema.Int),
  enabled_actions_count: Schema.NullOr(Schema.Int)
}).annotations({ identifier: "Connector" })
export type Connector = typeof Connector.Type

export const ConnectorsPage = PageOf(Connector, "ConnectorsPage")

export const ConnectorExpansion = Schema.Literal(
  "actions",
  "versions",
  "changelog",
  "accounts_count",
  "connector_profiles_count"
)
export type ConnectorExpansion = typeof ConnectorExpansion.Type

export const ListConnectorsParams = Schema.Struct({
  page: Schema.optional(PageNumber),
  page_size: Schema.optional(PageSize),
  key: Schema.optional(commaSeparated(Schema.String)),
  category: Schema.optional(commaSeparated(Schema.String)),
  expand: Schema.optional(expandParam(Schema.Literal("accounts_count", "connector_profiles_count")))
})
export type ListConnectorsParams = typeof ListConnectorsParams.Type

const expand = Schema.optional(expandParam(ConnectorExpansion))

export const GetConnectorParams = Schema.Struct({
  version: Schema.optional(Schema.String),
  owner: Schema.optional(Schema.String),
  connector_profile_id: Schema.optional(Schema.String),
  expand
})
export type GetConnectorParams = typeof GetConnectorParams.Type

export const CreateConnectorParams = Schema.Struct({ expand })

export const RegisterFromMcpServer = Schema.Struct({
  mcp_server_url: Schema.String.pipe(
    Schema.pattern(/^https?:\/\//, { message: () => "mcp_server_url must start with http:// or https://" }),
    Schema.maxLength(2048)
  ),
  title: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))),
  force: Schema.optional(Schema.Literal(false))
}).annotations({ identifier: "RegisterFromMcpServer", ...strictObject })

export const RegisterFromYaml = Schema.Struct({
  yaml: Schema.String.pipe(Schema.minLength(1)),
  force: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "RegisterFromYaml", ...strictObject })

export const CreateConnector = Schema.Union(RegisterFromYaml, RegisterFromMcpServer).annotations({
  identifier: "CreateConnector",
  description: "Exactly one of: {yaml, force?} or {mcp_server_url, title?, force?}"
})
export type CreateConnector = typeof CreateConnector.Type

export const ActionDetailParams = Schema.Struct({
  version: Schema.optional(Schema.String),
  owner: Schema.optional(Schema.String),
  expand: Schema.optional(expandParam(Schema.Literal("steps", "result")))
})
export type ActionDetailParams = typeof ActionDetailParams.Type

export const ConnectorActionDetail = Schema.Struct({
  id: Schema.String,
  connector_key: Schema.String,
  connector_version: Schema.String,
  owner: ConnectorOwner,
  label: Schema.String,
  description: Schema.NullOr(Schema.String),
  details: Schema.NullOr(Schema.String),
  action_type: Schema.String,
  categories: Schema.Array(Schema.String),
  required_scopes: Schema.Array(Schema.String),
  inputs: Schema.Array(ActionInput),
  steps: Schema.NullOr(Schema.Array(Schema.Unknown)),
  result: Schema.NullOr(Schema.Unknown)
}).annotations({ identifier: "ConnectorActionDetail" })
export type ConnectorActionDetail = typeof ConnectorActionDetail.Type

const ConnectorId = HttpApiSchema.param("id", Schema.String)
const ActionId = HttpApiSchema.param("actionId", Schema.String)
const EventId = HttpApiSchema.param("eventId", Schema.String)

export class ConnectorsGroup extends HttpApiGroup.make("connectors")
  .add(
    HttpApiEndpoint.post("create_connector", "/v2/connectors")
      .setUrlParams(CreateConnectorParams)
      .setPayload(CreateConnector)
      .addSuccess(Connector, { status: 201 })
      .annotate(OpenApi.Summary, "Register a custom connector")
      .annotate(
        OpenApi.Description,
        "A new connector version for this project only, which takes precedence over a built-in with the same key. From YAML (`{yaml, force?}`): the version must be new and semver-greater than the latest unless `force`; the same version with identical content answers the stored one, with other content 409 while the project keeps versions immutable (its default); a document over the bounds, with an invalid expression or duplicate keys is 422 naming each path with its line and column. From an MCP server (`{mcp_server_url, title?}`): the server is probed for how it authenticates and the connector is created without actions; it must be a public address unless SWITCHYARD_OUTBOUND_ALLOWLIST allows it"
      )
  )
  .add(
    HttpApiEndpoint.get("list_connectors", "/v2/connectors")
      .setUrlParams(ListConnectorsParams)
      .addSuccess(Schema.Union(ConnectorsPage, Schema.Array(Connector)))
      .annotate(OpenApi.Summary, "List connectors")
      .annotate(
        OpenApi.Description,
        "The catalog: the latest version of every built-in connector and of each of the project's custom ones, by key (a custom connector before a built-in of the same key). Filter by `key` and `category` (comma-separated or repeated); `expand=accounts_count,connector_profiles_count` adds usage counts and sorts by usage, highest first. Each connector's `authentication_methods[].config_fields` are the credentials an account of it needs. Paginated envelope when page or page_size is given, else a bare array"
      )
  )
  .add(
    HttpApiEndpoint.get("get_connector")`/v2/connectors/${ConnectorId}`
      .setUrlParams(GetConnectorParams)
      .addSuccess(Connector)
      .annotate(OpenApi.Summary, "Get a connector")
      .annotate(
        OpenApi.Description,
        "Id form key[@version][~owner]; owner wildcards builtin and custom; the `version` (or `latest`) and `owner` parameters override the id's, and the highest stable version is used when none is given. `expand` adds actions, versions, changelog and usage counts (null unless expanded); `connector_profile_id` (only with `expand=actions`, else 400) flags each action enabled or not for that profile, enabled ones first. A key the project cannot see is 404"
      )
  )
  .add(
    HttpApiEndpoint.del("delete_connector")`/v2/connectors/${ConnectorId}`
      .addSuccess(HttpApiSchema.NoContent)
      .annotate(OpenApi.Summary, "Delete a custom connector version")
      .annotate(
        OpenApi.Description,
        "Id must be exactly key@version of a custom connector: a built-in version is 403, a version a connector profile resolves to or accounts are linked to is 409"
      )
  )
  .add(
    HttpApiEndpoint.get("list_connector_versions")`/v2/connectors/${ConnectorId}/versions`
      .addSuccess(Schema.Array(ConnectorVersion))
      .annotate(OpenApi.Summary, "List a connector's versions")
      .annotate(
        OpenApi.Description,
        "Every registry version of the connector the project can see, built-in and custom, newest first (the versions a connector profile may pin); only the key part of the id is used, and a key the project cannot see is 404"
      )
  )
  .add(
    HttpApiEndpoint.get("get_connector_action")`/v2/connectors/${ConnectorId}/actions/${ActionId}`
      .setUrlParams(ActionDetailParams)
      .addSuccess(ConnectorActionDetail)
      .annotate(OpenApi.Summary, "Get a connector action")
      .annotate(
        OpenApi.Description,
        "One action's definition: its inputs, categories and required scopes, and with `expand=steps,result` the steps it runs and the result it maps (null unless expanded). The connector id, `version` and `owner` resolve as in get_connector; an unknown action is 404"
      )
  )
  .add(
    HttpApiEndpoint.get("get_connector_event_action")`/v2/connectors/${ConnectorId}/event_actions/${EventId}`
      .setUrlParams(ActionDetailParams)
      .addSuccess(ConnectorActionDetail)
      .annotate(OpenApi.Summary, "Get a connector event action")
      .annotate(
        OpenApi.Description,
        "How the connector processes an event its provider sends (the inbound counterpart of an action), in the shape and with the query parameters of get_connector_action; an unknown event action is 404"
      )
  )
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Connector definitions (StackOne-compatible YAML, versioned by semver): the built-in catalog and the project's custom connectors")
{}
