import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js"

/*
 * What Switchyard's two MCP clients share: the `mcp_request` step (`run/mcp/`) and the
 * server's probe both speak MCP through the SDK's `Client` over Streamable HTTP.
 */

/**
 * The MCP revision Switchyard speaks as a client: the SDK's latest, which its `Client` asks
 * for in `initialize` and sends as `mcp-protocol-version` (both clients use that client).
 */
export { LATEST_PROTOCOL_VERSION as MCP_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js"

/** The `initialize` parameters of both clients; the version follows the packages'. */
export const mcpInitializeParams = {
  protocolVersion: LATEST_PROTOCOL_VERSION,
  capabilities: {},
  clientInfo: { name: "switchyard", version: "0.1.0" }
} as const
