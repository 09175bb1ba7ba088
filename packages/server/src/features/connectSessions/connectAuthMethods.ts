import type { ConnectAuthMethod, ConnectField } from "@switchyard/api"
import type { AuthenticationMethod, ConfigField, ParsedConnector } from "@switchyard/engine"
import { isAuthorizationCode, namedMethods } from "../connectors/authenticationMethods.js"

const fieldOf = (field: ConfigField): ConnectField => {
  const secret = field.secret === true || field.type === "password"
  return {
    key: field.key,
    label: field.label ?? field.key,
    type: secret ? "password" : field.type ?? "text",
    required: field.required === true,
    secret,
    placeholder: field.placeholder === undefined ? null : String(field.placeholder),
    description: field.description ?? null
  }
}

/** Every required setup field (the project's OAuth app) of a method is stored on the profile. */
export const hasSetup = (method: AuthenticationMethod, setupKeys: ReadonlyArray<string>): boolean =>
  (method.setupFields ?? []).every((field) => field.required === false || setupKeys.includes(field.key))

/**
 * How the page may link an account of the connector. An authorization-code method needs the
 * project's OAuth app, so it is offered only through a profile that holds its setup fields.
 */
export const connectAuthMethods = (
  connector: ParsedConnector,
  setupKeys: ReadonlyArray<string> | undefined
): ReadonlyArray<ConnectAuthMethod> =>
  namedMethods(connector).flatMap(([name, method]) => {
    const authorizationCode = isAuthorizationCode(method)
    if (authorizationCode && (setupKeys === undefined || !hasSetup(method, setupKeys))) return []
    return [{
      name,
      type: authorizationCode ? "oauth2" as const : "custom" as const,
      label: method.label ?? name,
      fields: (method.configFields ?? []).map(fieldOf)
    }]
  })
