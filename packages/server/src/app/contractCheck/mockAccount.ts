import type { ConnectorDefinition } from "@switchyard/engine"
import { isAuthorizationCode } from "../../features/connectors/authenticationMethods.js"
import { TOKEN_PATH } from "./ProviderMock.js"

/*
 * The account that links a connector to a mock of its provider (the contract check's, or one a
 * user starts with `switchyard sandbox <provider>`): stand-in credentials for the connector's
 * first authentication method, and the mock in place of the provider's servers.
 */

export interface MockAccount {
  readonly auth_method?: string
  readonly credentials: Readonly<Record<string, string>>
  readonly settings: Readonly<Record<string, string>>
}

/**
 * `baseUrl` is where the mock serves this pass (its origin, the pass segment and the connector's
 * path after the document's server), and `servers` the same for each of the connector's named servers. OAuth2: an authorization-code account holds the tokens its
 * consent gave (stand-ins, which the mock accepts as any bearer token); a client-credentials one
 * fetches its token from the mock's token endpoint in place of the provider's login server.
 */
export const mockAccount = (
  connector: ConnectorDefinition,
  mock: {
    readonly origin: string
    readonly baseUrl: string
    /** Where the mock serves each of the connector's named servers (their `<name>_base_url` settings). */
    readonly servers?: Readonly<Record<string, string>>
  },
  placeholderPrefix = "contract-check"
): MockAccount => {
  const first = connector.authentication?.[0]
  const [name, method] = first === undefined ? [undefined, undefined] : Object.entries(first)[0]!
  const configured = Object.fromEntries((method?.configFields ?? []).map((field) => [field.key, `${placeholderPrefix}-${field.key}`]))
  const authorizationCode = method !== undefined && isAuthorizationCode(method)
  const clientCredentials = method?.type === "oauth2" && !authorizationCode
  const credentials = authorizationCode
    ? { ...configured, accessToken: `${placeholderPrefix}-access-token`, refreshToken: `${placeholderPrefix}-refresh-token` }
    : clientCredentials
    ? { clientId: `${placeholderPrefix}-client`, clientSecret: `${placeholderPrefix}-secret`, ...configured }
    : configured
  return {
    ...(name === undefined ? {} : { auth_method: name }),
    credentials,
    settings: {
      base_url: mock.baseUrl,
      ...Object.fromEntries(Object.entries(mock.servers ?? {}).map(([name, url]) => [`${name}_base_url`, url])),
      // the mock answers the token where the method reads it (`tokenField`, `access_token` by default)
      ...(clientCredentials
        ? { token_url: `${mock.origin}${TOKEN_PATH}${method?.tokenField === undefined ? "" : `?field=${method.tokenField}`}` }
        : {})
    }
  }
}
