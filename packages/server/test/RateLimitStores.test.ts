import { SqlClient } from "@effect/sql"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Either, Exit, Layer, Redacted } from "effect"
import { spawn } from "node:child_process"
import * as Crypto from "node:crypto"
import { makePostgresRateLimits } from "../src/platform/outboundHttp/PostgresRateLimits.js"
import { rateOf } from "../src/platform/outboundHttp/ProviderSlots.js"
import { makeRedisRateLimits } from "../src/platform/outboundHttp/RedisRateLimits.js"
import type { SharedRateLimits } from "../src/platform/outboundHttp/SharedRateLimits.js"
import { exited, freePort, waitFor } from "./support/ServerProcess.js"
import { SwitchyardConfig } from "../src/platform/Config.js"
import { TestDatabase, testConfig } from "./support/TestServer.js"

/*
 * The shared stores admit as the in-process reservation does (ProviderRateLimit.test.ts): one
 * slot per interval, a refusal once the wait passes the bound (which
 * takes no slot), and a retry that takes its turn however far. Their clock runs while the
 * test calls, so waits are checked against bounds that time passing can only lower.
 */

const REDIS_URL = process.env.REDIS_URL
const MAX_WAIT_MS = 2_000
const tenPerSecond = rateOf(10)!

/** Sequential reservations of one fresh key until the first refusal, with the test's clock around them. */
const admitsLikeGcra = (store: SharedRateLimits) =>
  Effect.gen(function*() {
    const key = `account_${Crypto.randomBytes(6).toString("hex")}:10`
    const started = Date.now()
    const waits: Array<number> = []
    for (;;) {
      const reservation = yield* store.reserve(key, tenPerSecond, MAX_WAIT_MS)
      if (!reservation.admitted) {
        const elapsed = Date.now() - started
        // the refused call is told how long until a slot would be its own: past the bound
        expect(reservation.waitMs).toBeGreaterThan(MAX_WAIT_MS)
        expect(reservation.waitMs).toBeLessThanOrEqual(100 * waits.length + 1)
        // one every 100 ms while the wait stays within 2 s: 21, plus a slot for every 100 ms
        // the loop itself took
        expect(waits.length).toBeGreaterThanOrEqual(21)
        expect(waits.length).toBeLessThanOrEqual(22 + Math.ceil(elapsed / 100))
        break
      }
      waits.push(reservation.waitMs)
      expect(waits.length).toBeLessThan(10_000)
    }
    expect(waits[0]).toBe(0)
    waits.forEach((wait, i) => expect(wait).toBeLessThanOrEqual(100 * i + 1))

    // a refusal takes no slot, and a retry takes its turn however far: shown at one slot per
    // 10 s, so that the time the calls take cannot blur whose slot is whose
    const slow = `${key}:slow`
    const everyTenSeconds = rateOf(0.1)!
    expect(yield* store.reserve(slow, everyTenSeconds, MAX_WAIT_MS)).toEqual({ admitted: true, waitMs: 0 })
    const refusedOnce = yield* store.reserve(slow, everyTenSeconds, MAX_WAIT_MS)
    const refusedAgain = yield* store.reserve(slow, everyTenSeconds, MAX_WAIT_MS)
    expect([refusedOnce.admitted, refusedAgain.admitted]).toEqual([false, false])
    expect(refusedAgain.waitMs).toBeLessThanOrEqual(refusedOnce.waitMs)
    const retry = yield* store.reserve(slow, everyTenSeconds, undefined)
    expect(retry.admitted).toBe(true)
    // the second slot: had the refusals taken slots, it would be the fourth (30 s away)
    expect(retry.waitMs).toBeGreaterThan(MAX_WAIT_MS)
    expect(retry.waitMs).toBeLessThanOrEqual(10_000)
    const afterRetry = yield* store.reserve(slow, everyTenSeconds, undefined)
    expect(afterRetry.waitMs).toBeGreaterThan(10_000)
    expect(afterRetry.waitMs).toBeLessThanOrEqual(20_000)

    // other accounts and other limits have buckets of their own
    const other = yield* store.reserve(`${key}:other`, tenPerSecond, MAX_WAIT_MS)
    expect(other).toEqual({ admitted: true, waitMs: 0 })
  })

