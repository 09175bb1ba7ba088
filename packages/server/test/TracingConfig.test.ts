import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Option, Redacted } from "effect"
import { parseOtlpHeaders, tracingConfig } from "../src/platform/tracing/TracingConfig.js"

const read = (env: Record<string, string>) =>
  Effect.either(Effect.withConfigProvider(tracingConfig, ConfigProvider.fromMap(new Map(Object.entries(env)))))

const settings = (env: Record<string, string>) =>
  Effect.map(read(env), (result) => {
    if (Either.isLeft(result)) throw new Error(String(result.left))
    return Option.getOrUndefined(result.right)
  })

const failure = (env: Record<string, string>) =>
  Effect.map(read(env), (result) => {
    if (Either.isRight(result)) throw new Error("expected a configuration error")
    return String(result.left)
  })

describe("tracing configuration (the standard OTEL_* variables)", () => {
  it.effect("is off without an endpoint, and with OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none", () =>
    Effect.gen(function*() {
      expect(yield* settings({})).toBeUndefined()
      expect(yield* settings({ OTEL_SERVICE_NAME: "x" })).toBeUndefined()
      const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }
      expect(yield* settings({ ...endpoint, OTEL_SDK_DISABLED: "true" })).toBeUndefined()
      expect(yield* settings({ ...endpoint, OTEL_TRACES_EXPORTER: "none" })).toBeUndefined()
      expect(yield* settings({ ...endpoint, OTEL_TRACES_EXPORTER: "otlp" })).toBeDefined()
      expect(yield* failure({ ...endpoint, OTEL_TRACES_EXPORTER: "zipkin" })).toContain("OTEL_TRACES_EXPORTER")
    }))

  it.effect("appends v1/traces to the base endpoint; the traces endpoint is used as given", () =>
    Effect.gen(function*() {
      expect((yield* settings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }))?.url)
        .toBe("http://collector:4318/v1/traces")
      expect((yield* settings({ OTEL_EXPORTER_OTLP_ENDPOINT: "https://otel.example/base" }))?.url)
        .toBe("https://otel.example/base/v1/traces")
      expect(
        (yield* settings({
          OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://traces:9999/custom"
        }))?.url
      ).toBe("http://traces:9999/custom")
      expect(yield* failure({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toContain("absolute http or https URL")
    }))

  it.effect("has the spec's defaults and bounds", () =>
    Effect.gen(function*() {
      const defaults = yield* settings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })
      expect(defaults).toMatchObject({
        serviceName: "switchyard",
        protocol: "http/protobuf",
        timeoutMs: 10_000,
        exportIntervalMs: 5_000,
        maxBatchSize: 512
      })
      expect(Redacted.value(defaults!.headers)).toEqual({})
      const json = yield* settings({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_SERVICE_NAME: "switchyard-eu",
        OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: "2500",
        OTEL_BSP_SCHEDULE_DELAY: "100"
      })
      expect(json).toMatchObject({ protocol: "http/json", serviceName: "switchyard-eu", timeoutMs: 2500, exportIntervalMs: 100 })
      expect(yield* failure({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }))
        .toContain("grpc is not supported")
      expect(yield* failure({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_BSP_SCHEDULE_DELAY: "0" }))
        .toContain("OTEL_BSP_SCHEDULE_DELAY")
    }))

  it.effect("reads headers as the spec writes them, and quotes no value when they are malformed", () =>
    Effect.gen(function*() {
      expect(parseOtlpHeaders("Authorization=Bearer%20abc, x-scope = team-1,")).toEqual(
        Either.right({ authorization: "Bearer abc", "x-scope": "team-1" })
      )
      expect(Either.isLeft(parseOtlpHeaders("api-key"))).toBe(true)
      const message = yield* failure({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318",
        OTEL_EXPORTER_OTLP_HEADERS: "api-key=secret-value-1,=secret-value-2"
      })
      expect(message).toContain("OTEL_EXPORTER_OTLP_HEADERS")
      expect(message).not.toContain("secret-value")
      const traces = yield* settings({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318",
        OTEL_EXPORTER_OTLP_HEADERS: "a=general",
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: "a=traces"
      })
      expect(Redacted.value(traces!.headers)).toEqual({ a: "traces" })
      // redacted: printing the settings shows no header value
      expect(String(traces!.headers)).not.toContain("traces")
    }))
})
