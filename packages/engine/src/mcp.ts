import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js"
import type { ProviderResponse } from "./ProviderTransport.js"

/*
 * Answers of an MCP server over streamable HTTP: a JSON-RPC message as `application/json`,
 * or a `text/event-stream` whose `data:` events carry JSON-RPC messages (notifications
 * and requests from the server may come before the response; they are skipped).
 */

/**
 * The MCP revision Switchyard speaks as a client: the SDK's latest, which its `Client` asks
 * for in `initialize` and sends as `mcp-protocol-version` (the server's probe uses that
 * client; the `mcp_request` step asks for it in its own `initialize`).
 */
export { LATEST_PROTOCOL_VERSION as MCP_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js"

/** The `initialize` parameters of both clients; the version follows the packages'. */
export const mcpInitializeParams = {
  protocolVersion: LATEST_PROTOCOL_VERSION,
  capabilities: {},
  clientInfo: { name: "switchyard", version: "0.1.0" }
} as const

export interface JsonRpcError {
  readonly code?: unknown
  readonly message?: unknown
  readonly data?: unknown
}

export type McpAnswer =
  | { readonly _tag: "Result"; readonly result: unknown }
  | { readonly _tag: "Error"; readonly error: JsonRpcError }
  | { readonly _tag: "Invalid"; readonly reason: string }

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const fromMessage = (message: unknown, id: number): McpAnswer | undefined => {
  const candidates = Array.isArray(message) ? message : [message]
  for (const candidate of candidates) {
    if (!isRecord(candidate)) continue
    if (candidate.id !== id && candidate.id !== String(id) && candidate.id !== null) continue
    if (isRecord(candidate.error)) return { _tag: "Error", error: candidate.error }
    if ("result" in candidate) return { _tag: "Result", result: candidate.result }
  }
  return undefined
}

/**
 * Reads one line of an event stream into `data`, the data lines of the event under way
 * (kept in place, so long events cost linear time). A blank line ends the event and
 * returns its data, when it had any; `:` comments and fields other than `data` are
 * skipped; one space after the colon is dropped. Both MCP clients (the `mcp_request` step
 * here, the server's probe on a stream) read events through this.
 */
export const readSseLine = (data: Array<string>, line: string): string | undefined => {
  if (line === "") {
    if (data.length === 0) return undefined
    const event = data.join("\n")
    data.length = 0
    return event
  }
  if (line.startsWith(":")) return undefined
  const colon = line.indexOf(":")
  const field = colon < 0 ? line : line.slice(0, colon)
  if (field === "data") data.push(colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, ""))
  return undefined
}

/** The `data:` payloads of an event stream, one string per event. */
export const sseEvents = (text: string): Array<string> => {
  const events: Array<string> = []
  const data: Array<string> = []
  // a closing blank line, so a last event without one still counts
  for (const line of [...text.split(/\r\n|\r|\n/), ""]) {
    const event = readSseLine(data, line)
    if (event !== undefined) events.push(event)
  }
  return events
}

const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes)

/** The JSON-RPC response with `id` in an MCP HTTP answer. */
export const parseMcpResponse = (response: ProviderResponse, id: number): McpAnswer => {
  let body = response.body
  if (body instanceof Uint8Array) body = decode(body)
  if (typeof body === "string") {
    const text = body.trim()
    if (text === "") return { _tag: "Invalid", reason: `empty answer (status ${response.status})` }
    if (text.startsWith("{") || text.startsWith("[")) {
      try {
        body = JSON.parse(text)
      } catch {
        return { _tag: "Invalid", reason: "answer is not valid JSON" }
      }
    } else {
      for (const event of sseEvents(text)) {
        let message: unknown
        try {
          message = JSON.parse(event)
        } catch {
          continue
        }
        const answer = fromMessage(message, id)
        if (answer !== undefined) return answer
      }
      return { _tag: "Invalid", reason: "the event stream carried no response to the request" }
    }
  }
  return fromMessage(body, id) ?? { _tag: "Invalid", reason: "answer is not a JSON-RPC response to the request" }
}
