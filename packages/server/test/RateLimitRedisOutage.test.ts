import { HttpClientRequest } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Redacted, Schedule } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { makeRedisRateLimits } from "../src/platform/outboundHttp/RedisRateLimits.js"
import { freshProject } from "./support/Fixtures.js"
import { SandboxLive, SandboxProviders, sandboxGreenhouseAccount } from "./support/SandboxLayer.js"
import { exited, freePort, waitFor } from "./support/ServerProcess.js"
import { TestServer } from "./support/TestServer.js"
import { expectErrorBody, json, send, withKey } from "./support/Wire.js"

/*
 * With the redis store, a Redis that stops answering fails provider calls within
 * SWITCHYARD_REDIS_TIMEOUT_MS as 502, sending nothing, rather than hanging them or falling back
 * to per-process limits. A redis-server of the test's own is stopped (SIGSTOP) and continued.
 */

class OwnRedis extends Context.Tag("Test/OwnRedis")<OwnRedis, ChildProcess>() {}

const redisAnswers = (url: string) =>
  Effect.runPromise(
    Effect.scoped(makeRedisRateLimits({ url: Redacted.make(url), keyPrefix: "t:", timeoutMs: 1_000 })).pipe(
      Effect.as(true),
      Effect.catchAllDefect(() => Effect.succeed(false))
    )
  )

const Server = Layer.unwrapScoped(
  Effect.gen(function*() {
    const port = yield* Effect.promise(freePort)
    const child = yield* Effect.acquireRelease(
      Effect.sync(() => spawn("redis-server", ["--port", String(port), "--save", "", "--appendonly", "no"])),
      (child) =>
        Effect.promise(() => {
          child.kill("SIGCONT")
          child.kill("SIGKILL")
          return exited(child)
        })
    )
    const url = `redis://127.0.0.1:${port}`
    yield* Effect.promise(() => waitFor(() => redisAnswers(url), "the test's redis-server"))
    return Layer.mergeAll(
      TestServer({
        SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1",
        REDIS_URL: url,
        SWITCHYARD_REDIS_TIMEOUT_MS: "500",
        SWITCHYARD_PROVIDER_MAX_ATTEMPTS: "1"
      }),
      SandboxLive(),
      Layer.succeed(OwnRedis, child)
    )
  })
)

describe.skipIf(process.env.REDIS_URL === undefined)("redis rate limit store outage (REDIS_URL)", () => {
  layer(Server, { excludeTestServices: true, timeout: 300_000 })("during a call", (it) => {
    it.effect("a stopped Redis answers 502 without calling the provider; calls go through once it continues", () =>
      Effect.gen(function*() {
        const sandbox = yield* SandboxProviders
        const redis = yield* OwnRedis
        const project = yield* freshProject
        const account = yield* project.client.accounts.create_account({ payload: sandboxGreenhouseAccount(sandbox) })
        const call = send(
          HttpClientRequest.post("/actions/rpc").pipe(
            json({ action: "ats_list_applications", query: { page_size: 1 } }),
            HttpClientRequest.setHeader("x-account-id", account.id),
            withKey(project.key)
          )
        )
        expect((yield* call).status).toBe(200)

        redis.kill("SIGSTOP")
        sandbox.clearRequests()
        const failed = yield* call
        expect(expectErrorBody(failed, 502).message).toContain("rate limit store is unavailable")
        expect(sandbox.requests().filter((request) => request.path === "/v1/applications")).toHaveLength(0)

        redis.kill("SIGCONT")
        // the client reconnects on its own: calls answer 200 again
        const again = yield* call.pipe(
          Effect.filterOrFail((answer) => answer.status === 200, () => new Error("not yet")),
          Effect.retry(Schedule.spaced("100 millis")),
          Effect.timeoutFail({ duration: "120 seconds", onTimeout: () => new Error("calls never went through again") })
        )
        expect(again.status).toBe(200)
      }), 300_000)
  })
})
