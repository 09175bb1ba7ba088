import { HttpClient, HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Context, Effect, type Exit, Layer, Option, Tracer } from "effect"
import * as Crypto from "node:crypto"
import * as Net from "node:net"
import { freshProject } from "./support/Fixtures.js"
import { attributesOf, type OtlpSpan, OtlpReceiverLive, OtlpReceiverService } from "./support/OtlpReceiver.js"
import { SandboxLive, SandboxProviders, sandboxGreenhouseAccount } from "./support/SandboxLayer.js"
import { waitFor } from "./support/ServerProcess.js"
import { TestServer } from "./support/TestServer.js"

const UNIFIED_PATH = "/unified/ats/applications"
const COLLECTOR_TOKEN = "collector-token-0123456789"

const basic = (user: string) => Buffer.from(`${user}:`).toString("base64")

/** Every string leaf of a JSON value that reads as personal data (a name, an email, a text). */
const personalStrings = (value: unknown): Array<string> =>
  typeof value === "string"
    ? (/[@ ]/.test(value) && value.length >= 5 ? [value] : [])
    : Array.isArray(value)
    ? value.flatMap(personalStrings)
    : typeof value === "object" && value !== null
    ? Object.values(value).flatMap(personalStrings)
    : []

/**
 * A unified call with a W3C traceparent, as the caller's own tracing would send it (the test
 * client's own span and header are off, so the header is this one).
 */
const tracedUnifiedCall = (key: string, accountId: string, traceparent?: string) =>
  Effect.flatMap(HttpClient.HttpClient, (client) =>
    HttpClient.withTracerPropagation(client, false).execute(
      HttpClientRequest.get(`${UNIFIED_PATH}?page_size=3`).pipe(
        HttpClientRequest.setHeaders({
          authorization: `Basic ${basic(key)}`,
          "x-account-id": accountId,
          ...(traceparent === undefined ? {} : { traceparent })
        })
      )
    )).pipe(
      Effect.flatMap((response) => Effect.map(response.json, (body) => ({ status: response.status, body }))),
      Effect.scoped,
      Effect.withTracerEnabled(false)
    )