/** Many callers at once get distinct slots: a lost update would admit more at once and wait less. */
const concurrentCallersGetDistinctSlots = (store: SharedRateLimits) =>
  Effect.gen(function*() {
    const key = `account_${Crypto.randomBytes(6).toString("hex")}:5`
    const started = Date.now()
    const answers = yield* Effect.all(
      Array.from({ length: 40 }, () => store.reserve(key, rateOf(5)!, 60_000)),
      { concurrency: "unbounded" }
    )
    const elapsed = Date.now() - started
    expect(answers.every((answer) => answer.admitted)).toBe(true)
    // one every 200 ms: the last of 40 waits 39 slots, less the time the calls took
    const waits = answers.map((answer) => answer.waitMs)
    expect(waits.filter((wait) => wait === 0).length).toBeLessThanOrEqual(1 + Math.ceil(elapsed / 200))
    expect(Math.max(...waits)).toBeGreaterThanOrEqual(39 * 200 - elapsed - 1)
    expect(Math.max(...waits)).toBeLessThanOrEqual(39 * 200 + 1)
  })

layer(TestDatabase())("postgres rate limit store", (it) => {
  it.effect("admits a burst, spaces the rest, refuses past the longest wait, never refuses a retry", () =>
    Effect.flatMap(makePostgresRateLimits, admitsLikeGcra))

  it.effect("concurrent reservations are atomic", () => Effect.flatMap(makePostgresRateLimits, concurrentCallersGetDistinctSlots))

  it.effect("forgets buckets empty for a minute, keeps the others", () =>
    Effect.gen(function*() {
      const store = yield* makePostgresRateLimits
      const sql = yield* SqlClient.SqlClient
      const idle = `idle_${Crypto.randomBytes(6).toString("hex")}:10`
      const busy = `busy_${Crypto.randomBytes(6).toString("hex")}:10`
      yield* store.reserve(idle, tenPerSecond, MAX_WAIT_MS)
      yield* store.reserve(busy, tenPerSecond, MAX_WAIT_MS)
      yield* sql`UPDATE provider_rate_limits SET empty_at_ms = empty_at_ms - 120000 WHERE key = ${idle}`
      yield* store.deleteIdle
      const left = yield* sql<{ key: string }>`SELECT key FROM provider_rate_limits WHERE key IN (${idle}, ${busy})`
      expect(left.map((row) => row.key)).toEqual([busy])
    }))
})

