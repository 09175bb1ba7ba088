import { HttpApiBuilder } from "@effect/platform"
import { Api, CurrentCaller } from "@switchyard/api"
import { Effect } from "effect"
import { toApiError } from "../toApiError.js"
import { ConnectorProfiles } from "../../features/connectorProfiles/ConnectorProfiles.js"

export const ConnectorProfilesHttpLive = HttpApiBuilder.group(Api, "connector_profiles", (handlers) =>
  Effect.gen(function*() {
    const profiles = yield* ConnectorProfiles
    return handlers
      .handle("list_connector_profiles", ({ urlParams }) =>
        Effect.flatMap(CurrentCaller, (caller) => profiles.list(caller, urlParams)))
      .handle("create_connector_profile", ({ payload, urlParams }) =>
        Effect.flatMap(CurrentCaller, (caller) => profiles.create(caller, payload, urlParams.expand ?? [])).pipe(
          Effect.mapError(toApiError)
        ))
      .handle("get_connector_profile", ({ path, urlParams }) =>
        Effect.flatMap(CurrentCaller, (caller) => profiles.get(caller, path.id, urlParams.expand ?? [])).pipe(
          Effect.mapError(toApiError)
        ))
      .handle("update_connector_profile", ({ path, payload, urlParams }) =>
        Effect.flatMap(CurrentCaller, (caller) => profiles.update(caller, path.id, payload, urlParams.expand ?? [])).pipe(
          Effect.mapError(toApiError)
        ))
      .handle("delete_connector_profile", ({ path }) =>
        Effect.flatMap(CurrentCaller, (caller) => profiles.remove(caller, path.id)).pipe(Effect.mapError(toApiError)))
  }))
