import { HttpApiBuilder, HttpMiddleware } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { ApiKeys } from "../features/auth/ApiKeys.js"
import { bootstrap } from "./Bootstrap.js"
import { LastRequestTracker } from "../features/accounts/LastRequestTracker.js"
import { RequestLog } from "../features/requestLogs/RequestLog.js"
import { BuiltinConnectorsLive } from "../features/connectors/BuiltinConnectorsLive.js"
import { CredentialCipher } from "../platform/crypto/CredentialCipher.js"
import { SchedulerLive } from "./SchedulerLive.js"
import { SwitchyardConfig } from "../platform/Config.js"
import { HttpApiLive, HttpExtrasLive } from "./HttpApiLive.js"
import { closeConnectionsWhenDraining, ServerLifecycle } from "../platform/fleet/ServerLifecycle.js"
import { MetricsLive } from "../edge/http/MetricsHttp.js"
import { observeRequests } from "../platform/metrics/RequestObserver.js"
import { makeNodeServer } from "./NodeServer.js"
import { ProjectsRepo } from "../features/projects/ProjectsRepo.js"
import { OutboundHttp } from "../platform/outboundHttp/OutboundHttp.js"
import { RateLimitStore } from "../platform/outboundHttp/RateLimitStore.js"
import { SqlLive } from "../platform/database/Sql.js"
import { requestSpansWhen, TracingLive } from "../platform/tracing/Tracing.js"
import { WebhookWorkerLive } from "../features/webhooks/WebhookSender.js"

const BootstrapLive = Layer.effectDiscard(bootstrap).pipe(
  Layer.provide([ProjectsRepo.Default, ApiKeys.Default])
)

/**
 * The API with its docs, bootstrap and built-in connectors, then the background jobs; needs
 * SQL (migrated), config and `OutboundHttp`. The jobs (and the webhook deliveries) start only once the rest is built: a
 * failure while building the app then ends the start with its own message (a scheduler
 * built beside it, when interrupted, hid that message, and the process exited 0).
 */
export const AppLive = SchedulerLive.pipe(
  Layer.provide([LastRequestTracker.Default, RequestLog.Default]),
  Layer.merge(WebhookWorkerLive),
  Layer.provideMerge(
    HttpExtrasLive.pipe(
      Layer.provideMerge(HttpApiLive),
      Layer.merge(BootstrapLive),
      Layer.merge(BuiltinConnectorsLive)
    )
  ),
  Layer.provideMerge(RateLimitStore.Default)
)

const HttpServerLive = Layer.unwrapEffect(
  Effect.gen(function*() {
    const config = yield* SwitchyardConfig
    const lifecycle = yield* ServerLifecycle
    return NodeHttpServer.layer(() => lifecycle.attach(makeNodeServer()), { port: config.port, host: config.host })
  })
)

/**
 * The API on PORT/HOST over the configured database (see `ServerLive`). `observeRequests` gives
 * each request its metrics and its one log line; a request span of our own wraps it only when
 * traces are exported (platform/tracing/Tracing.ts), so the line carries the trace id.
 */
const ServingLive = Layer.unwrapEffect(Effect.map(SwitchyardConfig, ({ tracing }) =>
  HttpApiBuilder.serve((app) => requestSpansWhen(tracing)(observeRequests(closeConnectionsWhenDraining(app)))))).pipe(
  // The platform's own request span stays off: it records the full URL (query included) and
  // most headers, and without an exporter it went nowhere at 5-10% of a unified call's CPU.
  (serve) => HttpMiddleware.withTracerDisabledWhen(serve, () => true),
  Layer.provide(HttpServerLive.pipe(Layer.provideMerge(AppLive), Layer.provideMerge(MetricsLive))),
  Layer.provide(SqlLive),
  Layer.provide(CredentialCipher.Default),
  Layer.provide(OutboundHttp.Default)
)

/**
 * Built after the server, so on shutdown it is released first: the process drains (readyz
 * 503, listener closed, in-flight requests answered) while handlers, jobs and the database
 * are all still there; then the rest closes (the scheduler flushing its buffers).
 */
const DrainOnShutdownLive = Layer.scopedDiscard(
  Effect.gen(function*() {
    const config = yield* SwitchyardConfig
    const lifecycle = yield* ServerLifecycle
    yield* Effect.addFinalizer(() => lifecycle.drain(config.shutdownGraceSeconds * 1000))
  })
)

/**
 * The running server: the API on PORT/HOST over the configured database. The socket opens
 * only after the app (migrations, bootstrap) is built, so no early request goes unanswered.
 * The credential key is loaded before the database is opened: a missing or unreadable key is
 * reported as such, even when the database is not reachable either.
 */
export const ServerLive = DrainOnShutdownLive.pipe(
  Layer.provide(ServingLive),
  Layer.provide(ServerLifecycle.Default),
  // the tracer first, so every span (SQL, background jobs) goes to the exporter
  Layer.provide(TracingLive),
  Layer.provide(SwitchyardConfig.Default)
)
