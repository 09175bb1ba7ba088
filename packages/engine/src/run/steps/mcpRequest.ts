import { Effect, Either } from "effect"
import type { StepPlan } from "../../actionPlan.js"
import type { RunFailure } from "../../RunErrors.js"
import { resolveUrl } from "../http/providerUrls.js"
import { callMcp } from "../mcp/callMcp.js"
import type { RunState, StepOutput } from "../RunState.js"
import { isEmptyCursor, isRecord, paramText } from "../wireValues.js"
import type { StepKindOf } from "./StepInterpreter.js"

/**
 * `mcp_request`: one JSON-RPC call to a remote MCP server (`tools/list` pages by cursor),
 * through the MCP SDK's client over the run's provider calls (`callMcp`).
 */
export const mcpRequest = (run: RunState, step: StepPlan, kind: StepKindOf<"mcp_request">): Effect.Effect<StepOutput, RunFailure> =>
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
    const { result, status } = yield* callMcp(run, step, url, method, params)
    if (method !== "tools/list") return { data: result, status }
    const tools = Array.isArray(result.tools) ? result.tools : []
    const next = result.nextCursor
    return { data: tools, next: isEmptyCursor(next) ? undefined : next, status }
  }).pipe(run.stepDeadline(step))
