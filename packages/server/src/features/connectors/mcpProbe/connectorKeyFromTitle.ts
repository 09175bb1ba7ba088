// Connector naming: the key and default title of a connector made from a probed MCP server.
import type { McpProbeResult } from "./McpProbeResult.js"

/** A connector key (`^[a-z0-9_-]{1,100}$`) derived from a display title. */
export const connectorKeyFromTitle = (title: string): string => {
  const key = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 100)
    .replace(/_+$/, "")
  return key === "" ? "mcp" : key
}

export const defaultTitle = (result: McpProbeResult, url: URL): string => result.serverName ?? url.hostname
