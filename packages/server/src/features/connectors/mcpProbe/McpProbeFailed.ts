// McpProbeFailed, the probe's one error, and the failures it builds (transport, size, status, timeout, not MCP).
import { HttpClientError } from "@effect/platform"
import { Data, Duration } from "effect"
import { clip } from "./clip.js"

export type McpProbeFailureReason = "unreachable" | "timeout" | "http_status" | "not_mcp" | "too_large"

export class McpProbeFailed extends Data.TaggedError("McpProbeFailed")<{
  readonly message: string
  readonly reason: McpProbeFailureReason
  readonly status?: number
}> {}

const errorCode = (cause: unknown): string | undefined => {
  // Node errors carry `code`; fetch wraps them as `TypeError("fetch failed", {cause})`.
  for (let current = cause, depth = 0; current instanceof Object && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === "string") return code
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

const CONNECT_ERRORS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "connection timed out",
  UND_ERR_CONNECT_TIMEOUT: "connection timed out",
  UND_ERR_SOCKET: "connection closed"
}

/**
 * A request or body that failed underway: an `HttpClientError`, or the `fetch failed`
 * `TypeError` wrapping one (see `HttpClientFetch`).
 */
export const transportFailure = (where: string) => (failure: unknown): McpProbeFailed => {
  const error = failure instanceof TypeError && HttpClientError.isHttpClientError(failure.cause)
    ? failure.cause
    : failure
  const cause = HttpClientError.isHttpClientError(error) ? error.cause : error
  const code = errorCode(cause)
  const detail = code === undefined
    ? clip(
      (cause instanceof Error ? cause.message : HttpClientError.isHttpClientError(error) ? error.reason : String(cause))
        .split("\n")[0]!
    )
    : CONNECT_ERRORS[code] ?? (/CERT|SSL|TLS/.test(code) ? `TLS certificate problem (${code})` : code)
  return HttpClientError.isHttpClientError(error) && error._tag === "ResponseError"
    ? new McpProbeFailed({ reason: "unreachable", message: `${where}: the response broke off (${detail})` })
    : new McpProbeFailed({ reason: "unreachable", message: `cannot reach ${where}: ${detail}` })
}

export const tooLarge = (where: string, max: number) =>
  new McpProbeFailed({ reason: "too_large", message: `${where}: the response is larger than ${max} bytes` })

export const statusFailure = (where: string, status: number, location: string | null): McpProbeFailed => {
  const detail = status >= 300 && status < 400
    ? `redirects${location === null ? "" : ` to ${clip(location.split("?")[0]!)}`}; use the final URL`
    : status === 404
    ? "not found; check the path of the MCP endpoint (often /mcp)"
    : status === 403
    ? "access forbidden"
    : status >= 500
    ? "server error"
    : "not an MCP Streamable HTTP endpoint"
  return new McpProbeFailed({ reason: "http_status", status, message: `${where} answered HTTP ${status}: ${detail}` })
}

export const timeoutFailure = (where: string, timeout: Duration.Duration) =>
  new McpProbeFailed({ reason: "timeout", message: `${where} did not answer within ${Duration.format(timeout)}` })

export const notMcp = (message: string) => new McpProbeFailed({ reason: "not_mcp", message })
