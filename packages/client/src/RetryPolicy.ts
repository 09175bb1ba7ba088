import { jitteredBackoffMillis } from "@switchyard/api"
import { Duration } from "effect"

/** How the client retries answers the server marks as transient (429 and 408, for calls safe to repeat). */
export interface RetryPolicy {
  /** Attempts in all, the first included; 1 turns retries off. */
  readonly maxAttempts: number
  /** Ceiling of the first backoff when the answer names no `Retry-After`; doubles per attempt. */
  readonly baseDelay: Duration.DurationInput
  /**
   * The longest wait. A `Retry-After` beyond it is not waited for: the typed error reaches
   * the caller at once, since retrying earlier than the server asked would only be refused again.
   */
  readonly maxDelay: Duration.DurationInput
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 4,
  baseDelay: Duration.millis(500),
  maxDelay: Duration.seconds(30)
}

// the server reads the header the same way; re-exported so client users need not know the api package
export { parseRetryAfter } from "@switchyard/api"

/**
 * The wait before attempt `attempt + 1` (attempt counts from 0): the server's `Retry-After`
 * when given, else exponential backoff with full jitter. `undefined` means do not retry.
 */
export const retryDelay = (
  policy: RetryPolicy,
  attempt: number,
  retryAfterSeconds: number | undefined,
  random: () => number = Math.random
): Duration.Duration | undefined => {
  if (attempt + 1 >= policy.maxAttempts) return undefined
  const maxMillis = Duration.toMillis(policy.maxDelay)
  if (retryAfterSeconds !== undefined) {
    const millis = retryAfterSeconds * 1000
    return millis > maxMillis ? undefined : Duration.millis(millis)
  }
  return Duration.millis(jitteredBackoffMillis(Duration.toMillis(policy.baseDelay), maxMillis, attempt, random()))
}
