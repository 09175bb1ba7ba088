import { Either } from "effect"
import type { AuthenticationMethod, ConfigField } from "../ConnectorDefinition.js"
import { formatPath } from "../ConnectorParseError.js"
import {
  childPath,
  compileEvaluator,
  compileTemplate,
  ContextScope,
  ExpressionError,
  lookupExpression
} from "../evaluate.js"
import type { ParsedConnector } from "../parseConnector.js"
import { paramText } from "../run/wireValues.js"
import { ActionDefinitionError, ActionInputError } from "../RunErrors.js"

/**
 * An authorization-code OAuth 2.0 method of a connector, resolved for one account or profile:
 * plain data, its URLs and parameters evaluated.
 */
export interface OAuth2Method {
  /** The method's name in `authentication`. */
  readonly name: string
  readonly label: string | undefined
  readonly authorizationUrl: string
  readonly tokenUrl: string
  /**
   * Extra authorization request parameters, evaluated. Never `response_type`, `client_id`,
   * `redirect_uri`, `state`, `code_challenge` or `code_challenge_method` (always ours), nor
   * `scope` (see `scope`).
   */
  readonly authorizationParams: Readonly<Record<string, string>>
  /** `scopes` joined by a space; else the `scope` authorization parameter. */
  readonly scope: string | undefined
  /** PKCE with S256 (default); `pkce: false` on the method opts out. */
  readonly pkce: boolean
  /** `tokenExpiresIn`: seconds a token lives when the provider does not say. */
  readonly defaultExpiresIn: number | undefined
  /** The action id of `refreshAuthentication.action` (an inline action's own `actionId`). */
  readonly refreshAction: string | undefined
  readonly configFields: ReadonlyArray<ConfigField>
  readonly setupFields: ReadonlyArray<ConfigField>
  /** `testActions`, as action ids. */
  readonly testActions: ReadonlyArray<string>
}

/** Parameters of the authorization request that we always set ourselves. */
export const RESERVED_AUTHORIZATION_PARAMS: ReadonlySet<string> = new Set([
  "response_type",
  "client_id",
  "redirect_uri",
  "state",
  "code_challenge",
  "code_challenge_method"
])

type Failure = ActionDefinitionError | ActionInputError

interface Located {
  readonly name: string
  readonly method: AuthenticationMethod
  readonly path: string
}

const locate = (connector: ParsedConnector, methodName: string | undefined): Located | undefined => {
  let found: Located | undefined
  connector.definition.authentication?.forEach((entry, index) => {
    for (const [name, method] of Object.entries(entry)) {
      if (found === undefined && (methodName === undefined || name === methodName)) {
        found = { name, method, path: formatPath(["authentication", index, name]) }
      }
    }
  })
  return found
}

/**
 * The authorization-code OAuth 2.0 method `methodName` of `connector` (its first method when
 * undefined), with `authorizationUrl`, `tokenUrl` and `authorizationParams` evaluated against
 * `$.credentials` and `$.settings` (the method's own keys win over those under
 * `authorization`). Fails with `ActionDefinitionError` when there is no such method, it is not
 * an authorization-code oauth2 method (client credentials is not), lacks a URL, or an
 * expression fails; with `ActionInputError` when a URL resolves to nothing or to no http(s)
 * URL from the given credentials and settings.
 */
