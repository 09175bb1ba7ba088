import type { ConnectorDefinition, RunContext } from "@switchyard/engine"

/**
 * Where an account's settings point a connector's requests: `base_url` replaces its `baseUrl`,
 * `<server>_base_url` each of its named `servers` (a provider's sandbox, a contract check's mock),
 * `token_url` a client-credentials method's token URL. Each is checked to be an http(s) URL when
 * the account is linked (`checkUrlSettings`).
 */
export const providerAddresses = (
  definition: ConnectorDefinition,
  settings: Readonly<Record<string, unknown>>
): Pick<RunContext, "baseUrl" | "tokenUrl" | "servers"> => {
  const servers: Record<string, string> = {}
  for (const name of Object.keys(definition.servers ?? {})) {
    const url = settings[`${name}_base_url`]
    if (typeof url === "string") servers[name] = url
  }
  return {
    ...(typeof settings.base_url === "string" ? { baseUrl: settings.base_url } : {}),
    ...(typeof settings.token_url === "string" ? { tokenUrl: settings.token_url } : {}),
    ...(Object.keys(servers).length > 0 ? { servers } : {})
  }
}
