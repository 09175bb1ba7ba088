import { Schema } from "effect"
import semver from "semver"
import { ConnectorVerification } from "./ConnectorVerification.js"

/*
 * The connector document (StackOne "Falcon" format, `StackOne: 1.0.0`), as far as
 * Switchyard reads it. Required keys and the types of known keys are enforced; extra
 * keys are allowed (decode with `onExcessProperty: "preserve"` to keep them), because
 * StackOne files carry more than the subset described in connector-format.md.
 */

/** Optional key; an empty YAML value (`description:`) counts as absent. */
const opt = <S extends Schema.Schema.Any>(schema: S) => Schema.optionalWith(schema, { nullable: true })

const Text = Schema.String
const TextList = Schema.Array(Schema.String)
const AnyRecord = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/** A non-empty identifier (action and step ids end up in paths and lookups). */
export const Identifier = Schema.String.pipe(Schema.minLength(1, { message: () => "must not be empty" }))

/** Any value, but the key must be there (Schema.Unknown alone accepts a missing key). */
const RequiredValue = Schema.Unknown.pipe(Schema.filter((value) => value !== undefined || "required"))

export const ConnectorKey = Schema.String.pipe(
  Schema.maxLength(100, { message: () => "must be at most 100 characters" }),
  Schema.pattern(/^[a-z0-9_-]+$/, { message: () => "must match ^[a-z0-9_-]+$ (lowercase letters, digits, _ and -)" })
)

export const SemverString = Schema.String.pipe(
  Schema.filter((value) => semver.valid(value) !== null || `"${value}" is not a valid semver version`)
)

export const ConnectorInfo = Schema.Struct({
  title: Text,
  key: ConnectorKey,
  version: SemverString,
  description: opt(Text),
  assets: opt(Schema.Struct({ icon: opt(Text) })),
  category: opt(Text),
  categories: opt(TextList),
  verification: opt(ConnectorVerification)
})
export type ConnectorInfo = typeof ConnectorInfo.Type

// ---- authentication -------------------------------------------------------------

export const BasicAuthorization = Schema.Struct({
  type: Schema.Literal("basic"),
  username: Text,
  password: Text
})
export const BearerAuthorization = Schema.Struct({
  type: Schema.Literal("bearer"),
  token: Text
})
export const ApiKeyAuthorization = Schema.Struct({
  type: Schema.Literal("apiKey"),
  key: Text,
  value: Text,
  in: Schema.Literal("header", "query")
})
export const NoAuthorization = Schema.Struct({ type: Schema.Literal("none") })
/** StackOne files put the oauth2 endpoints here as well as on the method. */
export const OAuth2Authorization = Schema.Struct({
  type: Schema.Literal("oauth2"),
  authorizationUrl: opt(Text),
  authorizationParams: opt(AnyRecord),
  tokenUrl: opt(Text),
  token: opt(Text),
  includeBearer: opt(Schema.Boolean)
})

export const Authorization = Schema.Union(
  BasicAuthorization,
  BearerAuthorization,
  ApiKeyAuthorization,
  NoAuthorization,
  OAuth2Authorization
)
export type Authorization = typeof Authorization.Type

export const ConfigField = Schema.Struct({
  key: Text,
  label: opt(Text),
  type: opt(Text),
  required: opt(Schema.Boolean),
  secret: opt(Schema.Boolean),
  placeholder: opt(Schema.Union(Text, Schema.Number)),
  description: opt(Text)
})
export type ConfigField = typeof ConfigField.Type

/** `testActions` entries name an action, either bare or as `{action, required?}`. */
export const TestAction = Schema.Union(
  Identifier,
  Schema.Struct({ action: Identifier, required: opt(Schema.Boolean) })
)

/**
 * The action that refreshes a token: the id of an action in `actions`, or (as StackOne
 * files do) the action itself inline. `schedule` is a cron expression.
 */
export const RefreshAuthentication = Schema.Struct({
  action: Schema.Union(
    Identifier,
    Schema.suspend((): Schema.Schema<ActionDefinition, ActionDefinitionEncoded> => ActionDefinition)
  ),
  schedule: opt(Text)
})

export const AuthenticationMethod = Schema.Struct({
  type: Schema.Literal("custom", "oauth2"),
  label: opt(Text),
  authorization: opt(Authorization),
  configFields: opt(Schema.Array(ConfigField)),
  setupFields: opt(Schema.Array(ConfigField)),
  environments: opt(Schema.Array(Schema.Unknown)),
  testActions: opt(Schema.Array(TestAction)),
  // oauth2
  authorizationUrl: opt(Text),
  authorizationParams: opt(AnyRecord),
  tokenUrl: opt(Text),
  grantType: opt(Text),
  scopes: opt(Schema.Union(Text, TextList)),
  pkce: opt(Schema.Boolean),
  tokenExpiresIn: opt(Schema.Number),
  /**
   * Client credentials: where the access token sits in the token endpoint's JSON answer, as a dotted
   * path (`data.token` for `{"data": {"token": ...}}`); default `access_token`, as OAuth 2.0 says.
   */
  tokenField: opt(Schema.String.pipe(Schema.pattern(/^[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*)*$/, {
    message: () => "tokenField must be a dotted path of JSON keys, e.g. data.token"
  }))),
  refreshAuthentication: opt(RefreshAuthentication)
})
export type AuthenticationMethod = typeof AuthenticationMethod.Type

