import { collectDefaultMetrics, Counter, Gauge, Histogram, register } from "prom-client"

/*
 * The server's Prometheus metrics, on prom-client's global registry: in a Node cluster the
 * primary's AggregatorRegistry asks each worker for exactly that registry over IPC. Nothing
 * is recorded until `enableMetrics` (metrics configured), so a server without them pays one
 * boolean test per hook.
 */

let enabled = false

/** Turns recording on (idempotent) and starts the default process metrics (cpu, memory, event loop lag). */
export const enableMetrics = () => {
  if (enabled) return
  enabled = true
  collectDefaultMetrics({ register })
}

export const metricsEnabled = () => enabled

/** The registry's text exposition (this process only). */
export const localMetricsText = () => register.metrics()

export const METRICS_CONTENT_TYPE = register.contentType

/** Most distinct values one label keeps; later new values count as "other" (custom connectors are user-defined). */
const MAX_LABEL_VALUES = 200

const boundedLabel = () => {
  const seen = new Set<string>()
  return (value: string) => {
    if (seen.has(value)) return value
    if (seen.size >= MAX_LABEL_VALUES) return "other"
    seen.add(value)
    return value
  }
}

const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])

const httpRequests = new Counter({
  name: "switchyard_http_requests_total",
  help: "HTTP requests answered, by method, route template and status",
  labelNames: ["method", "route", "status"] as const
})

const httpDuration = new Histogram({
  name: "switchyard_http_request_duration_seconds",
  help: "Time from request to answer, by method and route template",
  labelNames: ["method", "route"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
})

interface RouteInstruments {
  readonly duration: Histogram.Internal<"method" | "route">
  readonly byStatus: Map<number, Counter.Internal>
}

const routeInstruments = new Map<string, RouteInstruments>()

/** One answered request: `route` is a template (or "unmatched"), never the raw path. */
export const recordHttpRequest = (method: string, route: string, status: number, seconds: number) => {
  if (!enabled) return
  const knownMethod = KNOWN_METHODS.has(method) ? method : "OTHER"
  const key = `${knownMethod} ${route}`
  let instruments = routeInstruments.get(key)
  if (instruments === undefined) {
    instruments = { duration: httpDuration.labels(knownMethod, route), byStatus: new Map() }
    routeInstruments.set(key, instruments)
  }
  let counter = instruments.byStatus.get(status)
  if (counter === undefined) {
    counter = httpRequests.labels(knownMethod, route, String(status))
    instruments.byStatus.set(status, counter)
  }
  counter.inc()
  instruments.duration.observe(seconds)
}

const providerCalls = new Counter({
  name: "switchyard_provider_calls_total",
  help: "Provider calls (after retries), by connector, action and outcome",
  labelNames: ["connector", "action", "outcome"] as const
})

const providerDuration = new Histogram({
  name: "switchyard_provider_call_duration_seconds",
  help: "Provider call time including retries and rate-limit waits, by connector, action and outcome",
  labelNames: ["connector", "action", "outcome"] as const,
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]
})

const providerRetries = new Counter({
  name: "switchyard_provider_retries_total",
  help: "Provider attempts after the first of a call, by connector and action",
  labelNames: ["connector", "action"] as const
})

const rateLimitWaits = new Counter({
  name: "switchyard_provider_rate_limit_waits_total",
  help: "Provider attempts that waited for their account's rate-limit slot, by connector",
  labelNames: ["connector"] as const
})

const rateLimitWaitSeconds = new Counter({
  name: "switchyard_provider_rate_limit_wait_seconds_total",
  help: "Seconds provider attempts waited for their account's rate-limit slot, by connector",
  labelNames: ["connector"] as const
})

const rateLimitRefusals = new Counter({
  name: "switchyard_provider_rate_limit_refusals_total",
  help: "Provider calls answered 429 before sending (rate: the slots are taken; queue: too many waiting), by connector",
  labelNames: ["connector", "reason"] as const
})

const connectorLabel = boundedLabel()
const actionLabel = boundedLabel()

/**
 * What a provider call reports. `outcome`: success, client_error or server_error for an
 * answer (2xx/3xx, 4xx, 5xx), else the transport failure's reason (timeout, unreachable,
 * rate_limited, unavailable, too_large, invalid_response).
 */
export const recordProviderCall = (
  connector: string | undefined,
  action: string | undefined,
  outcome: string,
  attempts: number,
  seconds: number
) => {
  if (!enabled) return
  const c = connectorLabel(connector ?? "unknown")
  const a = actionLabel(action ?? "none")
  providerCalls.labels(c, a, outcome).inc()
  providerDuration.labels(c, a, outcome).observe(seconds)
  if (attempts > 1) providerRetries.labels(c, a).inc(attempts - 1)
}

/** The outcome label of an answered provider call. */
export const answerOutcome = (status: number) => status >= 500 ? "server_error" : status >= 400 ? "client_error" : "success"

export const recordRateLimitWait = (connector: string | undefined, waitMs: number) => {
  if (!enabled || waitMs <= 0) return
  const c = connectorLabel(connector ?? "unknown")
  rateLimitWaits.labels(c).inc()
  rateLimitWaitSeconds.labels(c).inc(waitMs / 1000)
}

export const recordRateLimitRefusal = (connector: string | undefined, reason: "rate" | "queue") => {
  if (!enabled) return
  rateLimitRefusals.labels(connectorLabel(connector ?? "unknown"), reason).inc()
}

const tokenRefreshes = new Counter({
  name: "switchyard_oauth_token_refreshes_total",
  help: "OAuth2 access-token refreshes this process made, by connector and outcome (success, failed, revoked)",
  labelNames: ["connector", "outcome"] as const
})

export const recordTokenRefresh = (connector: string, outcome: "success" | "failed" | "revoked") => {
  if (!enabled) return
  tokenRefreshes.labels(connectorLabel(connector), outcome).inc()
}

const webhookAttempts = new Counter({
  name: "switchyard_webhook_delivery_attempts_total",
  help: "Webhook delivery attempts, by outcome (delivered; retrying: failed, tried again later; failed: given up)",
  labelNames: ["outcome"] as const
})

export const recordWebhookAttempt = (outcome: "delivered" | "retrying" | "failed") => {
  if (!enabled) return
  webhookAttempts.labels(outcome).inc()
}

/** Readers of gauges that are measured at scrape time (set by the services that own the state). */
const gaugeReaders = {
  requestLogQueue: (): number | undefined => undefined,
  databasePool: (): { readonly total: number; readonly idle: number; readonly waiting: number } | undefined => undefined
}

new Gauge({
  name: "switchyard_request_log_queue_depth",
  help: "Request log entries buffered in memory, not yet written to the database",
  collect() {
    const depth = gaugeReaders.requestLogQueue()
    if (depth !== undefined) this.set(depth)
  }
})

new Gauge({
  name: "switchyard_db_pool_connections",
  help: "Database pool connections by state (total open, idle, waiting: callers queued for a connection)",
  labelNames: ["state"] as const,
  collect() {
    const pool = gaugeReaders.databasePool()
    if (pool === undefined) return
    this.labels("total").set(pool.total)
    this.labels("idle").set(pool.idle)
    this.labels("waiting").set(pool.waiting)
  }
})

/** Lets the request log's queue depth be read at scrape time. */
export const measureRequestLogQueue = (read: () => number) => {
  gaugeReaders.requestLogQueue = read
}

/** Lets the database pool's counts be read at scrape time. */
export const measureDatabasePool = (read: () => { readonly total: number; readonly idle: number; readonly waiting: number }) => {
  gaugeReaders.databasePool = read
}
