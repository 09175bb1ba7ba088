import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Logger } from "effect"
import { SwitchyardConfig } from "./Config.js"
import { ServerLive } from "./Server.js"

// Layer.launch keeps the server up until SIGINT/SIGTERM; runMain interrupts it then,
// which closes the listener, flushes pending work and stops the embedded database.
Effect.gen(function*() {
  const config = yield* SwitchyardConfig
  return yield* Layer.launch(ServerLive).pipe(Logger.withMinimumLogLevel(config.logLevel))
}).pipe(
  Effect.provide(SwitchyardConfig.Default),
  NodeRuntime.runMain
)
