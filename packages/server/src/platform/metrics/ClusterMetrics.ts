import cluster from "node:cluster"
import { AggregatorRegistry, type PrometheusContentType } from "prom-client"

/*
 * Metrics of a Node cluster: each worker records in its own registry; the primary sums them
 * (prom-client's AggregatorRegistry asks every worker over cluster IPC), so a scrape sees the
 * whole machine. A worker's main-port /metrics asks the primary for that sum.
 */

const FLEET_REQUEST = "switchyard:fleet-metrics:request"
const FLEET_ANSWER = "switchyard:fleet-metrics:answer"
/** Longer than prom-client's own 5 s wait for the workers. */
const FLEET_ANSWER_TIMEOUT_MS = 10_000

interface FleetRequest {
  readonly type: typeof FLEET_REQUEST
  readonly id: number
}

interface FleetAnswer {
  readonly type: typeof FLEET_ANSWER
  readonly id: number
  readonly text?: string
  readonly error?: string
}

const isMessage = <T extends { readonly type: string }>(message: unknown, type: T["type"]): message is T =>
  typeof message === "object" && message !== null && (message as { type?: unknown }).type === type

let aggregator: AggregatorRegistry<PrometheusContentType> | undefined

/** prom-client's cluster listeners (the primary's, or a worker's answer to the primary); idempotent. */
const aggregatorRegistry = () => (aggregator ??= new AggregatorRegistry())

/** Whether this process is a cluster worker (its metrics are summed by the primary). */
export const inClusterWorker = () => cluster.isWorker

/** In a worker: answer the primary's requests for this worker's metrics. */
export const answerPrimaryForMetrics = () => {
  if (cluster.isWorker) aggregatorRegistry()
}

/** In the primary: every live worker's metrics, summed, in the text exposition format. */
export const fleetMetrics = (): Promise<string> => aggregatorRegistry().clusterMetrics()

/**
 * In the primary: answers workers asking for the fleet's metrics (their main-port /metrics)
 * until the returned function is called. Call once, before or after forking.
 */
export const answerWorkersForMetrics = (): (() => void) => {
  const answer = (worker: { send: (message: FleetAnswer) => unknown }, message: unknown) => {
    if (!isMessage<FleetRequest>(message, FLEET_REQUEST)) return
    fleetMetrics().then(
      (text) => worker.send({ type: FLEET_ANSWER, id: message.id, text }),
      (error: Error) => worker.send({ type: FLEET_ANSWER, id: message.id, error: error.message })
    )
  }
  cluster.on("message", answer)
  return () => cluster.off("message", answer)
}

let nextRequest = 0
const waiting = new Map<number, { readonly resolve: (text: string) => void; readonly reject: (error: Error) => void }>()
let listening = false

/** In a worker: the fleet's metrics as the primary sums them (the primary must run `serveClusterMetrics`). */
export const fleetMetricsFromPrimary = (): Promise<string> =>
  new Promise((resolve, reject) => {
    if (!listening) {
      listening = true
      process.on("message", (message: unknown) => {
        if (!isMessage<FleetAnswer>(message, FLEET_ANSWER)) return
        const pending = waiting.get(message.id)
        waiting.delete(message.id)
        if (message.text !== undefined) pending?.resolve(message.text)
        else pending?.reject(new Error(message.error ?? "the primary sent no metrics"))
      })
    }
    const id = nextRequest++
    const timer = setTimeout(() => {
      waiting.delete(id)
      reject(new Error("the cluster primary did not answer with the fleet's metrics"))
    }, FLEET_ANSWER_TIMEOUT_MS)
    waiting.set(id, {
      resolve: (text) => (clearTimeout(timer), resolve(text)),
      reject: (error) => (clearTimeout(timer), reject(error))
    })
    process.send!({ type: FLEET_REQUEST, id } satisfies FleetRequest)
  })
