import { HttpClient } from "@effect/platform"
import { Effect } from "effect"
import { SwitchyardConfig } from "../../platform/Config.js"
import { OutboundHttp } from "../../platform/outboundHttp/OutboundHttp.js"
import { checkOutboundUrl } from "../../platform/outboundHttp/OutboundUrlGuard.js"
import { InvalidConnectorSource } from "./ConnectorErrors.js"
import { ConnectorRegistry } from "./ConnectorRegistry.js"
import { connectorKeyFromTitle, defaultTitle, type McpProbeResult, probeMcpServer } from "./McpProbe.js"

const authentication = (probe: McpProbeResult) => {
  switch (probe.auth) {
    case "none":
      return [{ none: { type: "custom", label: "No authentication", authorization: { type: "none" } } }]
    case "token":
      return [{
        token: {
          type: "custom",
          label: "Access token",
          authorization: { type: "bearer", token: "$.credentials.accessToken" },
          configFields: [{ key: "accessToken", label: "Access token", type: "password", required: true, secret: true }]
        }
      }]
    case "oauth":
      return [{
        oauth2: {
          type: "oauth2",
          label: "OAuth 2.0",
          grantType: "authorization_code",
          ...(probe.authorizationServers?.[0] === undefined ? {} : { authorizationUrl: probe.authorizationServers[0] })
        }
      }]
  }
}

/**
 * Creates connectors from MCP server URLs: vet the URL (SSRF), probe how the server
 * authenticates, and register a connector without actions (its tools are added later).
 */
export class McpConnectors extends Effect.Service<McpConnectors>()("Switchyard/McpConnectors", {
  scoped: Effect.gen(function*() {
    const config = yield* SwitchyardConfig
    const registry = yield* ConnectorRegistry
    const httpClient = (yield* OutboundHttp).client

    const register = (projectId: string, serverUrl: string, title: string | undefined) =>
      Effect.gen(function*() {
        const url = yield* checkOutboundUrl(serverUrl, config.outboundAllowlist).pipe(
          Effect.mapError((refused) => new InvalidConnectorSource({ message: `mcp_server_url refused: ${refused.message}` }))
        )
        const probe = yield* probeMcpServer(url, { allowlist: config.outboundAllowlist }).pipe(
          Effect.provideService(HttpClient.HttpClient, httpClient),
          Effect.mapError((failed) =>
            new InvalidConnectorSource({ message: `mcp_server_url is not a reachable MCP server: ${failed.message}` })
          )
        )
        const connectorTitle = title ?? defaultTitle(probe, url)
        const definition = {
          StackOne: "1.0.0",
          info: {
            title: connectorTitle,
            key: connectorKeyFromTitle(connectorTitle),
            version: "1.0.0",
            description: `MCP server at ${url.origin}${url.pathname}`,
            categories: ["mcp"]
          },
          baseUrl: url.toString(),
          authentication: authentication(probe),
          actions: []
        }
        return yield* registry.registerMcp(projectId, definition, { url: url.toString(), auth: probe.auth })
      })

    return { register } as const
  }),
  dependencies: [ConnectorRegistry.Default]
}) {}
