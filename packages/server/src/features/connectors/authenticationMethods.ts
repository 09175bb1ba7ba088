import type { AuthenticationMethod, ParsedConnector } from "@switchyard/engine"

/** An OAuth2 method the end user authorizes in the provider's consent page (not client credentials). */
export const isAuthorizationCode = (method: AuthenticationMethod): boolean =>
  method.type === "oauth2" && method.grantType !== "client_credentials"

/** The connector's methods by name, in the order it lists them. */
export const namedMethods = (connector: ParsedConnector): ReadonlyArray<readonly [string, AuthenticationMethod]> =>
  (connector.definition.authentication ?? []).flatMap((named) => Object.entries(named))
