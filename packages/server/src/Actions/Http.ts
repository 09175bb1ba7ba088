import { HttpApiBuilder } from "@effect/platform"
import { Api, CurrentCaller } from "@switchyard/api"
import { Effect } from "effect"
import { ActionRunner } from "./ActionRunner.js"

/** Bytes cannot travel in JSON as they are: over the RPC they answer base64, wherever they sit. */
const jsonSafe = (value: unknown): unknown => {
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64")
  if (Array.isArray(value)) return value.map(jsonSafe)
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, jsonSafe(item)]))
  }
  return value
}

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
        })
        return {
          data: jsonSafe(result.data),
          ...(result.next === undefined || result.next === null ? {} : { next: result.next }),
          ...(raw === true ? { raw: result.raw() } : {})
        }
      }))
  }))
