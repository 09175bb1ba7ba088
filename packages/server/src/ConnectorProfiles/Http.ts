import { HttpApiBuilder } from "@effect/platform"
import { Api, CurrentCaller } from "@switchyard/api"
import { Effect } from "effect"
import { ConnectorProfiles } from "./ConnectorProfiles.js"

export const ConnectorProfilesHttpLive = HttpApiBuilder.group(Api, "connector_profiles", (handlers) =>
  Effect.gen(function*() {
    const profiles = yield* ConnectorProfiles
    return handlers
      .handle("list_connector_profiles", ({ urlParams }) =>
        Effect.flatMap(CurrentCaller, (caller) => profiles.list(caller, urlParams)))
      .handle("create_connector_profile", ({ payload, urlParams }) =>
        Effect.flatMap(CurrentCaller, (caller) => profiles.create(caller, payload, urlParams.expand ?? [])))
      .handle("get_connector_profile", ({ path, urlParams }) =>
        Effect.flatMap(CurrentCaller, (caller) => profiles.get(caller, path.id, urlParams.expand ?? [])))
      .handle("update_connector_profile", ({ path, payload, urlParams }) =>
        Effect.flatMap(CurrentCaller, (caller) => profiles.update(caller, path.id, payload, urlParams.expand ?? [])))
      .handle("delete_connector_profile", ({ path }) =>
        Effect.flatMap(CurrentCaller, (caller) => profiles.remove(caller, path.id)))
  }))
