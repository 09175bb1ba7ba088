import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Option } from "effect"
import cluster from "node:cluster"
import { SwitchyardConfig } from "./platform/Config.js"
import { runClusterPrimary } from "./platform/fleet/ClusterPrimary.js"
import { ClusterMetricsLive } from "./edge/MetricsServer.js"
import { loggingLayer } from "./app/Logging.js"
import { ServerLive } from "./app/Server.js"

// Layer.launch keeps the server up until SIGINT/SIGTERM; runMain interrupts it then, which
// drains the server (see ServerLive), flushes pending work and stops the embedded database.
Effect.gen(function*() {
  const config = yield* SwitchyardConfig
  const serve = Effect.gen(function*() {
    if (cluster.isPrimary && config.serverWorkers > 1) {
      if (Option.isSome(config.databaseUrl)) {
        // the primary sums its workers' metrics (for METRICS_PORT and their /metrics)
        return yield* runClusterPrimary({ workers: config.serverWorkers, shutdownGraceMs: config.shutdownGraceSeconds * 1000 }).pipe(
          Effect.provide(ClusterMetricsLive)
        )
      }
      yield* Effect.logWarning(
        `SWITCHYARD_WORKERS=${config.serverWorkers} needs DATABASE_URL (PostgreSQL): the embedded database serves one process, so one process runs`
      )
    }
    if (cluster.isWorker) {
      // The primary stops its workers with SIGTERM; a Ctrl-C reaches them too. Once draining,
      // a second signal must not kill a worker mid-request (runMain stops listening after one).
      process.on("SIGINT", () => {})
      process.on("SIGTERM", () => {})
    }
    return yield* Layer.launch(ServerLive)
  })
  return yield* serve.pipe(
    // a worker's lines say which worker wrote them
    cluster.isWorker ? Effect.annotateLogs("worker", String(cluster.worker?.id)) : (effect) => effect,
    Effect.provide(loggingLayer(config.logFormat, config.logLevel, { traceIds: Option.isSome(config.tracing) }))
  )
}).pipe(
  Effect.provide(SwitchyardConfig.Default),
  // the format is LOG_FORMAT's, not runMain's pretty default
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
