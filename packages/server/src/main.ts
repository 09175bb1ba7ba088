import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Option } from "effect"
import { SwitchyardConfig } from "./Config.js"
import { loggingLayer } from "./Logging.js"
import { ServerLive } from "./Server.js"

// Layer.launch keeps the server up until SIGINT/SIGTERM; runMain interrupts it then,
// which closes the listener, flushes pending work and stops the embedded database.
Effect.gen(function*() {
  const config = yield* SwitchyardConfig
  return yield* Layer.launch(ServerLive).pipe(Effect.provide(
    loggingLayer(config.logFormat, config.logLevel, { traceIds: Option.isSome(config.tracing) })
  ))
}).pipe(
  Effect.provide(SwitchyardConfig.Default),
  // the format is LOG_FORMAT's, not runMain's pretty default
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
