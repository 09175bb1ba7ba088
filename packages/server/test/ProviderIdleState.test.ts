import { describe, expect, it } from "@effect/vitest"
import { Deferred, type Duration, Effect, Fiber, TestClock } from "effect"
import { AccountLimiters } from "../src/platform/outboundHttp/AccountLimiters.js"
import { makeOutboundVerdicts, VerdictKey } from "../src/platform/outboundHttp/OutboundVerdicts.js"

/*
 * Per-account limits and SSRF verdicts are released when idle, so accounts and origins that
 * stop calling do not hold memory forever. Time moves only by the test clock.
 */

const limiters = () => new AccountLimiters({ maxWaitMs: 2_000_000, maxWaiting: 10, maxConcurrent: 2 })

/** How many accounts' limits are held once `elapsed` has passed and another account calls (which sweeps). */
const heldAfter = (limits: AccountLimiters, elapsed: Duration.DurationInput) =>
  TestClock.adjust(elapsed).pipe(
    Effect.zipRight(limits.use("other", undefined, () => Effect.void)),
    Effect.map(() => limits.size)
  )

describe("account limits", () => {
  it.effect("are dropped once no call is under way and their reservations are past", () =>
    Effect.gen(function*() {
      const limits = limiters()
      yield* TestClock.adjust("1 minute")
      // one call per 100 s: its reservation stays ahead of the clock for 100 s
      yield* limits.use("slow", 0.01, ({ slots }) => Effect.sync(() => {
        expect(slots.admit(60_000)).toEqual({ _tag: "Admitted", waitMs: 0 })
        slots.leave()
      }))
      yield* limits.use("quick", undefined, () => Effect.void)
      expect(limits.size).toBe(2)
      // "quick" is idle; "slow" has reserved until 160 s
      expect(yield* heldAfter(limits, "1 minute")).toBe(2)
      expect(yield* heldAfter(limits, "1 minute")).toBe(1)
    }))

  it.effect("are kept while a call is under way, however long", () =>
    Effect.gen(function*() {
      const limits = limiters()
      const started = yield* Deferred.make<void>()
      const finish = yield* Deferred.make<void>()
      const busy = yield* Effect.fork(limits.use("busy", undefined, () =>
        Effect.zipRight(Deferred.succeed(started, undefined), Deferred.await(finish))))
      yield* Deferred.await(started)
      expect(yield* heldAfter(limits, "10 minutes")).toBe(2)
      yield* Deferred.succeed(finish, undefined)
      yield* Fiber.join(busy)
      expect(yield* heldAfter(limits, "1 minute")).toBe(1)
    }))

  it.effect("a fresh entry admits as the dropped one would have", () =>
    Effect.gen(function*() {
      const limits = limiters()
      const admit = (now: number) => limits.use("paced", 1, ({ slots }) => Effect.sync(() => {
        const admission = slots.admit(now)
        slots.leave()
        return admission
      }))
      expect(yield* admit(0)).toEqual({ _tag: "Admitted", waitMs: 0 })
      expect(yield* admit(0)).toEqual({ _tag: "Admitted", waitMs: 1_000 })
      yield* TestClock.adjust("2 minutes")
      expect(yield* admit(120_000)).toEqual({ _tag: "Admitted", waitMs: 0 })
      expect(yield* admit(120_000)).toEqual({ _tag: "Admitted", waitMs: 1_000 })
    }))
})

describe("SSRF verdicts", () => {
  it.effect("hold per origin and kind for a minute, then are looked up again", () =>
    Effect.gen(function*() {
      const verdicts = yield* makeOutboundVerdicts([])
      const refusal = yield* verdicts.get(new VerdictKey("http://127.0.0.1:9/a", false))
      expect(refusal._tag).toBe("Left")
      yield* verdicts.get(new VerdictKey("http://127.0.0.1:9/b?c=d", false))
      yield* verdicts.get(new VerdictKey("http://127.0.0.1:9/a", true))
      expect(yield* verdicts.cacheStats).toMatchObject({ hits: 1, misses: 2, size: 2 })
      yield* TestClock.adjust("61 seconds")
      yield* verdicts.get(new VerdictKey("http://127.0.0.1:9/a", false))
      expect((yield* verdicts.cacheStats).misses).toBe(3)
    }))

  it.effect("are held for at most the given number of origins", () =>
    Effect.gen(function*() {
      const verdicts = yield* makeOutboundVerdicts([], 2)
      for (const port of [1, 2, 3, 4, 5]) yield* verdicts.get(new VerdictKey(`http://127.0.0.1:${port}/`, false))
      expect(yield* verdicts.size).toBeLessThanOrEqual(2)
    }))
})
