import { HttpApiBuilder } from "@effect/platform"
import { Api } from "@switchyard/api"
import { Effect } from "effect"

export const SystemHttpLive = HttpApiBuilder.group(Api, "system", (handlers) =>
  handlers.handle("healthz", () => Effect.succeed({ status: "ok" as const })))
