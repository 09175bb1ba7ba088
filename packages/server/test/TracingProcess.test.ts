import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { attributesOf, OtlpReceiverLive, OtlpReceiverService } from "./support/OtlpReceiver.js"
import { exited, serverEnv, startServing } from "./support/ServerProcess.js"

const KEY = "swy_tracing_process_key_0123456789abcdef"

describe("traces from the server process", () => {
  it.scoped("a request's spans reach the collector on SIGTERM's flush, and its log lines carry the trace id", () =>
    Effect.gen(function*() {
      const receiver = Context.get(yield* Layer.build(OtlpReceiverLive), OtlpReceiverService)
      const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-tracing-"))
      const { base, server } = yield* Effect.promise(() =>
        startServing("src/main.ts", [], (port) =>
          serverEnv(dataDir, port, {
            SWITCHYARD_BOOTSTRAP_API_KEY: KEY,
            LOG_LEVEL: "INFO",
            LOG_FORMAT: "json",
            OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
            OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
            // no periodic export while the test runs: what arrives came with the flush on stop
            OTEL_BSP_SCHEDULE_DELAY: "600000"
          }))
      )

      const traceId = Crypto.randomBytes(16).toString("hex")
      const listed = yield* Effect.promise(() =>
        fetch(`${base}/v2/accounts?page=1&page_size=5`, {
          headers: {
            authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}`,
            traceparent: `00-${traceId}-${Crypto.randomBytes(8).toString("hex")}-01`
          },
          signal: AbortSignal.timeout(60_000)
        })
      )
      expect(listed.status).toBe(200)
      expect(receiver.spans().filter((span) => span.traceId === traceId)).toEqual([])

      const stopped = exited(server.child)
      server.child.kill("SIGTERM")
      expect(yield* Effect.promise(() => stopped)).toBe(0)

      const spans = receiver.spans().filter((span) => span.traceId === traceId)
      const request = spans.find((span) => span.name === "http.server GET")
      expect(request, "the request span, flushed on stop").toBeDefined()
      expect(attributesOf(request!)).toMatchObject({
        "url.path": "/v2/accounts",
        "http.route": "/v2/accounts",
        "http.response.status_code": 200
      })
      // the query string (page, page_size here; tokens elsewhere) is never recorded, not even
      // through log entries (Effect's default adds them to the span as events)
      expect(JSON.stringify(receiver.exports.map(({ body }) => body))).not.toContain("page_size")
      expect(request!.events ?? []).toEqual([])
      expect(spans.some((span) => span.name === "sql.execute" && span.parentSpanId !== undefined)).toBe(true)

      // the request's log line (the platform's "Sent HTTP response") names its trace
      const lines = server.output().split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line))
      const logged = lines.find((line) => line.annotations?.trace_id === traceId)
      expect(logged, server.output()).toBeDefined()
      expect(logged.annotations.span_id).toBe(request!.spanId)
      expect(server.output()).not.toContain(KEY)
    }), 300_000)
})
