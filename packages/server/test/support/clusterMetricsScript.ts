import { Effect, Layer } from "effect"
import cluster from "node:cluster"
import { SwitchyardConfig } from "../../src/platform/Config.js"
import { ClusterMetricsLive } from "../../src/edge/MetricsServer.js"
import { answerPrimaryForMetrics, fleetMetricsFromPrimary } from "../../src/platform/metrics/ClusterMetrics.js"
import { enableMetrics, recordWebhookAttempt } from "../../src/platform/metrics/ServerMetrics.js"

/*
 * A minimal Node cluster for the metrics test: the primary runs ClusterMetricsLive (METRICS_PORT
 * from the environment); each of two workers records one delivered webhook attempt. Once both
 * are ready, the primary asks worker 1 for the fleet's metrics as a worker's main-port
 * /metrics would, printing the answer. It runs until killed.
 */

const WORKERS = 2

if (cluster.isPrimary) {
  Effect.runFork(Layer.launch(ClusterMetricsLive.pipe(Layer.provide(SwitchyardConfig.Default))))
  let ready = 0
  const workers = Array.from({ length: WORKERS }, () => cluster.fork())
  for (const worker of workers) {
    worker.on("message", (message: { readonly ready?: boolean; readonly fleet?: string }) => {
      if (message.ready === true && ++ready === WORKERS) {
        workers[0]!.send({ askFleet: true })
      }
      if (message.fleet !== undefined) console.log(`FLEET ${JSON.stringify(message.fleet)}`)
    })
  }
} else {
  enableMetrics()
  answerPrimaryForMetrics()
  recordWebhookAttempt("delivered")
  process.on("message", (message: { readonly askFleet?: boolean }) => {
    if (message.askFleet === true) {
      fleetMetricsFromPrimary().then((fleet) => process.send!({ fleet }), (error: Error) => process.send!({ fleet: `error ${error.message}` }))
    }
  })
  process.send!({ ready: true })
}