const Exported = Layer.unwrapEffect(
  Effect.map(OtlpReceiverService, (receiver) =>
    Layer.merge(
      TestServer({
        SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1",
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20${COLLECTOR_TOKEN}`,
        OTEL_SERVICE_NAME: "switchyard-test",
        // a short batch interval, so the test waits for spans briefly (never for a time)
        OTEL_BSP_SCHEDULE_DELAY: "50"
      }),
      SandboxLive(11)
    ))
).pipe(Layer.provideMerge(OtlpReceiverLive))

layer(Exported, { excludeTestServices: true })("traces exported over OTLP/HTTP", (it) => {
  it.effect("one unified call arrives as one trace: request, account, action, step, provider call, attempt, SQL, with no secret", () =>
    Effect.gen(function*() {
      const receiver = yield* OtlpReceiverService
      const sandbox = yield* SandboxProviders
      const project = yield* freshProject
      const account = yield* project.client.accounts.create_account({ payload: sandboxGreenhouseAccount(sandbox) })
      const traceId = Crypto.randomBytes(16).toString("hex")
      const callerSpanId = Crypto.randomBytes(8).toString("hex")
      const answer = yield* tracedUnifiedCall(project.key, account.id, `00-${traceId}-${callerSpanId}-01`)
      expect(answer.status).toBe(200)

      // the request's span ends after its children; batches arrive as they are exported
      const inTrace = () => receiver.spans().filter((span) => span.traceId === traceId)
      yield* Effect.promise(() =>
        waitFor(() => inTrace().some((span) => span.name.startsWith("http.server")), "the request span at the receiver")
      )
      const spans = inTrace()
      const byId = new Map(spans.map((span) => [span.spanId, span]))
      const ancestors = (span: OtlpSpan): Array<OtlpSpan> => {
        const chain: Array<OtlpSpan> = []
        for (let parent = byId.get(span.parentSpanId ?? ""); parent !== undefined; parent = byId.get(parent.parentSpanId ?? "")) {
          chain.push(parent)
        }
        return chain
      }
      const named = (name: string) => {
        const found = spans.filter((span) => span.name === name)
        expect(found, name).not.toHaveLength(0)
        return found[0]!
      }

      // the caller's traceparent is honoured: the request span continues its trace
      const request = named("http.server GET")
      expect(request.parentSpanId).toBe(callerSpanId)
      expect(request.kind).toBe(2)
      expect(attributesOf(request)).toMatchObject({
        "http.request.method": "GET",
        "url.path": UNIFIED_PATH,
        "http.route": UNIFIED_PATH,
        "http.response.status_code": 200
      })
      // every other span of the trace hangs under the request
      for (const span of spans) if (span !== request) expect(ancestors(span), span.name).toContain(request)

      const unified = named("UnifiedRunner.run")
      const action = named("ActionRunner.execute")
      const resolve = named("AccountContexts.resolve")
      const engineAction = named("switchyard.action")
      const call = named("ProviderHttp.call")
      const attempt = named("ProviderHttp.attempt")
      expect(ancestors(action)).toContain(unified)
      expect(resolve.parentSpanId).toBe(action.spanId)
      expect(ancestors(engineAction)).toContain(action)
      const step = byId.get(call.parentSpanId ?? "")
      expect(step?.name).toBe("switchyard.step")
      expect(step?.parentSpanId).toBe(engineAction.spanId)
      expect(attempt.parentSpanId).toBe(call.spanId)
      expect(call.kind).toBe(3)

      expect(attributesOf(action)).toMatchObject({
        "switchyard.call.kind": "unified",
        "switchyard.project.id": project.projectId,
        "switchyard.account.id": account.id,
        "switchyard.action.id": "ats_list_applications"
      })
      expect(attributesOf(resolve)).toMatchObject({ "switchyard.account.id": account.id, "switchyard.connector.key": "greenhouse" })
      expect(attributesOf(engineAction)).toMatchObject({ "connector.key": "greenhouse", "action.id": "ats_list_applications" })
      expect(attributesOf(call)).toMatchObject({
        "http.request.method": "GET",
        "server.address": "127.0.0.1",
        "switchyard.connector.key": "greenhouse",
        "switchyard.action.id": "ats_list_applications",
        "http.response.status_code": 200,
        "switchyard.provider.attempts": 1
      })
      expect(attributesOf(attempt)).toMatchObject({ "switchyard.provider.attempt": 1, "http.response.status_code": 200 })

      // database queries of the request are in its trace, as statement text with placeholders
      const queries = spans.filter((span) => span.name === "sql.execute")
      expect(queries).not.toHaveLength(0)
      for (const query of queries) {
        expect(query.kind).toBe(3)
        expect(typeof attributesOf(query)["db.query.text"]).toBe("string")
      }
      // the exporter's own requests are not traced, nor are provider calls by the platform's client
      expect(spans.filter((span) => span.name.startsWith("http.client"))).toEqual([])
      // queries outside any request or job (flushes, polls, heartbeats) are not exported at all
      const lone = receiver.spans().filter((span) => span.name.startsWith("sql.") && span.parentSpanId === undefined)
      expect(lone).toEqual([])

      // the collector got the configured header, JSON, and the service name
      const first = receiver.exports[0]!
      expect(first.headers.authorization).toBe(`Bearer ${COLLECTOR_TOKEN}`)
      expect(first.headers["content-type"]).toContain("application/json")
      expect(first.body.resourceSpans[0]?.resource?.attributes).toContainEqual({
        key: "service.name",
        value: { stringValue: "switchyard-test" }
      })

      // nothing exported (the account creation included) carries a key, a credential or a body
      const secrets = [
        sandbox.ats.apiKey,
        basic(sandbox.ats.apiKey),
        project.key,
        basic(project.key),
        COLLECTOR_TOKEN,
        ...personalStrings(answer.body)
      ]
      expect(personalStrings(answer.body)).not.toHaveLength(0)
      const exported = receiver.exports.map(({ body }) => JSON.stringify(body)).join("\n")
      for (const secret of secrets) expect(exported.includes(secret), `exported spans contain ${secret}`).toBe(false)
    }))
})

/** A span kept in memory, to see which spans exist when nothing is exported. */
class RecordedSpan implements Tracer.Span {
  readonly _tag = "Span"
  readonly spanId = Crypto.randomBytes(8).toString("hex")
  readonly traceId: string
  readonly sampled = true
  readonly attributes = new Map<string, unknown>()
  readonly links: Array<Tracer.SpanLink>
  status: Tracer.SpanStatus

  constructor(
    readonly name: string,
    readonly parent: Option.Option<Tracer.AnySpan>,
    readonly context: Context.Context<never>,
    links: ReadonlyArray<Tracer.SpanLink>,
    startTime: bigint,
    readonly kind: Tracer.SpanKind
  ) {
    this.traceId = Option.match(parent, { onNone: () => this.spanId, onSome: (span) => span.traceId })
    this.links = [...links]
    this.status = { _tag: "Started", startTime }
  }

  end(endTime: bigint, exit: Exit.Exit<unknown, unknown>) {
    if (this.status._tag === "Started") this.status = { _tag: "Ended", startTime: this.status.startTime, endTime, exit }
  }

  attribute(key: string, value: unknown) {
    this.attributes.set(key, value)
  }

  event() {}

  addLinks(links: ReadonlyArray<Tracer.SpanLink>) {
    this.links.push(...links)
  }
}

const recorded: Array<RecordedSpan> = []
const recordingTracer = Tracer.make({
  span: (name, parent, context, links, startTime, kind) => {
    const span = new RecordedSpan(name, parent, context, links, startTime, kind)
    recorded.push(span)
    return span
  },
  context: (f) => f()
})

// no OTEL_* variable: no exporter replaces the tracer in place (here one that records)
const NotExported = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive(11)).pipe(
  Layer.provide(Layer.setTracer(recordingTracer))
)

layer(NotExported, { excludeTestServices: true })("traces without an endpoint", (it) => {
  it.effect("no exporter replaces the tracer and no request span is made", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxProviders
      const project = yield* freshProject
      const account = yield* project.client.accounts.create_account({ payload: sandboxGreenhouseAccount(sandbox) })
      const traceId = Crypto.randomBytes(16).toString("hex")
      const answer = yield* tracedUnifiedCall(project.key, account.id, `00-${traceId}-${Crypto.randomBytes(8).toString("hex")}-01`)
      expect(answer.status).toBe(200)
      // the action's span ends before the answer leaves: it is recorded by now, by this tracer
      const action = recorded.find((span) =>
        span.name === "ActionRunner.execute" && span.attributes.get("switchyard.account.id") === account.id
      )
      expect(action).toBeDefined()
      expect(recorded.filter((span) => span.name.startsWith("http.server"))).toEqual([])
      expect(recorded.filter((span) => span.traceId === traceId)).toEqual([])
    }))
})

/** A collector that accepts connections and never answers, counting them (open and at most at once). */
class DeadCollector extends Context.Tag("Test/DeadCollector")<DeadCollector, {
  readonly url: string
  readonly seen: () => number
  readonly mostAtOnce: () => number
}>() {}

const DeadCollectorLive = Layer.scoped(
  DeadCollector,
  Effect.acquireRelease(
    Effect.async<{ readonly server: Net.Server; readonly sockets: Set<Net.Socket>; readonly stats: { seen: number; most: number } }>(
      (resume) => {
        const sockets = new Set<Net.Socket>()
        const stats = { seen: 0, most: 0 }
        const server = Net.createServer((socket) => {
          sockets.add(socket)
          stats.seen++
          stats.most = Math.max(stats.most, sockets.size)
          socket.on("close", () => sockets.delete(socket))
          socket.on("error", () => {})
        })
        server.listen(0, "127.0.0.1", () => resume(Effect.succeed({ server, sockets, stats })))
      }
    ),
    ({ server, sockets }) =>
      Effect.async<void>((resume) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ server, stats }) => ({
    url: `http://127.0.0.1:${(server.address() as Net.AddressInfo).port}`,
    seen: () => stats.seen,
    mostAtOnce: () => stats.most
  })))
)

