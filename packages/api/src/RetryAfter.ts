/*
 * What server and client agree on when deciding whether a call may be repeated, and when:
 * the methods that are safe to send twice, and the `Retry-After` header read as a wait.
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
