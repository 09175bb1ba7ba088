import { HttpApiBuilder } from "@effect/platform"
import { Api, CurrentCaller } from "@switchyard/api"
import { Effect } from "effect"
import { toApiError } from "../toApiError.js"
import { ActionRunner } from "../../features/actions/ActionRunner.js"
import { jsonSafe } from "../../features/actions/jsonSafe.js"

export const ActionsHttpLive = HttpApiBuilder.group(Api, "actions", (handlers) =>
  Effect.gen(function*() {
    const runner = yield* ActionRunner
    return handlers.handle("rpc_action", ({ headers, payload }) =>
      Effect.gen(function*() {
        const caller = yield* CurrentCaller
        const { raw, ...parts } = payload
        const result = yield* runner.execute(caller.projectId, headers["x-account-id"], payload.action, parts, {
          kind: "rpc",
          idempotencyKey: headers["idempotency-key"]
        }).pipe(Effect.mapError(toApiError))
        return {
          data: jsonSafe(result.data),
          ...(result.next === undefined || result.next === null ? {} : { next: result.next }),
          ...(raw === true ? { raw: result.raw() } : {})
        }
      }))
  }))
