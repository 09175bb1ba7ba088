import cluster from "node:cluster"
import { answerPrimaryForMetrics, fleetMetricsFromPrimary, serveClusterMetrics } from "../../src/Metrics/ClusterMetrics.js"
import { enableMetrics, recordWebhookAttempt } from "../../src/Metrics/ServerMetrics.js"

/*
 * A minimal Node cluster for the metrics test: the primary serves the fleet's metrics on a
 * free port; each of two workers records one delivered webhook attempt. Once both are ready,
 * the primary prints its port and asks worker 1 for the fleet's metrics as a worker's main
 * port /metrics would, printing the answer. It runs until killed.
 */

const WORKERS = 2

if (cluster.isPrimary) {
  const { server } = await serveClusterMetrics({ port: 0, host: "127.0.0.1" })
  let ready = 0
  const workers = Array.from({ length: WORKERS }, () => cluster.fork())
  for (const worker of workers) {
    worker.on("message", (message: { readonly ready?: boolean; readonly fleet?: string }) => {
      if (message.ready === true && ++ready === WORKERS) {
        console.log(`PORT ${server!.port}`)
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
