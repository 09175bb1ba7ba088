import { HttpApiBuilder } from "@effect/platform"
import { Api, CurrentCaller } from "@switchyard/api"
import { Effect } from "effect"
import { ProjectApiKeys } from "../../features/auth/ProjectApiKeys.js"
import { toApiError } from "../toApiError.js"

export const ApiKeysHttpLive = HttpApiBuilder.group(Api, "api_keys", (handlers) =>
  Effect.gen(function*() {
    const keys = yield* ProjectApiKeys
    return handlers
      .handle("create_api_key", ({ payload }) =>
        Effect.flatMap(CurrentCaller, (caller) => keys.create(caller, payload)).pipe(Effect.mapError(toApiError)))
      .handle("list_api_keys", ({ urlParams }) =>
        Effect.flatMap(CurrentCaller, (caller) => keys.list(caller, urlParams)).pipe(Effect.mapError(toApiError)))
      .handle("revoke_api_key", ({ path }) =>
        Effect.flatMap(CurrentCaller, (caller) => keys.revoke(caller, path.id)).pipe(Effect.mapError(toApiError)))
  }))
