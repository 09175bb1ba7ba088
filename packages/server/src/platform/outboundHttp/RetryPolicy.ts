import { isIdempotentMethod, jitteredBackoffMillis } from "@switchyard/api"
import type { ProviderResponse, ProviderTransportError } from "@switchyard/engine"
import { Clock, Data, Duration, Effect, Random, Schedule } from "effect"

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number
  readonly baseDelay: Duration.Duration
  readonly maxDelay: Duration.Duration
  /** Per attempt. */
  readonly requestTimeout: Duration.Duration
  /** For all attempts and waits together. */
  readonly deadline: Duration.Duration
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 4,
  baseDelay: Duration.millis(200),
  maxDelay: Duration.seconds(5),
  requestTimeout: Duration.seconds(30),
  deadline: Duration.seconds(60)
}

/**
 * Whether a response status is worth another attempt. Writes that are not idempotent are
 * retried only when the provider said it did not process them (429, 503).
 */
export const retryableStatus = (method: string, status: number) =>
  status === 429 || status === 503 ||
  (isIdempotentMethod(method) && (status === 408 || status === 500 || status === 502 || status === 504))

/**
 * Whether a call that got no answer is worth another attempt. A timeout or a dropped
 * connection may come after the provider acted, so only idempotent methods repeat then;
 * a connection that never opened (refused, no such host) delivered nothing, so any may.
 */
export const retryableFailure = (method: string, reason: string, delivered: boolean) =>
  (reason === "unreachable" || reason === "timeout") && (isIdempotentMethod(method) || !delivered)

/** An answer with a `retryableStatus`, carried as a failure so that the retry schedule sees it. */
export class RetryableAnswer extends Data.TaggedError("RetryableAnswer")<{
  readonly response: ProviderResponse
  /** The provider's `Retry-After`, in seconds. */
  readonly retryAfter: number | undefined
}> {}

/**
 * A call that failed before any of it reached the provider (its connection never opened):
 * nothing was delivered, so any method may be sent again. Carried from an attempt to the retry
 * schedule only; the call fails with `failure`.
 */
export class UndeliveredCall extends Data.TaggedError("UndeliveredCall")<{
  readonly failure: ProviderTransportError
}> {}

export type AttemptFailure = RetryableAnswer | ProviderTransportError | UndeliveredCall

/** Exponential backoff with full jitter, as the client backs off (`jitteredBackoffMillis`). */
const backoff = (policy: RetryPolicy, attempt: number) =>
  Effect.map(Random.next, (random) =>
    Duration.millis(
      jitteredBackoffMillis(Duration.toMillis(policy.baseDelay), Duration.toMillis(policy.maxDelay), attempt, random)
    ))

/**
 * When a provider call is tried again: at most `maxAttempts` in all; after the provider's
 * `Retry-After` when it names one, else after `backoff`. An answer is not waited for when the
 * wait would end past `deadline` (ms since the epoch); a failure without an answer is retried
 * while the deadline has not passed, if `retryableFailure` allows (an `UndeliveredCall` never
 * reached the provider, any other failure may have).
 */
export const retrySchedule = (
  policy: RetryPolicy,
  method: string,
  deadline: number
): Schedule.Schedule<Duration.Duration, AttemptFailure> =>
  Schedule.recurs(policy.maxAttempts - 1).pipe(
    Schedule.intersect(Schedule.identity<AttemptFailure>()),
    Schedule.mapEffect(([attempt, failure]) =>
      failure._tag === "RetryableAnswer" && failure.retryAfter !== undefined
        ? Effect.succeed(Duration.seconds(failure.retryAfter))
        : backoff(policy, attempt)
    ),
    Schedule.checkEffect((failure, wait) =>
      Effect.map(Clock.currentTimeMillis, (now) =>
        failure._tag === "RetryableAnswer"
          ? now + Duration.toMillis(wait) < deadline
          : failure._tag === "UndeliveredCall"
          ? retryableFailure(method, failure.failure.reason, false) && now < deadline
          : retryableFailure(method, failure.reason, true) && now < deadline)
    ),
    Schedule.addDelay((wait) => wait)
  )

/**
 * `Effect.retry(schedule)` that sets the schedule up only once the first try failed: most
 * calls succeed at once, and a schedule's driver is dozens of Effect steps. The schedule sees
 * the same failures in the same order (the first is handed to it as it was).
 */
export const retriedAfterFailure = <Out, E>(schedule: Schedule.Schedule<Out, E>) =>
<A, R>(once: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.catchAll(once, (first) => {
    let replayed = false
    return Effect.retry(
      Effect.suspend(() => {
        if (replayed) return once
        replayed = true
        return Effect.fail(first)
      }),
      schedule
    )
  })
