import { HttpApiBuilder } from "@effect/platform"
import { Api, CurrentCaller } from "@switchyard/api"
import { Effect } from "effect"
import { ActionRunner } from "./ActionRunner.js"

/** Bytes cannot travel in JSON as they are: downloads answer base64 over the RPC. */
const jsonSafe = (value: unknown): unknown =>
  value instanceof Uint8Array ? Buffer.from(value).toString("base64") : value

export const ActionsHttpLive = HttpApiBuilder.group(Api, "actions", (handlers) =>
  Effect.gen(function*() {
    const runner = yield* ActionRunner
    return handlers.handle("rpc_action", ({ headers, payload }) =>
      Effect.gen(function*() {
        const caller = yield* CurrentCaller
        const result = yield* runner.execute(caller.projectId, headers["x-account-id"], payload.action, payload, {
          kind: "rpc",
          idempotencyKey: headers["idempotency-key"]
        })
        return {
          data: jsonSafe(result.data),
          ...(result.next === undefined || result.next === null ? {} : { next: result.next })
        }
      }))
  }))