export const oauth2Method = (
  connector: ParsedConnector,
  methodName: string | undefined,
  scope: { readonly credentials: Readonly<Record<string, unknown>>; readonly settings: Readonly<Record<string, unknown>> }
): Either.Either<OAuth2Method, Failure> => {
  const key = connector.definition.info.key
  const located = locate(connector, methodName)
  if (located === undefined) {
    return Either.left(
      new ActionDefinitionError({
        message: methodName === undefined
          ? `connector "${key}" has no authentication method`
          : `connector "${key}" has no authentication method "${methodName}"`
      })
    )
  }
  const { method, name, path } = located
  const refuse = (message: string, at = path) =>
    Either.left(new ActionDefinitionError({ message: `authentication "${name}" of connector "${key}" ${message}`, path: at }))
  const authorization = method.authorization?.type === "oauth2" ? method.authorization : undefined
  if (method.type !== "oauth2" && authorization === undefined) return refuse("is not an OAuth 2.0 method")
  if (method.grantType !== undefined && method.grantType !== "authorization_code") {
    return refuse(`uses the ${method.grantType} grant, not authorization_code`)
  }
  const where = (field: "authorizationUrl" | "tokenUrl") =>
    method[field] !== undefined
      ? { source: method[field], at: childPath(path, field) }
      : authorization?.[field] !== undefined
      ? { source: authorization[field], at: childPath(childPath(path, "authorization"), field) }
      : undefined
  const authorizationUrl = where("authorizationUrl")
  const tokenUrl = where("tokenUrl")
  if (authorizationUrl === undefined) return refuse("has no authorizationUrl")
  if (tokenUrl === undefined) return refuse("has no tokenUrl")

  const context = new ContextScope({ credentials: scope.credentials, settings: scope.settings, inputs: {}, steps: {} })
  try {
    const url = (found: { readonly source: string; readonly at: string }, what: string): Either.Either<string, Failure> => {
      const compiled = lookupExpression(found.source, found.at, connector.compiled)
      const value = compileEvaluator(compiled, { path: found.at, urlEncode: true })(context)
      const text = value === undefined || value === null ? "" : paramText(value)
      const fromInputs = compiled.kind !== "literal"
      if (text === "") {
        return Either.left(ActionInputError.fromIssues([{
          input: "settings",
          message: `lack what the ${what} of authentication "${name}" reads (it resolved to nothing)`
        }]))
      }
      let parsed: URL | undefined
      try {
        parsed = new URL(text)
      } catch {
        parsed = undefined
      }
      if (parsed === undefined || (parsed.protocol !== "https:" && parsed.protocol !== "http:")) {
        const message = `the ${what} of authentication "${name}" is not an http(s) URL`
        return fromInputs
          ? Either.left(ActionInputError.fromIssues([{ input: "settings", message: `give ${message}` }]))
          : refuse(`has an ${what} that is not an http(s) URL`, found.at)
      }
      return Either.right(parsed.toString())
    }
    const params = authorizationParams(connector, method, authorization, path, context)
    const scopes = method.scopes
    const scopeText = scopes === undefined ? params.scope : typeof scopes === "string" ? scopes : scopes.join(" ")
    const { scope: _scope, ...extra } = params
    return Either.flatMap(url(authorizationUrl, "authorization URL"), (authorizationUrlText) =>
      Either.map(url(tokenUrl, "token URL"), (tokenUrlText): OAuth2Method => ({
        name,
        label: method.label,
        authorizationUrl: authorizationUrlText,
        tokenUrl: tokenUrlText,
        authorizationParams: extra,
        scope: scopeText === undefined || scopeText === "" ? undefined : scopeText,
        pkce: method.pkce !== false,
        defaultExpiresIn: method.tokenExpiresIn,
        refreshAction: refreshActionId(method),
        configFields: method.configFields ?? [],
        setupFields: method.setupFields ?? [],
        testActions: (method.testActions ?? []).map((test) => (typeof test === "string" ? test : test.action))
      })))
  } catch (error) {
    if (error instanceof ExpressionError) {
      return Either.left(new ActionDefinitionError({ message: error.message, path: error.path ?? path }))
    }
    throw error
  }
}

const refreshActionId = (method: AuthenticationMethod): string | undefined => {
  const action = method.refreshAuthentication?.action
  return action === undefined ? undefined : typeof action === "string" ? action : action.actionId
}

/** `authorization.authorizationParams` overlaid with the method's own, evaluated; reserved ones dropped. */
const authorizationParams = (
  connector: ParsedConnector,
  method: AuthenticationMethod,
  authorization: Extract<AuthenticationMethod["authorization"], { type: "oauth2" }> | undefined,
  path: string,
  context: ContextScope
): Record<string, string> => {
  const out: Record<string, string> = {}
  const layers = [
    [authorization?.authorizationParams, childPath(childPath(path, "authorization"), "authorizationParams")],
    [method.authorizationParams, childPath(path, "authorizationParams")]
  ] as const
  for (const [params, at] of layers) {
    if (params === undefined) continue
    const evaluated = compileTemplate(params, at, connector.compiled)(context) as Record<string, unknown>
    for (const [name, value] of Object.entries(evaluated)) {
      if (RESERVED_AUTHORIZATION_PARAMS.has(name) || value === undefined || value === null) continue
      const text = paramText(value)
      if (text !== "") out[name] = text
    }
  }
  return out
}
