import { type CallToolResult, CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js"
import type { ApiError } from "@switchyard/api"
import type { ActionDefinition } from "@switchyard/engine"
import { jsonSafe } from "../../features/actions/jsonSafe.js"

/*
 * What a tools/call answers. A run's `{data, next}` goes out as structured content, and as
 * JSON text too while small (the spec's SHOULD, for clients that read only text); a large
 * one is not held twice: its text is a summary naming the size and the next cursor. An action that calls a tool of an MCP server hands that tool's
 * own result through. Failures are tool errors (`isError: true`): the agent sees why and
 * can correct its call, while the JSON-RPC exchange itself succeeded.
 */

const MAX_DETAIL = 2_000
/** Largest result (characters of JSON) also sent as text. */
const MAX_TEXT_RESULT = 64 * 1024

const text = (value: string): CallToolResult["content"][number] => ({ type: "text", text: value })

/** Whether the action ends by calling a tool on an MCP server (a connector created from one). */
const callsMcpTool = (action: ActionDefinition) =>
  action.steps.some((step) => step.stepFunction.functionName === "mcp_request" && step.stepFunction.parameters.method === "tools/call")

export const successResult = (action: ActionDefinition, data: unknown, next: unknown): CallToolResult => {
  if (callsMcpTool(action)) {
    const passed = CallToolResultSchema.safeParse(data)
    if (passed.success) return passed.data
  }
  const payload = { data: jsonSafe(data), ...(next === undefined || next === null ? {} : { next: jsonSafe(next) }) }
  return { content: [text(textOf(payload))], structuredContent: payload }
}

const textOf = (payload: { readonly data: unknown; readonly next?: unknown }) => {
  const json = JSON.stringify(payload)
  if (json.length < MAX_TEXT_RESULT) return json
  const shape = Array.isArray(payload.data) ? `${payload.data.length} records` : "one record"
  const next = payload.next === undefined ? "" : ` Next page: ${JSON.stringify(payload.next)}.`
  return `Result of ${shape} (${json.length} characters of JSON) is in structuredContent, not repeated here.${next}`
}

const truncate = (value: string) => value.length > MAX_DETAIL ? `${value.slice(0, MAX_DETAIL)}...` : value

/**
 * The error as the agent reads it: status and message, and for a provider's refusal what
 * the provider said. Every part was already redacted by the runner.
 */
export const errorResult = (error: ApiError): CallToolResult => {
  const lines = [`${error.statusCode} ${error.message}`]
  if (error._tag === "BadRequest") {
    if (error.data !== undefined && error.data.message !== error.message) lines.push(error.data.message)
    const raw = error.provider_errors?.[0]?.raw
    if (raw !== undefined && raw !== null && raw !== "") {
      lines.push(`Provider answered: ${truncate(typeof raw === "string" ? raw : JSON.stringify(raw))}`)
    }
  }
  return { content: [text(lines.join("\n"))], isError: true }
}

/** A failure that is ours, not the call's: the agent learns only that it failed. */
export const internalErrorResult: CallToolResult = {
  content: [text("500 Internal server error while running the tool")],
  isError: true
}
