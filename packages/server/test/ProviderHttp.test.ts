import { describe, expect, it, layer } from "@effect/vitest"
import { type ProviderRequest, ProviderTransport } from "@switchyard/engine"
import { Effect, Exit, Layer, Tracer } from "effect"
import { createServer, type Server } from "node:http"
import { type AddressInfo, createServer as createTcpServer } from "node:net"
import { MockAgent } from "undici"
import { SwitchyardConfig } from "../src/platform/Config.js"
import { OutboundHttp, outboundHttpOver } from "../src/platform/outboundHttp/OutboundHttp.js"
import { callerKey, ProviderCaller, ProviderHttp, redactCall } from "../src/platform/outboundHttp/ProviderHttp.js"
import { retryableFailure } from "../src/platform/outboundHttp/RetryPolicy.js"
import { testConfig } from "./support/TestServer.js"

/*
 * Retries of calls that got no answer: a write may have been carried out before the
 * answer was lost, so only idempotent methods repeat after a timeout or a dropped connection.
 */

type Behaviour = "hang" | "reset" | "stall" | "endless"

/**
 * A provider that counts requests and never answers them (hang), drops the connection (reset),
 * sends its headers and then nothing (stall), or streams a body without a length that never
 * ends (endless).
 */
const misbehavingProvider = (behaviour: Behaviour) =>
  Effect.acquireRelease(
    Effect.async<{ readonly server: Server; readonly url: string; readonly received: () => number }>((resume) => {
      let received = 0
      const server = createServer((request, response) => {
        received++
        if (behaviour === "reset") request.socket.destroy()
        if (behaviour === "stall") response.writeHead(200, { "content-type": "application/json" }).write("[")
        if (behaviour === "endless") {
          response.writeHead(200, { "content-type": "application/json" })
          const chunk = Buffer.alloc(1024 * 1024, " ")
          const more = () => {
            while (!response.destroyed && response.write(chunk));
          }
          response.on("drain", more)
          more()
        }
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({ server, url: `http://127.0.0.1:${port}/v1/things`, received: () => received }))
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

const liveWithTimeout = (attemptTimeoutMs: number) =>
  ProviderHttp.Default.pipe(
    Layer.provide(OutboundHttp.Default),
    Layer.provide(SwitchyardConfig.Default),
    Layer.provide(Layer.setConfigProvider(testConfig(undefined, {
      SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1",
      SWITCHYARD_PROVIDER_TIMEOUT_MS: String(attemptTimeoutMs),
      SWITCHYARD_PROVIDER_DEADLINE_MS: String(Math.max(5000, 3 * attemptTimeoutMs)),
      SWITCHYARD_PROVIDER_MAX_ATTEMPTS: "3"
    })))
  )

const Live = liveWithTimeout(150)

const attempts = (behaviour: Behaviour, method: ProviderRequest["method"]) =>
  Effect.gen(function*() {
    const provider = yield* misbehavingProvider(behaviour)
    const http = yield* ProviderHttp
    const failure = yield* Effect.flip(
      http.transport({ caller: ProviderCaller.Account({ accountId: `retry-${behaviour}-${method}` }) }).send({
        method,
        url: provider.url,
        headers: {},
        ...(method === "POST" ? { body: { _tag: "Json" as const, value: { name: "once" } } } : {}),
        secrets: []
      })
    )
    return { reason: failure.reason, received: provider.received() }
  }).pipe(Effect.scoped)

layer(Live, { excludeTestServices: true })("provider HTTP retries without an answer", (it) => {
  it.effect("a timed-out GET is repeated, a timed-out POST is not", () =>
    Effect.gen(function*() {
      expect(yield* attempts("hang", "GET")).toEqual({ reason: "timeout", received: 3 })
      expect(yield* attempts("hang", "POST")).toEqual({ reason: "timeout", received: 1 })
    }))

  it.effect("an answer whose body stops coming is a timeout like one that never starts", () =>
    Effect.gen(function*() {
      expect(yield* attempts("stall", "GET")).toEqual({ reason: "timeout", received: 3 })
    }))
})

// An attempt timeout far longer than anything here takes on a busy machine, where no timeout
// is in play: a dropped connection must not be read as a timeout when a busy machine is slow to
// see the reset, and reading past the size bound would have to time out instead (and a
// timed-out GET is sent again).
layer(liveWithTimeout(60_000), { excludeTestServices: true })("provider HTTP without an answer, before any timeout", (it) => {
  it.effect("a connection dropped after the request is repeated only for idempotent methods", () =>
    Effect.gen(function*() {
      expect(yield* attempts("reset", "PUT")).toEqual({ reason: "unreachable", received: 3 })
      expect(yield* attempts("reset", "POST")).toEqual({ reason: "unreachable", received: 1 })
    }))

  it.effect("an answer without a length is cut off once it passes the bound, not read to its end", () =>
    Effect.gen(function*() {
      expect(yield* attempts("endless", "GET")).toEqual({ reason: "too_large", received: 1 })
    }))
})

/** A local port nothing listens on: a connection to it is refused before anything is sent. */
const refusingPort = Effect.async<number>((resume) => {
  const server = createTcpServer()
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo
    server.close(() => resume(Effect.succeed(port)))
  })
})

/** The attempts a call made, counted by their spans (a refused connection reaches no server to count them). */
const countingAttempts = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const native = yield* Effect.tracer
    let attempts = 0
    const tracer = Tracer.make({
      span: (name, parent, context, links, startTime, kind, options) => {
        if (name === "ProviderHttp.attempt") attempts++
        return native.span(name, parent, context, links, startTime, kind, options)
      },
      context: (f) => f()
    })
    const outcome = yield* Effect.either(Effect.withTracer(effect, tracer))
    return { outcome, attempts }
  })