/** One element of `authentication`: `{<name>: AuthenticationMethod}` with exactly one key. */
export const NamedAuthenticationMethod = Schema.Record({ key: Schema.String, value: AuthenticationMethod }).pipe(
  Schema.filter((entry) => {
    const count = Object.keys(entry).length
    return count === 1 || `expected exactly one named method, found ${count}`
  })
)
export type NamedAuthenticationMethod = typeof NamedAuthenticationMethod.Type

// ---- actions --------------------------------------------------------------------

export const InputType = Schema.Literal("string", "number", "boolean", "datetime_string", "object", "enum")
export const InputLocation = Schema.Literal("query", "path", "body", "headers")

export const ActionInput = Schema.Struct({
  name: Text,
  type: InputType,
  in: InputLocation,
  required: opt(Schema.Boolean),
  description: opt(Text),
  array: opt(Schema.Boolean),
  properties: opt(Schema.Unknown),
  oneOf: opt(Schema.Struct({ values: TextList }))
})
export type ActionInput = typeof ActionInput.Type

export const EnumMatcher = Schema.Struct({ matchExpression: Text, value: RequiredValue })

/** `matcher` is a list of `{matchExpression, value}`, or the name of a built-in matcher. */
export const EnumMapper = Schema.Struct({ matcher: Schema.Union(Text, Schema.Array(EnumMatcher)) })

export const FieldConfig = Schema.Struct({
  targetFieldKey: Text,
  expression: opt(Text),
  type: opt(Text),
  array: opt(Schema.Boolean),
  enumMapper: opt(EnumMapper)
})
export type FieldConfig = typeof FieldConfig.Type

export const Cursor = Schema.Struct({ enabled: Schema.Boolean, pageSize: opt(Schema.Number) })

export const RequestArg = Schema.Struct({
  name: Text,
  value: RequiredValue,
  in: Schema.Literal("query", "body", "headers", "path"),
  condition: opt(Text)
})

export const CustomError = Schema.Struct({
  receivedStatus: Schema.Number,
  targetStatus: Schema.Number,
  message: opt(Text),
  condition: opt(Text)
})

const requestParameters = {
  url: Text,
  method: Text,
  /** One of the connector's `servers`: `url` is then relative to it, not to `baseUrl`. */
  server: opt(Text),
  args: opt(Schema.Array(RequestArg)),
  response: opt(AnyRecord),
  customErrors: opt(Schema.Array(CustomError))
}

export const RequestParameters = Schema.Struct(requestParameters)
export const PaginatedRequestParameters = Schema.Struct({ ...requestParameters, iterator: opt(AnyRecord) })
export const MapFieldsParameters = Schema.Struct({ dataSource: Text, fields: opt(Schema.Array(FieldConfig)) })
export const TypecastParameters = Schema.Struct({ dataSource: Text, fields: opt(Schema.Array(FieldConfig)) })
export const StaticValuesParameters = Schema.Struct({ values: AnyRecord })
export const GroupDataParameters = Schema.Struct({ stepsDataToGroup: TextList, isSingleRecord: opt(Schema.Boolean) })
export const McpRequestParameters = Schema.Struct({ method: Text, name: opt(Text), arguments: opt(Schema.Unknown) })

const stepFunction = <const N extends string, P extends Schema.Struct.Field>(functionName: N, parameters: P) =>
  Schema.Struct({
    functionName: Schema.Literal(functionName),
    version: opt(Schema.Union(Schema.String, Schema.Number)),
    parameters
  })

/** Discriminated by `functionName`, so a bad step reports the chosen function's missing parameters. */
export const StepFunction = Schema.Union(
  stepFunction("request", RequestParameters),
  stepFunction("paginated_request", PaginatedRequestParameters),
  stepFunction("map_fields", MapFieldsParameters),
  stepFunction("typecast", TypecastParameters),
  stepFunction("static_values", StaticValuesParameters),
  stepFunction("group_data", GroupDataParameters),
  stepFunction("download_file", opt(AnyRecord)),
  stepFunction("upload_file", opt(AnyRecord)),
  stepFunction("mcp_request", McpRequestParameters)
)
export type StepFunction = typeof StepFunction.Type
export type StepFunctionName = StepFunction["functionName"]

