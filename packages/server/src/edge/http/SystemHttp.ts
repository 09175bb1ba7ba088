import { HttpApiBuilder } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Api, ServiceUnavailable } from "@switchyard/api"
import { Effect, Layer } from "effect"
import { ServerLifecycle } from "../../platform/fleet/ServerLifecycle.js"

/** A probe's database check: answered within this, or the process is not ready. */
const DATABASE_CHECK_MS = 2_000

export const SystemHttpLive = HttpApiBuilder.group(Api, "system", (handlers) =>
  Effect.gen(function*() {
    const lifecycle = yield* ServerLifecycle
    const sql = yield* SqlClient.SqlClient
    // Asked each time (no cached answer): the probe is what tells a balancer the database is gone.
    const databaseAnswers = sql`SELECT 1`.pipe(
      Effect.timeout(DATABASE_CHECK_MS),
      Effect.as(true),
      Effect.catchAllCause(() => Effect.succeed(false))
    )
    return handlers
      .handle("healthz", () => Effect.succeed({ status: "ok" as const }))
      .handle("readyz", () =>
        Effect.gen(function*() {
          if (lifecycle.isDraining()) return yield* new ServiceUnavailable({ message: "The server is shutting down" })
          if (!(yield* databaseAnswers)) return yield* new ServiceUnavailable({ message: "The database does not answer" })
          return { status: "ready" as const }
        }))
  })).pipe(Layer.provide(ServerLifecycle.Default))
