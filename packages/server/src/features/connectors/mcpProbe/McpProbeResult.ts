// What a probe reports of an MCP server, and the options it takes.
import type { Duration } from "effect"

export interface McpProbeResult {
  readonly auth: "none" | "token" | "oauth"
  readonly serverName?: string
  readonly serverVersion?: string
  readonly protocolVersion?: string
  readonly resourceMetadataUrl?: string
  readonly authorizationServers?: ReadonlyArray<string>
}

export interface McpProbeOptions {
  /** Bound on the whole probe; 10 seconds by default. */
  readonly timeout?: Duration.DurationInput
  /**
   * Operator allowlist used to vet a protected-resource metadata URL on another origin than
   * the probed server (a 401 challenge could point anywhere).
   */
  readonly allowlist?: ReadonlyArray<string>
}
