import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authentication } from "./Authentication.js"
import { isHttpUrl, strictObject, Uuid } from "./Params.js"

/** The unified categories a session may narrow its connectors to. */
export const ConnectCategory = Schema.Literal("ats", "hris", "lms").annotations({ identifier: "ConnectCategory" })
export type ConnectCategory = typeof ConnectCategory.Type

export const ConnectSessionStatus = Schema.Literal("pending", "completed", "expired", "failed")
  .annotations({ identifier: "ConnectSessionStatus" })
export type ConnectSessionStatus = typeof ConnectSessionStatus.Type

export const CONNECT_SESSION_DEFAULT_EXPIRES_IN = 1800
export const CONNECT_SESSION_MIN_EXPIRES_IN = 60
export const CONNECT_SESSION_MAX_EXPIRES_IN = 7 * 24 * 3600

const text = (max: number) => Schema.String.pipe(Schema.minLength(1), Schema.maxLength(max))

const JsonObject = Schema.Record({ key: Schema.String, value: Schema.Unknown })

const HttpUrl = Schema.String.pipe(
  Schema.maxLength(2000),
  Schema.filter(isHttpUrl, { message: () => "must be an absolute http or https URL" })
)

export const CreateConnectSession = Schema.Struct({
  origin_owner_id: text(200),
  origin_owner_name: text(200),
  origin_username: Schema.optional(text(200)),
  provider: Schema.optional(Schema.String.pipe(
    Schema.pattern(/^[a-z0-9_-]{1,100}$/, { message: () => "provider must be a connector key ([a-z0-9_-]{1,100})" })
  )),
  categories: Schema.optional(Schema.Array(ConnectCategory).pipe(Schema.maxItems(3))),
  connector_profile_id: Schema.optional(Uuid),
  account_id: Schema.optional(text(200)),
  multiple: Schema.optional(Schema.Boolean),
  label: Schema.optional(text(200)),
  metadata: Schema.optional(JsonObject),
  expires_in: Schema.optional(
    Schema.Int.pipe(
      Schema.between(CONNECT_SESSION_MIN_EXPIRES_IN, CONNECT_SESSION_MAX_EXPIRES_IN, {
        message: () =>
          `expires_in must be a whole number of seconds between ${CONNECT_SESSION_MIN_EXPIRES_IN} and ${CONNECT_SESSION_MAX_EXPIRES_IN}`
      })
    ).annotations({ description: `Seconds the token stays valid (default ${CONNECT_SESSION_DEFAULT_EXPIRES_IN})` })
  ),
  redirect_url: Schema.optional(HttpUrl)
}).annotations({ identifier: "CreateConnectSession", ...strictObject })
export type CreateConnectSession = typeof CreateConnectSession.Type

/** The fields every view of a session shows. */
const sessionFields = {
  id: Schema.String,
  organization_id: Schema.String,
  project_id: Schema.String,
  origin_owner_id: Schema.String,
  origin_owner_name: Schema.String,
  origin_username: Schema.NullOr(Schema.String),
  provider: Schema.NullOr(Schema.String),
  categories: Schema.Array(ConnectCategory),
  connector_profile_id: Schema.NullOr(Schema.String),
  account_id: Schema.NullOr(Schema.String).annotations({
    description: "The account to re-link in place, or once completed the account the session linked"
  }),
  multiple: Schema.Boolean,
  label: Schema.NullOr(Schema.String),
  metadata: Schema.NullOr(JsonObject),
  redirect_url: Schema.NullOr(Schema.String),
  expires_at: Schema.String,
  created_at: Schema.String
}

/** The create answer: the only time the token is shown. */
export const CreatedConnectSession = Schema.Struct({
  ...sessionFields,
  token: Schema.String.annotations({ description: "Shown once; only its hash is stored" }),
  auth_link_url: Schema.String
}).annotations({ identifier: "CreatedConnectSession" })
export type CreatedConnectSession = typeof CreatedConnectSession.Type

export const ConnectSession = Schema.Struct({
  ...sessionFields,
  status: ConnectSessionStatus,
  failure_reason: Schema.NullOr(Schema.String).annotations({ description: "Why a failed session failed" })
}).annotations({ identifier: "ConnectSession" })
export type ConnectSession = typeof ConnectSession.Type

/** A field the end user fills in on the connect page (a connector's `configFields`). */
export const ConnectField = Schema.Struct({
  key: Schema.String,
  label: Schema.String,
  type: Schema.String.annotations({ description: "text, password, number, url, email; secrets are password" }),
  required: Schema.Boolean,
  secret: Schema.Boolean,
  placeholder: Schema.NullOr(Schema.String),
  description: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ConnectField" })
export type ConnectField = typeof ConnectField.Type

/** How an account of the connector is linked: a form of fields, or OAuth2 (then fields come first, if any). */
export const ConnectAuthMethod = Schema.Struct({
  name: Schema.String,
  type: Schema.Literal("custom", "oauth2"),
  label: Schema.String,
  fields: Schema.Array(ConnectField)
}).annotations({ identifier: "ConnectAuthMethod" })
export type ConnectAuthMethod = typeof ConnectAuthMethod.Type

/** A connector the session may link: a profile of the project, or a connector when it has none. */
export const ConnectSessionConnector = Schema.Struct({
  key: Schema.String,
  name: Schema.String.annotations({ description: "The provider's name (the connector's title), whatever the profile is called" }),
  profile_label: Schema.NullOr(Schema.String).annotations({
    description: "The profile's label, shown as secondary text under the provider's name; null without a profile or label"
  }),
  categories: Schema.Array(Schema.String),
  connector_profile_id: Schema.NullOr(Schema.String),
  icon_url: Schema.String.annotations({ description: "Served by this server (no third-party request from the page)" }),
  authentication: Schema.Array(ConnectAuthMethod)
}).annotations({ identifier: "ConnectSessionConnector" })
export type ConnectSessionConnector = typeof ConnectSessionConnector.Type

export const AuthenticatedConnectSession = Schema.Struct({
  ...ConnectSession.fields,
  connectors: Schema.Array(ConnectSessionConnector)
}).annotations({ identifier: "AuthenticatedConnectSession" })
export type AuthenticatedConnectSession = typeof AuthenticatedConnectSession.Type

export const AuthenticateConnectSession = Schema.Struct({
  token: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))
}).annotations({ identifier: "AuthenticateConnectSession", ...strictObject })

