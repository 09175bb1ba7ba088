import type { CompiledExpressions } from "../compileConnectorExpressions.js"
import type { AuthenticationMethod } from "../ConnectorDefinition.js"
import { childPath, compileEvaluator, type Evaluator, lookupExpression } from "../evaluate.js"
import { ActionDefinitionError } from "../RunErrors.js"

/* Authentication methods compiled: one plan per method kind, with its evaluators. */

export type AuthPlan =
  | { readonly _tag: "None"; readonly name: string | undefined }
  | { readonly _tag: "Basic"; readonly name: string; readonly username: Evaluator; readonly password: Evaluator }
  | { readonly _tag: "Bearer"; readonly name: string; readonly token: Evaluator }
  | {
    readonly _tag: "ApiKey"
    readonly name: string
    readonly key: Evaluator
    readonly value: Evaluator
    readonly in: "header" | "query"
  }
  /** OAuth 2.0 with a token already stored on the account (authorization code flows). */
  | {
    readonly _tag: "StoredToken"
    readonly name: string
    readonly token: Evaluator | undefined
    readonly includeBearer: boolean
  }
  | {
    readonly _tag: "ClientCredentials"
    readonly name: string
    readonly tokenUrl: Evaluator
    readonly scope: string | undefined
    readonly defaultExpiresIn: number | undefined
    /** The keys leading to the access token in the token answer (`["access_token"]` by default). */
    readonly tokenField: ReadonlyArray<string>
    readonly includeBearer: boolean
  }

export const compileAuth = (
  name: string,
  method: AuthenticationMethod,
  path: string,
  compiled: CompiledExpressions
): AuthPlan => {
  const at = (value: string, key: string, base = `${path}.authorization`) =>
    compileEvaluator(lookupExpression(value, childPath(base, key), compiled), { path: childPath(base, key) })
  const authorization = method.authorization
  if (method.type === "oauth2") {
    const includeBearer = authorization?.type === "oauth2" ? authorization.includeBearer !== false : true
    if (method.grantType === "client_credentials") {
      const tokenUrl = method.tokenUrl !== undefined
        ? at(method.tokenUrl, "tokenUrl", path)
        : authorization?.type === "oauth2" && authorization.tokenUrl !== undefined
        ? at(authorization.tokenUrl, "tokenUrl")
        : undefined
      if (tokenUrl === undefined) {
        throw new ActionDefinitionError({ message: `authentication "${name}": client_credentials needs a tokenUrl`, path })
      }
      const scopes = method.scopes
      return {
        _tag: "ClientCredentials",
        name,
        tokenUrl,
        scope: scopes === undefined ? undefined : typeof scopes === "string" ? scopes : scopes.join(" "),
        defaultExpiresIn: method.tokenExpiresIn,
        tokenField: (method.tokenField ?? "access_token").split("."),
        includeBearer
      }
    }
    const token = authorization?.type === "oauth2" && authorization.token !== undefined
      ? at(authorization.token, "token")
      : undefined
    return { _tag: "StoredToken", name, token, includeBearer }
  }
  switch (authorization?.type) {
    case undefined:
    case "none":
      return { _tag: "None", name }
    case "basic":
      return { _tag: "Basic", name, username: at(authorization.username, "username"), password: at(authorization.password, "password") }
    case "bearer":
      return { _tag: "Bearer", name, token: at(authorization.token, "token") }
    case "apiKey":
      return { _tag: "ApiKey", name, key: at(authorization.key, "key"), value: at(authorization.value, "value"), in: authorization.in }
    case "oauth2": {
      const token = authorization.token !== undefined ? at(authorization.token, "token") : undefined
      return { _tag: "StoredToken", name, token, includeBearer: authorization.includeBearer !== false }
    }
  }
}
