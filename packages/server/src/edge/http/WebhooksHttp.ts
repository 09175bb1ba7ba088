import { HttpApiBuilder } from "@effect/platform"
import { Api, CurrentCaller } from "@switchyard/api"
import { Effect } from "effect"
import { toApiError } from "../toApiError.js"
import { Webhooks } from "../../features/webhooks/Webhooks.js"

export const WebhooksHttpLive = HttpApiBuilder.group(Api, "webhooks", (handlers) =>
  Effect.gen(function*() {
    const webhooks = yield* Webhooks
    const asCaller = <A, E>(run: (caller: typeof CurrentCaller.Service) => Effect.Effect<A, E>) => Effect.flatMap(CurrentCaller, run)
    return handlers
      .handle("create_webhook", ({ payload }) =>
        asCaller((caller) => webhooks.create(caller, payload)).pipe(Effect.mapError(toApiError)))
      .handle("list_webhooks", ({ urlParams }) =>
        asCaller((caller) => webhooks.list(caller, urlParams)).pipe(Effect.mapError(toApiError)))
      .handle("get_webhook", ({ path }) => asCaller((caller) => webhooks.get(caller, path.id)).pipe(Effect.mapError(toApiError)))
      .handle("update_webhook", ({ path, payload }) =>
        asCaller((caller) => webhooks.patch(caller, path.id, payload)).pipe(Effect.mapError(toApiError)))
      .handle("delete_webhook", ({ path }) =>
        asCaller((caller) => webhooks.remove(caller, path.id)).pipe(Effect.mapError(toApiError)))
      .handle("rotate_webhook_secret", ({ path }) =>
        asCaller((caller) => webhooks.rotateSecret(caller, path.id)).pipe(Effect.mapError(toApiError)))
      .handle("test_webhook", ({ path }) =>
        asCaller((caller) => webhooks.sendTest(caller, path.id)).pipe(Effect.mapError(toApiError)))
      .handle("list_webhook_deliveries", ({ path, urlParams }) =>
        asCaller((caller) => webhooks.deliveries(caller, path.id, urlParams)).pipe(Effect.mapError(toApiError)))
      .handle("retry_webhook_delivery", ({ path }) =>
        asCaller((caller) => webhooks.retry(caller, path.id, path.delivery_id)).pipe(Effect.mapError(toApiError)))
  }))