/** Which connector (and profile and method) the end user picked on the page. */
const pickedConnector = {
  token: AuthenticateConnectSession.fields.token,
  connector_key: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)),
  connector_profile_id: Schema.optional(Schema.NullOr(Uuid)),
  auth_method: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)))
}

const FieldValues = Schema.Record({ key: Schema.String, value: Schema.String.pipe(Schema.maxLength(10_000)) })

export const LinkConnectAccount = Schema.Struct({
  ...pickedConnector,
  credentials: FieldValues.annotations({ description: "The method's fields; checked with the connector's testActions before anything is stored" })
}).annotations({ identifier: "LinkConnectAccount", ...strictObject })
export type LinkConnectAccount = typeof LinkConnectAccount.Type

export const StartConnectOAuth2 = Schema.Struct({
  ...pickedConnector,
  credentials: Schema.optional(FieldValues)
}).annotations({ identifier: "StartConnectOAuth2", ...strictObject })
export type StartConnectOAuth2 = typeof StartConnectOAuth2.Type

/** A session completed: the account it created or updated, and where the page sends the browser. */
export const ConnectLinked = Schema.Struct({
  account_id: Schema.String,
  connector_key: Schema.String,
  redirect_url: Schema.NullOr(Schema.String).annotations({ description: "The session's redirect_url with account_id added" })
}).annotations({ identifier: "ConnectLinked" })
export type ConnectLinked = typeof ConnectLinked.Type

export const ConnectOAuth2Started = Schema.Struct({
  authorization_url: Schema.String.annotations({ description: "The provider's consent page; valid 10 minutes, once" })
}).annotations({ identifier: "ConnectOAuth2Started" })
export type ConnectOAuth2Started = typeof ConnectOAuth2Started.Type

const SessionId = HttpApiSchema.param("id", Schema.String)

export class ConnectSessionsGroup extends HttpApiGroup.make("connect_sessions")
  .add(
    HttpApiEndpoint.post("create_connect_session", "/connect_sessions")
      .setPayload(CreateConnectSession)
      .addSuccess(CreatedConnectSession, { status: 201 })
      .middleware(Authentication)
      .annotate(OpenApi.Summary, "Create a connect session")
      .annotate(OpenApi.Description, "Start linking an account for an end user; call it from server-side code only. Answers the session's `token` (shown once) and `auth_link_url`, the hosted connect page to send the end user to; the token links one account and expires after `expires_in` seconds (default 1800, at most 7 days)")
  )
  .add(
    HttpApiEndpoint.post("authenticate_connect_session", "/connect_sessions/authenticate")
      .setPayload(AuthenticateConnectSession)
      .addSuccess(AuthenticatedConnectSession)
      .annotate(OpenApi.Summary, "Open a connect session by its token")
      .annotate(OpenApi.Description, "The session behind a token and the connectors it may link: the token is the credential")
  )
  .add(
    HttpApiEndpoint.post("link_connect_account", "/connect_sessions/link")
      .setPayload(LinkConnectAccount)
      .addSuccess(ConnectLinked)
      .annotate(OpenApi.Summary, "Link an account through a connect session")
      .annotate(OpenApi.Description, "Link an account with entered credentials (the connect page's call): the token is the credential")
  )
  .add(
    HttpApiEndpoint.post("start_connect_oauth2", "/connect_sessions/oauth2/authorize")
      .setPayload(StartConnectOAuth2)
      .addSuccess(ConnectOAuth2Started)
      .annotate(OpenApi.Summary, "Start OAuth2 linking for a connect session")
      .annotate(OpenApi.Description, "Start an OAuth2 authorization for the session (the connect page's call)")
  )
  .add(
    HttpApiEndpoint.get("get_connect_session")`/connect_sessions/${SessionId}`
      .addSuccess(ConnectSession)
      .middleware(Authentication)
      .annotate(OpenApi.Summary, "Get a connect session")
      .annotate(
        OpenApi.Description,
        "A session of the project by id (404 otherwise), never its token: `status` is pending, completed (with the `account_id` it linked), failed (with `failure_reason`), or expired once `expires_at` has passed unused"
      )
  )
  .annotate(OpenApi.Description, "Let end users link their own accounts on the hosted connect page: create a session from your backend and send them to its auth_link_url")
{}