const DeadExport = Layer.unwrapEffect(
  Effect.map(DeadCollector, (collector) =>
    Layer.merge(
      TestServer({
        SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1",
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_BSP_SCHEDULE_DELAY: "10",
        // small batches, so the calls below fill many of them while the first exports hang
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "5",
        // longer than the test: every export stays in flight until the server stops
        OTEL_EXPORTER_OTLP_TIMEOUT: "120000"
      }),
      SandboxLive(11)
    ))
).pipe(Layer.provideMerge(DeadCollectorLive))

layer(DeadExport, { excludeTestServices: true })("traces with a collector that never answers", (it) => {
  it.effect("calls are answered, at most two exports are in flight, and the server still stops", () =>
    Effect.gen(function*() {
      const collector = yield* DeadCollector
      const sandbox = yield* SandboxProviders
      const project = yield* freshProject
      const account = yield* project.client.accounts.create_account({ payload: sandboxGreenhouseAccount(sandbox) })
      yield* Effect.promise(() => waitFor(() => collector.seen() > 0, "an export to reach the dead collector"))
      for (let i = 0; i < 10; i++) {
        expect((yield* tracedUnifiedCall(project.key, account.id)).status).toBe(200)
      }
      expect(collector.mostAtOnce()).toBeGreaterThan(0)
      expect(collector.mostAtOnce()).toBeLessThanOrEqual(2)
      // the layer's end stops the server: its flush gives up after 3 s rather than waiting
    }))
})
