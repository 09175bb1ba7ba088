import { HttpApiBuilder } from "@effect/platform"
import { Api, CurrentCaller } from "@switchyard/api"
import { Effect } from "effect"
import { toApiError } from "../toApiError.js"
import { AccountMetas } from "../../features/accounts/AccountMetas.js"
import { Accounts } from "../../features/accounts/Accounts.js"

export const AccountsHttpLive = HttpApiBuilder.group(Api, "accounts", (handlers) =>
  Effect.gen(function*() {
    const accounts = yield* Accounts
    const metas = yield* AccountMetas
    return handlers
      .handle("list_accounts", ({ urlParams }) => Effect.flatMap(CurrentCaller, (caller) => accounts.list(caller, urlParams)))
      .handle("list_account_filters", () => Effect.flatMap(CurrentCaller, accounts.filters))
      .handle("get_account", ({ path, urlParams }) =>
        Effect.flatMap(CurrentCaller, (caller) => accounts.get(caller, path.id, urlParams.expand ?? [])).pipe(
          Effect.mapError(toApiError)
        ))
      .handle("get_account_meta", ({ path }) =>
        Effect.flatMap(CurrentCaller, (caller) => metas.meta(caller.projectId, path.id)).pipe(Effect.mapError(toApiError)))
      .handle("patch_account", ({ path, payload, urlParams }) =>
        Effect.flatMap(CurrentCaller, (caller) => accounts.patch(caller, path.id, payload, urlParams.expand ?? [])).pipe(
          Effect.mapError(toApiError)
        ))
      .handle("delete_account", ({ path }) =>
        Effect.flatMap(CurrentCaller, (caller) => accounts.remove(caller, path.id)).pipe(Effect.mapError(toApiError)))
      .handle("create_account", ({ payload }) =>
        Effect.flatMap(CurrentCaller, (caller) => accounts.create(caller, payload)).pipe(Effect.mapError(toApiError)))
  }))
