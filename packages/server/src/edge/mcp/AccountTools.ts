import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js"
import { Cause, Effect } from "effect"
import type { AccountContextError } from "../../features/accounts/AccountErrors.js"
import { AccountContexts } from "../../features/accounts/AccountContext.js"
import { ActionRunner } from "../../features/actions/ActionRunner.js"
import { toApiError } from "../toApiError.js"
import { isExposed, toolFor, toolName } from "./McpTools.js"
import { errorResult, internalErrorResult, successResult } from "./McpToolResults.js"

/** One account's tools: what `tools/list` shows and how `tools/call` runs one of them. */
export interface AccountToolset {
  readonly tools: ReadonlyArray<Tool>
  /** The tool's result, failures included as tool errors; none for a tool not in `tools`. */
  readonly call: (name: string, args: Readonly<Record<string, unknown>>) => Effect.Effect<CallToolResult | undefined>
}

/**
 * The MCP view of a linked account: its connector's actions that its profile enables, run
 * through the ActionRunner (the RPC's path: limits, retries, account rules, request log,
 * `last_request`). Resolving the account (once per request, shared with the call) applies the
 * account rules (not found, blocked) before MCP starts.
 */
export class AccountTools extends Effect.Service<AccountTools>()("Switchyard/AccountTools", {
  effect: Effect.gen(function*() {
    const contexts = yield* AccountContexts
    const runner = yield* ActionRunner

    const forAccount = (projectId: string, accountId: string): Effect.Effect<AccountToolset, AccountContextError> =>
      Effect.gen(function*() {
        const context = yield* contexts.resolve(projectId, accountId)
        const key = context.version.key
        const enabled = context.profile?.enabled_actions
        const actions = context.connector.definition.actions.filter((action) =>
          isExposed(action) && (enabled === undefined || enabled.includes(action.actionId))
        )
        const byName = new Map(actions.map((action) => [toolName(key, action.actionId), action]))

        const call = (name: string, args: Readonly<Record<string, unknown>>) => {
          const action = byName.get(name)
          if (action === undefined) return Effect.succeed(undefined)
          return runner.execute(projectId, accountId, action.actionId, {}, { kind: "mcp", inputs: args, context }).pipe(
            Effect.map((result) => successResult(action, result.data, result.next)),
            Effect.catchAll((error) => Effect.succeed(errorResult(toApiError(error)))),
            Effect.catchAllDefect((defect) =>
              Effect.as(Effect.logError("MCP tool call failed", Cause.die(defect)), internalErrorResult)
            )
          )
        }

        return { tools: actions.map((action) => toolFor(key, action)), call } satisfies AccountToolset
      })

    return { forAccount } as const
  }),
  dependencies: [AccountContexts.Default, ActionRunner.Default]
}) {}
