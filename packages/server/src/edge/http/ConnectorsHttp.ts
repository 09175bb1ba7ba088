import { HttpApiBuilder } from "@effect/platform"
import { Api, CurrentCaller } from "@switchyard/api"
import { Effect } from "effect"
import { toApiError } from "../toApiError.js"
import { Connectors } from "../../features/connectorCatalog/Connectors.js"

export const ConnectorsHttpLive = HttpApiBuilder.group(Api, "connectors", (handlers) =>
  Effect.gen(function*() {
    const connectors = yield* Connectors
    return handlers
      .handle("create_connector", ({ payload, urlParams }) =>
        Effect.flatMap(CurrentCaller, (caller) => connectors.create(caller, payload, urlParams.expand ?? [])).pipe(
          Effect.mapError(toApiError)
        ))
      .handle("list_connectors", ({ urlParams }) =>
        Effect.flatMap(CurrentCaller, (caller) => connectors.list(caller, urlParams)))
      .handle("get_connector", ({ path, urlParams }) =>
        Effect.flatMap(CurrentCaller, (caller) => connectors.get(caller, path.id, urlParams)).pipe(
          Effect.mapError(toApiError)
        ))
      .handle("delete_connector", ({ path }) =>
        Effect.flatMap(CurrentCaller, (caller) => connectors.remove(caller, path.id)).pipe(Effect.mapError(toApiError)))
      .handle("list_connector_versions", ({ path }) =>
        Effect.flatMap(CurrentCaller, (caller) => connectors.versions(caller, path.id)).pipe(Effect.mapError(toApiError)))
      .handle("get_connector_action", ({ path, urlParams }) =>
        Effect.flatMap(CurrentCaller, (caller) => connectors.action(caller, path.id, path.actionId, urlParams)).pipe(
          Effect.mapError(toApiError)
        ))
      .handle("get_connector_event_action", ({ path, urlParams }) =>
        Effect.flatMap(CurrentCaller, (caller) => connectors.eventAction(caller, path.id, path.eventId, urlParams)).pipe(
          Effect.mapError(toApiError)
        ))
  }))
