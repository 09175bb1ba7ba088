// The SDK-error mapping: why `client.connect` failed, as an McpProbeFailed (or "unauthorized").
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { ErrorCode, McpError, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js"
import type { Duration } from "effect"
import { clip, mediaType } from "./clip.js"
import { McpProbeFailed, notMcp, statusFailure, timeoutFailure } from "./McpProbeFailed.js"
import type { Exchange } from "./probeFetch.js"

interface SchemaIssues {
  readonly issues: ReadonlyArray<{ readonly message?: unknown; readonly path?: unknown }>
}

/** The SDK's schema errors (zod's), without depending on zod. */
const isZodError = (error: unknown): error is SchemaIssues =>
  error instanceof Error && Array.isArray((error as { issues?: unknown }).issues)

/** The first schema issue, as ` (path: message)`. */
const issueOf = (error: unknown) => {
  const issue = isZodError(error) ? error.issues[0] : undefined
  if (issue === undefined) return ""
  const path = Array.isArray(issue.path) ? issue.path.join(".") : ""
  return ` (${clip(`${path === "" ? "" : `${path}: `}${String(issue.message)}`)})`
}

/**
 * Why `client.connect` failed, in the probe's terms: what the probe noted first, else the
 * SDK's error (`StreamableHTTPError` for HTTP, `McpError` for JSON-RPC and timeouts, schema
 * errors for what is not MCP) read with the answer the server sent.
 */
export const failureOf = (
  error: unknown,
  exchange: Exchange,
  timeout: Duration.Duration
): McpProbeFailed | "unauthorized" => {
  const where = exchange.where
  if (exchange.failure !== undefined) return exchange.failure
  if (error instanceof McpProbeFailed) return error
  if (error instanceof StreamableHTTPError) {
    const status = error.code ?? -1
    if (status === 401) return "unauthorized"
    const headers = exchange.response?.headers
    if (status > 0) return statusFailure(where, status, headers?.get("location") ?? null)
    const type = mediaType(headers?.get("content-type"))
    return notMcp(
      `${where} is not an MCP endpoint: it answered with ${type === "" ? "no content type" : clip(type)}, ` +
        "not JSON or an event stream"
    )
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return timeoutFailure(where, timeout)
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    return new McpProbeFailed({
      reason: "unreachable",
      message: `${where}: the connection closed before initialize was answered`
    })
  }
  const answer = exchange.answer
  if (error instanceof McpError || (answer !== undefined && "error" in answer)) {
    // The server's own words when the probe saw them; the SDK's message prefixes them.
    const [code, text] = answer !== undefined && "error" in answer
      ? [answer.error.code, answer.error.message]
      : [(error as McpError).code, (error as McpError).message.replace(/^MCP error -?\d+: /, "")]
    return notMcp(`${where} refused initialize: JSON-RPC error ${code}: ${clip(text)}`)
  }
  if (answer !== undefined) {
    const version = (answer.result as { protocolVersion?: unknown }).protocolVersion
    if (typeof version !== "string") return notMcp(`${where}: the initialize result has no protocolVersion`)
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      return notMcp(
        `${where} answered initialize with MCP version ${clip(version)}, which this client does not support`
      )
    }
    return notMcp(`${where}: the initialize result is not valid${issueOf(error)}`)
  }
  if (error instanceof SyntaxError) return notMcp(`${where}: the response is not valid JSON`)
  if (isZodError(error)) return notMcp(`${where}: the response is not a JSON-RPC answer to initialize`)
  const text = error instanceof Error ? error.message : String(error)
  return notMcp(`${where}: initialize failed: ${clip(text.split("\n")[0]!)}`)
}
