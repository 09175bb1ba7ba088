import * as OtlpSerialization from "@effect/opentelemetry/OtlpSerialization"
import * as OtlpTracer from "@effect/opentelemetry/OtlpTracer"
import {
  HttpClient,
  HttpClientError,
  type HttpApp,
  HttpServerError,
  HttpServerRequest,
  HttpTraceContext
} from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { type Context, Duration, Effect, Layer, Logger, Option, Redacted, Tracer } from "effect"
import * as Crypto from "node:crypto"
import { Agent } from "undici"
import { SwitchyardConfig } from "../Config.js"
import { routerTarget } from "../metrics/routerTarget.js"
import type { TracingSettings } from "./TracingConfig.js"

/**
 * Export requests at once: a collector slower than the spans arrive drops batches rather than
 * holding more and more of them in memory (a failed or refused export pauses the exporter for
 * a minute, dropping what ends meanwhile).
 */
const MAX_EXPORTS_IN_FLIGHT = 2
/** What a stop waits for the last batch at most. */
const SHUTDOWN_FLUSH = Duration.seconds(3)

/**
 * The collector's client: connections of its own, not the outbound guard's (the collector is
 * the operator's, often on a private address), no span of its own, each request bounded in
 * time, and at most `MAX_EXPORTS_IN_FLIGHT` at once. The answer is read so its socket is reused.
 */
const collectorClient = (settings: TracingSettings) =>
  Effect.gen(function*() {
    const agent = yield* Effect.acquireRelease(
      Effect.sync(() => new Agent({ connections: MAX_EXPORTS_IN_FLIGHT })),
      (agent) => Effect.promise(() => agent.destroy())
    )
    let inFlight = 0
    return HttpClient.withTracerDisabledWhen(NodeHttpClient.makeUndici(agent), () => true).pipe(
      HttpClient.transform((send, request) =>
        Effect.suspend(() => {
          if (inFlight >= MAX_EXPORTS_IN_FLIGHT) {
            return Effect.fail(
              new HttpClientError.RequestError({ request, reason: "Encode", description: "collector behind: batch dropped" })
            )
          }
          inFlight++
          return send.pipe(
            Effect.tap((response) => Effect.ignore(response.arrayBuffer)),
            Effect.timeoutFail({
              duration: Duration.millis(settings.timeoutMs),
              onTimeout: () =>
                new HttpClientError.RequestError({ request, reason: "Transport", description: "collector did not answer in time" })
            }),
            Effect.ensuring(Effect.sync(() => inFlight--))
          )
        })
      )
    )
  })

/**
 * Sets the OTLP/HTTP tracer when tracing is configured; otherwise nothing (Effect's own
 * tracer, whose spans go nowhere, stays). Spans are batched: ending one only appends it to a
 * buffer, so a slow or dead collector never slows a request.
 */
export const TracingLive: Layer.Layer<never, never, SwitchyardConfig> = Layer.unwrapScoped(
  Effect.gen(function*() {
    const { tracing } = yield* SwitchyardConfig
    if (Option.isNone(tracing)) return Layer.empty
    const settings = tracing.value
    const client = yield* collectorClient(settings)
    const tracer = yield* OtlpTracer.make({
      url: settings.url,
      resource: { serviceName: settings.serviceName },
      headers: Redacted.value(settings.headers),
      exportInterval: Duration.millis(settings.exportIntervalMs),
      maxBatchSize: settings.maxBatchSize,
      shutdownTimeout: SHUTDOWN_FLUSH
    }).pipe(
      Effect.provide(settings.protocol === "http/json" ? OtlpSerialization.layerJson : OtlpSerialization.layerProtobuf),
      Effect.provideService(HttpClient.HttpClient, client)
    )
    // Effect also writes every log entry inside a span as an event of that span: off, as log
    // annotations (a request's URL with its query) are not written for an outside collector
    return Layer.merge(Layer.setTracer(withoutLoneQueries(tracer)), Logger.remove(Logger.tracerLogger))
  })
)

const randomHex = (bytes: number) => Crypto.randomBytes(bytes).toString("hex")

/** A span that is not exported: it only gives its children a trace to belong to. */
const unsampledSpan = (
  name: string,
  parent: Option.Option<Tracer.AnySpan>,
  context: Context.Context<never>,
  links: ReadonlyArray<Tracer.SpanLink>,
  startTime: bigint,
  kind: Tracer.SpanKind
): Tracer.Span => {
  let status: Tracer.SpanStatus = { _tag: "Started", startTime }
  return {
    _tag: "Span",
    name,
    spanId: randomHex(8),
    traceId: Option.isSome(parent) ? parent.value.traceId : randomHex(16),
    parent,
    context,
    get status() {
      return status
    },
    attributes: new Map(),
    links,
    sampled: false,
    kind,
    end: (endTime, exit) => {
      if (status._tag === "Started") status = { _tag: "Ended", startTime, endTime, exit }
    },
    attribute: () => {},
    event: () => {},
    addLinks: () => {}
  }
}

/**
 * Database queries outside any request or job span (the periodic flushes, polls and
 * heartbeats: several a second) are not exported, each would be a trace of its own; nor is
 * anything under an unsampled span (a caller's `traceparent` with the sampled flag off).
 */
const withoutLoneQueries = (tracer: Tracer.Tracer): Tracer.Tracer =>
  Tracer.make({
    span: (name, parent, context, links, startTime, kind) =>
      (Option.isNone(parent) && name.startsWith("sql.")) || (Option.isSome(parent) && !parent.value.sampled)
        ? unsampledSpan(name, parent, context, links, startTime, kind)
        : tracer.span(name, parent, context, links, startTime, kind),
    context: tracer.context
  })

/**
 * A server span per request, continuing the caller's W3C `traceparent`: method, path (never
 * the query, where connect tokens and OAuth2 codes travel, nor any header), the route the
 * router matched (`http.route`, which it sets itself) and the status answered. Used instead of
 * the platform's request span, which records the full URL and most headers.
 */
export const requestSpans = <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.useSpan(
      `http.server ${request.method}`,
      {
        parent: Option.getOrUndefined(HttpTraceContext.fromHeaders(request.headers)),
        kind: "server",
        captureStackTrace: false,
        attributes: { "http.request.method": request.method, "url.path": routerTarget(request.url).path }
      },
      (span) =>
        Effect.flatMap(Effect.exit(Effect.withParentSpan(app, span)), (exit) => {
          span.attribute("http.response.status_code", HttpServerError.exitResponse(exit).status)
          return exit
        })
    ))

/** The request middleware for this configuration: `requestSpans` when tracing is on, else none at all. */
export const requestSpansWhen = (tracing: Option.Option<TracingSettings>) =>
<E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> => Option.isSome(tracing) ? requestSpans(app) : app
