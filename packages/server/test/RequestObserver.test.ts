import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, LogLevel } from "effect"
import { vi } from "vitest"
import { loggingLayer } from "../src/app/Logging.js"
import { noteRoute, observeRequests } from "../src/platform/metrics/RequestObserver.js"

/** The JSON log lines `observeRequests` writes for one request to `url` answered by `app`. */
const observe = (url: string, app: Effect.Effect<HttpServerResponse.HttpServerResponse>) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const spy = vi.spyOn(globalThis.console, "log").mockImplementation((...args) => void lines.push(args.join(" ")))
    const request = HttpServerRequest.fromWeb(new Request(url, { headers: { authorization: "Basic c2VjcmV0LWtleTo=" } }))
    const span = yield* Effect.withSpan(
      Effect.zipLeft(Effect.currentSpan, observeRequests(app)),
      "http.server GET"
    ).pipe(
      Effect.provideService(HttpServerRequest.HttpServerRequest, request),
      Effect.provide(loggingLayer("json", LogLevel.Info)),
      Effect.ensuring(Effect.sync(() => spy.mockRestore()))
    )
    return { span, entries: lines.map((line) => JSON.parse(line) as { annotations: Record<string, unknown> }) }
  })

// it.live: the test environment of it.effect adds a logger of its own
describe("request observer", () => {
  it.live("one JSON line: the route template the guards noted, status, duration and the request span's ids; no query or header", () =>
    Effect.gen(function*() {
      const { entries, span } = yield* observe(
        "http://switchyard.test/v2/accounts/acc-123?token=very-secret",
        Effect.as(noteRoute("/v2/accounts/:id"), HttpServerResponse.empty({ status: 204 }))
      )
      expect(entries).toHaveLength(1)
      expect(entries[0]!.annotations).toEqual({
        "http.method": "GET",
        "http.route": "/v2/accounts/:id",
        "http.status": 204,
        duration_ms: expect.any(Number),
        trace_id: span.traceId,
        span_id: span.spanId
      })
      const text = JSON.stringify(entries)
      for (const secret of ["acc-123", "very-secret", "c2VjcmV0LWtleTo", "token"]) expect(text).not.toContain(secret)
    }))

  it.live("a path no route matched is 'unmatched'; paths beside the API keep their template", () =>
    Effect.gen(function*() {
      const notFound = HttpServerResponse.empty({ status: 404 })
      expect((yield* observe("http://switchyard.test/nothing/here/42", Effect.succeed(notFound))).entries[0]!.annotations["http.route"])
        .toBe("unmatched")
      expect((yield* observe("http://switchyard.test/connect/assets/app.js", Effect.succeed(notFound))).entries[0]!.annotations["http.route"])
        .toBe("/connect/assets/:file")
    }))
})