describe.skipIf(REDIS_URL === undefined)("redis rate limit store (REDIS_URL)", () => {
  const prefix = `switchyard-test:${Crypto.randomBytes(6).toString("hex")}:`
  const redis = (url: string, timeoutMs = 1_000) =>
    makeRedisRateLimits({ url: Redacted.make(url), keyPrefix: prefix, timeoutMs })

  it.scoped("admits a burst, spaces the rest, refuses past the longest wait, never refuses a retry", () =>
    Effect.flatMap(redis(REDIS_URL!), admitsLikeGcra))

  it.scoped("concurrent reservations are atomic", () => Effect.flatMap(redis(REDIS_URL!), concurrentCallersGetDistinctSlots))

  it.scoped("a Redis that cannot be reached fails the start with a clear message", () =>
    Effect.gen(function*() {
      const port = yield* Effect.promise(freePort)
      const exit = yield* Effect.exit(redis(`redis://:hunter2secret@127.0.0.1:${port}`))
      expect(Exit.isFailure(exit)).toBe(true)
      const text = String(Exit.isFailure(exit) ? exit.cause : "")
      expect(text).toContain(`REDIS_URL: cannot reach Redis at 127.0.0.1:${port}`)
      expect(text).not.toContain("hunter2secret")
    }))

  it.scoped("a Redis that stops answering fails reservations within the timeout, and serves again once back", () =>
    Effect.gen(function*() {
      const port = yield* Effect.promise(freePort)
      const server = yield* Effect.acquireRelease(
        Effect.sync(() => spawn("redis-server", ["--port", String(port), "--save", "", "--appendonly", "no"])),
        (child) => Effect.promise(() => { child.kill("SIGCONT"); child.kill("SIGKILL"); return exited(child) })
      )
      const url = `redis://127.0.0.1:${port}`
      yield* Effect.promise(() =>
        waitFor(
          () => Effect.runPromise(Effect.scoped(redis(url)).pipe(Effect.as(true), Effect.catchAllDefect(() => Effect.succeed(false)))),
          "the spawned redis-server"
        )
      )
      const store = yield* redis(url, 500)
      const key = `account_${Crypto.randomBytes(6).toString("hex")}:10`
      expect((yield* store.reserve(key, tenPerSecond, MAX_WAIT_MS)).admitted).toBe(true)

      server.kill("SIGSTOP")
      const failed = yield* Effect.either(store.reserve(key, tenPerSecond, MAX_WAIT_MS))
      expect(failed._tag).toBe("Left")
      if (failed._tag === "Left") expect(failed.left.message).toContain(`Redis at 127.0.0.1:${port}`)

      server.kill("SIGCONT")
      yield* Effect.promise(() =>
        waitFor(
          () => Effect.runPromise(store.reserve(key, tenPerSecond, MAX_WAIT_MS).pipe(Effect.as(true), Effect.orElseSucceed(() => false))),
          "Redis serving again"
        )
      )
    }), { timeout: 300_000 })
})

describe("rate limit store configuration", () => {
  const storeOf = (environment: Record<string, string>) =>
    Effect.map(SwitchyardConfig, (config) => config.rateLimits.store).pipe(
      Effect.provide(SwitchyardConfig.Default.pipe(Layer.provide(Layer.setConfigProvider(testConfig(undefined, environment))))),
      Effect.either
    )

  it.effect("memory on the embedded database, postgres with DATABASE_URL, redis with REDIS_URL; the setting overrides", () =>
    Effect.gen(function*() {
      expect(yield* storeOf({})).toEqual(Either.right("memory"))
      expect(yield* storeOf({ DATABASE_URL: "postgres://db/x" })).toEqual(Either.right("postgres"))
      expect(yield* storeOf({ DATABASE_URL: "postgres://db/x", REDIS_URL: "redis://cache:6379" })).toEqual(Either.right("redis"))
      expect(yield* storeOf({ DATABASE_URL: "postgres://db/x", SWITCHYARD_RATE_LIMIT_STORE: "memory" })).toEqual(Either.right("memory"))
    }))

  it.effect("redis without REDIS_URL, an unknown store or a URL of another scheme is a clear error", () =>
    Effect.gen(function*() {
      const message = (either: Either.Either<unknown, unknown>) => (Either.isLeft(either) ? String(either.left) : "")
      expect(message(yield* storeOf({ SWITCHYARD_RATE_LIMIT_STORE: "redis" }))).toContain(
        "SWITCHYARD_RATE_LIMIT_STORE"
      )
      expect(message(yield* storeOf({ SWITCHYARD_RATE_LIMIT_STORE: "redis" }))).toContain("REDIS_URL is not set")
      expect(message(yield* storeOf({ SWITCHYARD_RATE_LIMIT_STORE: "disk" }))).toContain("SWITCHYARD_RATE_LIMIT_STORE")
      const scheme = message(yield* storeOf({ REDIS_URL: "http://user:pw-secret@cache:6379" }))
      expect(scheme).toContain("REDIS_URL")
      expect(scheme).toContain("must be a redis:// or rediss:// URL")
      expect(scheme).not.toContain("pw-secret")
    }))
})
