/*
 * What server and client agree on when deciding whether a call may be repeated, and when:
 * the methods that are safe to send twice, the `Retry-After` header read as a wait, and the
 * backoff when there is none.
 */

const idempotentMethods: ReadonlySet<string> = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"])

/** Whether sending the call twice has the effect of sending it once (RFC 9110, 9.2.2); methods in capitals. */
export const isIdempotentMethod = (method: string): boolean => idempotentMethods.has(method)

/** `Retry-After` as seconds or an HTTP date, in seconds from `now`; undefined when absent or unreadable. */
export const parseRetryAfter = (value: string | undefined, now: number = Date.now()): number | undefined => {
  const text = value?.trim() ?? ""
  if (text === "") return undefined
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text)
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now) / 1000)
}

/**
 * Exponential backoff with full jitter: a wait in [0, min(max, base · 2^attempt)) ms, drawn
 * with `random` (a number in [0, 1)); `attempt` counts from 0.
 */
export const jitteredBackoffMillis = (baseMillis: number, maxMillis: number, attempt: number, random: number): number =>
  Math.floor(random * Math.min(maxMillis, baseMillis * 2 ** attempt))
