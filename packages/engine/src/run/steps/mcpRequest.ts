import { Effect, Either } from "effect"
import type { StepPlan } from "../../actionPlan.js"
import { mcpInitializeParams, parseMcpResponse } from "../../mcp.js"
import type { ProviderResponse } from "../../ProviderTransport.js"
import type { ActionError } from "../../RunErrors.js"
import { httpError } from "../http/providerAnswers.js"
import { resolveUrl } from "../http/providerUrls.js"
import { sendRequest } from "../http/sendRequest.js"
import type { RunState, StepOutput } from "../RunState.js"
import { header, isEmptyCursor, isRecord, isSuccess, paramText } from "../wireValues.js"
import type { StepKindOf } from "./StepInterpreter.js"

/**
 * `mcp_request`: one JSON-RPC call to a remote MCP server (`tools/list` pages by cursor).
 * The call is sent without a session first; a server that wants one gets `initialize`
 * once per run and URL, and the call is asked again in that session.
 */
export const mcpRequest = (run: RunState, step: StepPlan, kind: StepKindOf<"mcp_request">): Effect.Effect<StepOutput, ActionError> =>
  Effect.gen(function*() {
    const { method, params, url } = yield* run.attempt(step, () => {
      const target = kind.url === undefined ? "" : paramText(kind.url(run.scope) ?? "")
      const method = paramText(kind.method(run.scope))
      let params: Record<string, unknown>
      if (method === "tools/call") {
        const name = kind.name?.(run.scope)
        if (typeof name !== "string" || name === "") {
          return Either.left(run.definitionError(step, `step "${step.stepId}": tools/call needs parameters.name`))
        }
        const args = kind.arguments?.(run.scope)
        params = { name, arguments: isRecord(args) ? args : {} }
      } else {
        const cursor = kind.cursor?.(run.scope)
        const args = kind.arguments?.(run.scope)
        params = isRecord(args) ? { ...args } : {}
        if (!isEmptyCursor(cursor)) params.cursor = cursor
      }
      return Either.map(resolveUrl(run, target, kind.staticOrigin, step), (url) => ({ url, method, params }))
    })
    const call = (id: number | undefined, rpcMethod: string, rpcParams: unknown, session: string | undefined) => {
      const headers: Record<string, string> = { accept: "application/json, text/event-stream", "content-type": "application/json" }
      if (session !== undefined) headers["mcp-session-id"] = session
      const message: Record<string, unknown> = { jsonrpc: "2.0", method: rpcMethod }
      if (id !== undefined) message.id = id
      if (rpcParams !== undefined) message.params = rpcParams
      return sendRequest(run, step, { method: "POST", url, headers, body: { _tag: "Json", value: message } })
    }
    const sessions = run.mcp.sessions
    const key = url.toString()
    const id = ++run.mcp.lastId
    let response = yield* call(id, method, params, sessions.get(key))
    let parsed = parseMcpResponse(response, id)
    if (!sessions.has(key) && parsed._tag !== "Result" && needsSession(response, parsed)) {
      // a stateful server: initialize a session, then ask again once
      const initId = ++run.mcp.lastId
      const init = yield* call(initId, "initialize", mcpInitializeParams, undefined)
      const session = header(init.headers, "mcp-session-id")
      if (isSuccess(init.status) && parseMcpResponse(init, initId)._tag === "Result") {
        if (session !== undefined) sessions.set(key, session)
        yield* call(undefined, "notifications/initialized", undefined, session)
        const retryId = ++run.mcp.lastId
        response = yield* call(retryId, method, params, session)
        parsed = parseMcpResponse(response, retryId)
      }
    }
    if (parsed._tag === "Result" && isSuccess(response.status)) {
      const result = parsed.result
      if (method !== "tools/list") return { data: result, status: response.status }
      const tools = isRecord(result) && Array.isArray(result.tools) ? result.tools : []
      const next = isRecord(result) ? result.nextCursor : undefined
      return { data: tools, next: isEmptyCursor(next) ? undefined : next, status: response.status }
    }
    const detail = parsed._tag === "Error"
      ? `MCP ${method} failed: ${typeof parsed.error.message === "string" ? parsed.error.message : "error"}`
      : parsed._tag === "Invalid"
      ? `MCP ${method}: ${parsed.reason}`
      : undefined
    const answer = parsed._tag === "Error" ? { ...response, body: parsed.error } : response
    return yield* Effect.fail(httpError(step, "POST", key, answer, detail))
  }).pipe(run.stepDeadline(step))

/** Whether a failed call looks like a server asking for a session (status, JSON-RPC code or text). */
const needsSession = (response: ProviderResponse, parsed: ReturnType<typeof parseMcpResponse>): boolean => {
  if (response.status === 400 || response.status === 404 || response.status === 409) return true
  if (parsed._tag !== "Error") return false
  const code = parsed.error.code
  const message = typeof parsed.error.message === "string" ? parsed.error.message.toLowerCase() : ""
  return code === -32600 || code === -32000 || code === -32001 || message.includes("session") || message.includes("initializ")
}
