import { HttpApiBuilder } from "@effect/platform"
import { Api, CurrentCaller } from "@switchyard/api"
import { Effect } from "effect"
import { toApiError } from "../toApiError.js"
import { RequestLogs } from "../../features/requestLogs/RequestLogs.js"

export const RequestLogsHttpLive = HttpApiBuilder.group(Api, "request_logs", (handlers) =>
  Effect.gen(function*() {
    const logs = yield* RequestLogs
    return handlers
      .handle("list_request_logs", ({ urlParams }) =>
        Effect.flatMap(CurrentCaller, (caller) => logs.list(caller.projectId, urlParams)).pipe(Effect.mapError(toApiError)))
      .handle("get_request_log_stats", ({ urlParams }) =>
        Effect.flatMap(CurrentCaller, (caller) => logs.stats(caller.projectId, urlParams)).pipe(Effect.mapError(toApiError)))
      .handle("get_request_log", ({ path }) =>
        Effect.flatMap(CurrentCaller, (caller) => logs.get(caller.projectId, path.id)).pipe(Effect.mapError(toApiError)))
  }))
