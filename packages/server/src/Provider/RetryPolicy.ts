import { isIdempotentMethod } from "@switchyard/api"
import { Duration } from "effect"

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

/** Exponential backoff with full jitter: a random wait in [0, min(max, base · 2^attempt)). */
export const backoff = (policy: RetryPolicy, attempt: number, random: () => number = Math.random): Duration.Duration => {
  const ceiling = Math.min(Duration.toMillis(policy.maxDelay), Duration.toMillis(policy.baseDelay) * 2 ** attempt)
  return Duration.millis(Math.floor(random() * ceiling))
}
