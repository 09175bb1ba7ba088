import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, TestClock } from "effect"
import { TokenCache } from "../src/index.js"

const token = (accessToken: string, expiresInSeconds = 3600) => ({ accessToken, expiresInSeconds })

describe("TokenCache", () => {
  it.effect("fetches once per key under concurrency and serves the cache afterwards", () =>
    Effect.gen(function*() {
      const cache = new TokenCache()
      let fetches = 0
      const gate = yield* Deferred.make<void>()
      const fetch = Effect.suspend(() => {
        fetches++
        return Effect.as(Deferred.await(gate), token(`t${fetches}`))
      })
      const fiber = yield* Effect.fork(Effect.all(Array.from({ length: 20 }, () => cache.get("k", fetch)), { concurrency: "unbounded" }))
      yield* Effect.yieldNow()
      yield* Deferred.succeed(gate, undefined)
      const tokens = yield* Fiber.join(fiber)
      expect(new Set(tokens)).toEqual(new Set(["t1"]))
      expect(fetches).toBe(1)
      expect(yield* cache.get("k", fetch)).toBe("t1")
      expect(yield* cache.get("other", Effect.succeed(token("o1")))).toBe("o1")
      expect(fetches).toBe(1)
    }))

  it.effect("expires tokens a margin before their lifetime ends", () =>
    Effect.gen(function*() {
      const cache = new TokenCache({ marginSeconds: 30 })
      let n = 0
      const fetch = Effect.sync(() => token(`t${++n}`, 100))
      expect(yield* cache.get("k", fetch)).toBe("t1")
      yield* TestClock.adjust("69 seconds")
      expect(yield* cache.get("k", fetch)).toBe("t1")
      yield* TestClock.adjust("2 seconds")
      expect(yield* cache.get("k", fetch)).toBe("t2")
    }))

  it.effect("does not cache failures; every waiter sees the failure", () =>
    Effect.gen(function*() {
      const cache = new TokenCache()
      let attempts = 0
      const failing = Effect.suspend(() => {
        attempts++
        return Effect.fail("denied" as const)
      })
      const results = yield* Effect.all(Array.from({ length: 3 }, () => Effect.flip(cache.get("k", failing))), { concurrency: "unbounded" })
      expect(results).toEqual(["denied", "denied", "denied"])
      expect(yield* cache.get("k", Effect.succeed(token("ok")))).toBe("ok")
      expect(attempts).toBeGreaterThanOrEqual(1)
    }))

  it.effect("waiters of an interrupted fetch fetch again themselves", () =>
    Effect.gen(function*() {
      const cache = new TokenCache()
      const first = yield* Effect.fork(cache.get("k", Effect.never))
      yield* Effect.yieldNow()
      const waiter = yield* Effect.fork(cache.get("k", Effect.succeed(token("second"))))
      yield* Effect.yieldNow()
      yield* Fiber.interrupt(first)
      expect(yield* Fiber.join(waiter)).toBe("second")
    }))

  it("keys include a hash of the secret, never the secret", () => {
    const a = TokenCache.key({ tokenUrl: "https://t", clientId: "c", clientSecret: "s1" })
    const b = TokenCache.key({ tokenUrl: "https://t", clientId: "c", clientSecret: "s2" })
    expect(a).not.toBe(b)
    expect(a).not.toContain("s1")
  })

  it.effect("evicts the oldest tokens beyond maxEntries", () =>
    Effect.gen(function*() {
      const cache = new TokenCache({ maxEntries: 2 })
      for (const key of ["a", "b", "c"]) yield* cache.get(key, Effect.succeed(token(key)))
      expect(cache.size).toBe(2)
    }))
})