layer(liveWithTimeout(60_000), { excludeTestServices: true })("provider HTTP when the connection never opens", (it) => {
  it.effect("a write whose connection was refused reached nothing: it is sent again like a read", () =>
    Effect.gen(function*() {
      const port = yield* refusingPort
      const http = yield* ProviderHttp
      for (const method of ["POST", "GET"] as const) {
        const { attempts, outcome } = yield* countingAttempts(http.transport({ caller: ProviderCaller.Account({ accountId: `refused-${method}` }) }).send({
          method,
          url: `http://127.0.0.1:${port}/v1/things`,
          headers: {},
          ...(method === "POST" ? { body: { _tag: "Json" as const, value: { name: "once" } } } : {}),
          secrets: []
        }))
        expect(outcome._tag === "Left" && outcome.left.reason).toBe("unreachable")
        expect(attempts).toBe(3)
      }
    }))
})

layer(Live, { excludeTestServices: true })("provider HTTP for links from provider data", (it) => {
  it.effect("a foreign link may not reach an allowlisted private address; the connector's own host may", () =>
    Effect.gen(function*() {
      const provider = yield* misbehavingProvider("reset")
      const http = yield* ProviderHttp
      const send = (foreign: boolean) =>
        Effect.flip(http.transport({ caller: ProviderCaller.Account({ accountId: `foreign-${foreign}` }) }).send({
          method: "GET",
          url: provider.url,
          headers: {},
          foreign,
          secrets: []
        }))
      const refused = yield* send(true)
      expect(refused.message).toMatch(/refused/)
      // no setting allows a link from provider data: none is named
      expect(refused.message).not.toContain("SWITCHYARD_OUTBOUND_ALLOWLIST")
      expect(provider.received()).toBe(0)
      yield* send(false)
      expect(provider.received()).toBeGreaterThan(0)
    }).pipe(Effect.scoped))
})

describe("retryableFailure", () => {
  it("repeats any method whose connection never opened", () => {
    expect(retryableFailure("POST", "unreachable", false)).toBe(true)
    expect(retryableFailure("POST", "unreachable", true)).toBe(false)
    expect(retryableFailure("DELETE", "timeout", true)).toBe(true)
    expect(retryableFailure("GET", "too_large", true)).toBe(false)
  })
})

/** Outbound HTTP is one layer given at the edge: here undici's MockAgent answers instead of the network. */
const canned = Layer.sync(OutboundHttp, () => {
  const agent = new MockAgent()
  agent.disableNetConnect()
  agent.get("http://93.184.215.14").intercept({ path: "/v1/things", method: "GET" })
    .reply(200, { from: "the test layer" }, { headers: { "content-type": "application/json" } })
    .persist()
  return OutboundHttp.make(outboundHttpOver(agent, agent))
})

const WithCannedOutbound = ProviderHttp.Default.pipe(
  Layer.provide(canned),
  Layer.provide(SwitchyardConfig.Default),
  Layer.provide(Layer.setConfigProvider(testConfig(undefined)))
)

layer(WithCannedOutbound)("provider HTTP over a replaced outbound layer", (it) => {
  it.effect("sends through the OutboundHttp it is given", () =>
    Effect.gen(function*() {
      const http = yield* ProviderHttp
      const response = yield* http.transport({ caller: ProviderCaller.Account({ accountId: "canned" }) }).send({
        method: "GET",
        url: "http://93.184.215.14/v1/things",
        headers: {},
        secrets: []
      })
      expect(response).toMatchObject({ status: 200, body: { from: "the test layer" } })
    }))

  it.effect("withTransport runs an effect with a caller's transport and answers how it ended with the calls it made", () =>
    Effect.gen(function*() {
      const http = yield* ProviderHttp
      // what the provider answers is a secret of this call's
      const request = { method: "GET" as const, url: "http://93.184.215.14/v1/things", headers: {}, secrets: ["the test layer"] }
      const twice = Effect.flatMap(ProviderTransport, (transport) =>
        Effect.zipRight(transport.send(request), Effect.zipRight(transport.send(request), Effect.fail("refused" as const))))
      const { calls, exit } = yield* http.withTransport(
        { caller: ProviderCaller.ConnectSession({ sessionId: "3f1c" }), provider: "canned" },
        twice
      )
      expect(exit).toEqual(Exit.fail("refused"))
      expect(calls.map((call) => call.response?.status)).toEqual([200, 200])
      // recorded as sent; shown redacted
      expect(calls[0]!.response?.body).toEqual({ from: "the test layer" })
      expect(redactCall(calls[0]!).response?.body).toEqual({ from: "[REDACTED]" })
      expect(callerKey(ProviderCaller.ConnectSession({ sessionId: "3f1c" }))).toBe("connect-session:3f1c")
      expect(callerKey(ProviderCaller.Account({ accountId: "3f1c" }))).toBe("3f1c")
    }))
})