export const StepDefinition = Schema.Struct({
  stepId: Identifier,
  description: opt(Text),
  condition: opt(Text),
  ignoreError: opt(Schema.Boolean),
  stepFunction: StepFunction
})
export type StepDefinition = typeof StepDefinition.Type

export const ActionResult = Schema.Struct({ data: opt(Schema.Unknown), next: opt(Schema.Unknown) })

export const ActionType = Schema.Literal(
  "list",
  "get",
  "create",
  "update",
  "delete",
  "custom",
  "refresh_token",
  "test",
  "event"
)
export type ActionType = typeof ActionType.Type

/**
 * Every item whose `idKey` string was seen before, as `{path: [index, idKey]}`. Works on
 * raw values too, so the parser can report duplicates even when other parts fail to decode
 * (a Schema filter only runs once everything under it is valid).
 */
export const duplicateIds = (items: ReadonlyArray<unknown>, idKey: string): Array<Schema.FilterIssue> => {
  const seen = new Map<string, number>()
  const issues: Array<Schema.FilterIssue> = []
  items.forEach((item, index) => {
    if (typeof item !== "object" || item === null) return
    const id = (item as Record<string, unknown>)[idKey]
    if (typeof id !== "string") return
    const first = seen.get(id)
    if (first === undefined) seen.set(id, index)
    else issues.push({ path: [index, idKey], message: `duplicate ${idKey} "${id}" (first at [${first}])` })
  })
  return issues
}

const uniqueBy = (idKey: string) => (items: ReadonlyArray<unknown>) => duplicateIds(items, idKey)

const actionFields = {
  actionId: Identifier,
  categories: opt(TextList),
  actionType: ActionType,
  label: Text,
  description: opt(Text),
  details: opt(Text),
  resources: opt(Text),
  inputs: opt(Schema.Array(ActionInput)),
  requiredScopes: opt(Schema.Union(Text, TextList)),
  fieldConfigs: opt(Schema.Array(FieldConfig)),
  cursor: opt(Cursor),
  steps: Schema.Array(StepDefinition).pipe(Schema.filter(uniqueBy("stepId"))),
  result: opt(ActionResult)
}

export const ActionDefinition = Schema.Struct(actionFields)
export type ActionDefinition = typeof ActionDefinition.Type
export type ActionDefinitionEncoded = typeof ActionDefinition.Encoded

/** Event actions are actions whose `actionType` is `event`. */
export const EventActionDefinition = Schema.Struct({ ...actionFields, actionType: Schema.Literal("event") })
export type EventActionDefinition = typeof EventActionDefinition.Type

export const ScopeDefinition = Schema.Struct({ description: Text, includes: opt(TextList) })
export type ScopeDefinition = typeof ScopeDefinition.Type

export const EventsDefinition = Schema.Struct({
  actions: opt(Schema.Array(EventActionDefinition).pipe(Schema.filter(uniqueBy("actionId")))),
  router: opt(Schema.Unknown)
})
export type EventsDefinition = typeof EventsDefinition.Type

/**
 * A server of the provider's beside `baseUrl`, which some operations live on (Personio's career-site
 * feed at `https://{company}.jobs.personio.de`, beside its API at `https://api.personio.de`).
 * `authentication: none` sends its requests without the account's credentials (a public feed).
 */
export const ServerDefinition = Schema.Struct({
  url: Text,
  authentication: opt(Schema.Literal("account", "none")),
  description: opt(Text)
})
export type ServerDefinition = typeof ServerDefinition.Type

/** A server's name; an account's `<name>_base_url` setting replaces its URL, as `base_url` does `baseUrl`. */
const SERVER_NAME = /^[a-z][a-z0-9_]{0,39}$/

const Servers = Schema.Record({ key: Schema.String, value: ServerDefinition }).pipe(
  Schema.filter((servers) => {
    const bad = Object.keys(servers).find((name) => !SERVER_NAME.test(name))
    return bad === undefined ||
      { path: [bad], message: "a server name is lower case letters, digits and _, starting with a letter (at most 40)" }
  })
)

export const ConnectorDefinition = Schema.Struct({
  StackOne: Schema.Literal("1.0.0"),
  info: ConnectorInfo,
  baseUrl: opt(Text),
  /** Named servers beside `baseUrl`; a request step names one with `parameters.server`. */
  servers: opt(Servers),
  rateLimit: opt(Schema.Struct({ mainRatelimit: opt(Schema.Number) })),
  resources: opt(Text),
  authentication: opt(Schema.Array(NamedAuthenticationMethod)),
  actions: Schema.Array(ActionDefinition).pipe(Schema.filter(uniqueBy("actionId"))),
  scopeDefinitions: opt(Schema.Record({ key: Schema.String, value: ScopeDefinition })),
  events: opt(EventsDefinition)
})
export type ConnectorDefinition = typeof ConnectorDefinition.Type
