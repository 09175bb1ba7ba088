import { describe, expect, it } from "@effect/vitest"
import { ProviderTransportError } from "@switchyard/engine"
import { Duration, Effect, Random, Schedule, ScheduleDecision } from "effect"
import {
  type AttemptFailure,
  defaultRetryPolicy,
  RetryableAnswer,
  retriedAfterFailure,
  retrySchedule,
  UndeliveredCall
} from "../src/platform/outboundHttp/RetryPolicy.js"

/*
 * The provider retry schedule, run step by step without sleeping: the test clock stays at 0,
 * so deadlines are plain numbers, and a fixed random source makes the jitter exact.
 */

const answer = (status: number, retryAfter?: number) =>
  new RetryableAnswer({ response: { status, headers: {}, body: null }, retryAfter })

const failure = (reason: ProviderTransportError["reason"]) =>
  new ProviderTransportError({ reason, message: reason, url: "http://provider.example/" })

/** The waits a schedule chooses for these failures in turn, until it stops. */
const stepThrough = (schedule: Schedule.Schedule<Duration.Duration, AttemptFailure>, failures: ReadonlyArray<AttemptFailure>) =>
  Effect.gen(function*() {
    const chosen: Array<number> = []
    let state = schedule.initial
    for (const failure of failures) {
      const [next, wait, decision] = yield* schedule.step(0, failure, state)
      if (ScheduleDecision.isDone(decision)) break
      chosen.push(Duration.toMillis(wait))
      state = next
    }
    return chosen
  })

const waits = (
  method: string,
  failures: ReadonlyArray<AttemptFailure>,
  options: { readonly deadline?: number; readonly random?: number } = {}
) =>
  stepThrough(
    retrySchedule(defaultRetryPolicy, method, options.deadline ?? 60_000),
    failures
  ).pipe(Effect.withRandom(Random.fixed([options.random ?? 0.5])))

describe("retrySchedule", () => {
  it.effect("waits as long as Retry-After asks, for at most maxAttempts in all", () =>
    Effect.gen(function*() {
      expect(yield* waits("POST", Array.from({ length: 6 }, () => answer(429, 2)))).toEqual([2_000, 2_000, 2_000])
    }))

  it.effect("backs off exponentially with full jitter when no Retry-After is given, up to the longest wait", () =>
    Effect.gen(function*() {
      expect(yield* waits("GET", [answer(503), answer(503), answer(503)])).toEqual([100, 200, 400])
      expect(yield* waits("GET", [answer(503), answer(503), answer(503)], { random: 0.999 })).toEqual([199, 399, 799])
      const patient = retrySchedule({ ...defaultRetryPolicy, maxAttempts: 10 }, "GET", 60_000)
      const late = yield* stepThrough(patient, Array.from({ length: 9 }, () => answer(502))).pipe(
        Effect.withRandom(Random.fixed([0.999]))
      )
      expect(late.at(-1)).toBe(4_995)
    }))

  it.effect("does not wait for an answer past the deadline; retries a failure until the deadline has passed", () =>
    Effect.gen(function*() {
      expect(yield* waits("GET", [answer(429, 2)], { deadline: 2_000 })).toEqual([])
      expect(yield* waits("GET", [answer(429, 2)], { deadline: 2_001 })).toEqual([2_000])
      expect(yield* waits("GET", [failure("timeout")], { deadline: 1 })).toEqual([100])
      expect(yield* waits("GET", [failure("timeout")], { deadline: 0 })).toEqual([])
    }))

  it.effect("repeats a write without an answer only when the request never reached the provider", () =>
    Effect.gen(function*() {
      expect(yield* waits("POST", [failure("unreachable")])).toEqual([])
      expect(yield* waits("POST", [new UndeliveredCall({ failure: failure("unreachable") })])).toEqual([100])
      expect(yield* waits("PUT", [failure("timeout")])).toEqual([100])
      expect(yield* waits("GET", [failure("too_large")])).toEqual([])
    }))
})

describe("retriedAfterFailure", () => {
  /** Tries that fail with 1, 2, … until `failures` have failed, then succeed; and what the schedule was shown. */
  const tries = (failures: number, retry: (once: Effect.Effect<number, number>, schedule: Schedule.Schedule<unknown, number>) => Effect.Effect<number, number>) =>
    Effect.gen(function*() {
      let count = 0
      const shown: Array<number> = []
      const schedule = Schedule.recurs(3).pipe(Schedule.whileInput((failure: number) => {
        shown.push(failure)
        return true
      }))
      const once = Effect.suspend(() => ++count > failures ? Effect.succeed(count) : Effect.fail(count))
      const outcome = yield* Effect.either(retry(once, schedule))
      return { outcome, count, shown }
    })

  it.effect("tries and shows the schedule exactly what Effect.retry does", () =>
    Effect.gen(function*() {
      for (const failures of [0, 1, 3, 4, 9]) {
        expect(yield* tries(failures, (once, schedule) => retriedAfterFailure(schedule)(once)))
          .toEqual(yield* tries(failures, (once, schedule) => Effect.retry(once, schedule)))
      }
    }))
})
