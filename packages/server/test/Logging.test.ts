import { describe, expect, it } from "@effect/vitest"
import { Effect, LogLevel } from "effect"
import { vi } from "vitest"
import { loggingLayer, type LogFormat } from "../src/app/Logging.js"

/** What the server's logger writes for `effect`, line by line, with LOG_FORMAT `format` and LOG_LEVEL `level`. */
const linesOf = (format: LogFormat, level: LogLevel.LogLevel, effect: Effect.Effect<void>, traceIds = false) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const spy = vi.spyOn(globalThis.console, "log").mockImplementation((...args) => void lines.push(args.join(" ")))
    yield* effect.pipe(
      Effect.provide(loggingLayer(format, level, { traceIds })),
      Effect.ensuring(Effect.sync(() => spy.mockRestore()))
    )
    return lines
  })

const request = Effect.logInfo("Sent HTTP response").pipe(Effect.annotateLogs({ "http.status": 200, "http.url": "/healthz" }))

// it.live: the test environment of it.effect adds a logger of its own
describe("logging", () => {
  it.live("json: one parseable line per entry, annotations as fields", () =>
    Effect.gen(function*() {
      const lines = yield* linesOf("json", LogLevel.Info, request)
      expect(lines).toHaveLength(1)
      const entry = JSON.parse(lines[0]!)
      expect(entry).toMatchObject({ logLevel: "INFO", annotations: { "http.status": 200, "http.url": "/healthz" } })
      expect(JSON.stringify(entry.message)).toContain("Sent HTTP response")
    }))

  it.live("logfmt: one key=value line per entry", () =>
    Effect.gen(function*() {
      const lines = yield* linesOf("logfmt", LogLevel.Info, request)
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(/level=INFO .*message="Sent HTTP response" .*http\.status=200 http\.url=\/healthz/)
    }))

  it.live("entries below LOG_LEVEL are not written", () =>
    Effect.gen(function*() {
      expect(yield* linesOf("logfmt", LogLevel.Warning, Effect.zipRight(request, Effect.logWarning("refused")))).toEqual([
        expect.stringMatching(/level=WARN .*message=refused/)
      ])
    }))

  // a span whose ids the entry should carry, told in an annotation
  const inSpan = Effect.flatMap(Effect.currentSpan, (span) =>
    Effect.logInfo("inside").pipe(Effect.annotateLogs({ expected: `${span.traceId}/${span.spanId}` }))).pipe(
      Effect.withSpan("work"),
      Effect.orDie
    )

  it.live("with traces exported, an entry inside a span carries its trace_id and span_id; one outside none", () =>
    Effect.gen(function*() {
      const lines = yield* linesOf("json", LogLevel.Info, Effect.zipRight(inSpan, Effect.logInfo("outside")), true)
      const [inside, outside] = lines.map((line) => JSON.parse(line).annotations)
      expect(`${inside.trace_id}/${inside.span_id}`).toBe(inside.expected)
      expect(outside).not.toHaveProperty("trace_id")
    }))

  it.live("without traces exported, entries carry no trace ids (they would lead nowhere)", () =>
    Effect.gen(function*() {
      const lines = yield* linesOf("json", LogLevel.Info, inSpan)
      expect(lines).toHaveLength(1)
      expect(JSON.parse(lines[0]!).annotations).not.toHaveProperty("trace_id")
    }))
})
