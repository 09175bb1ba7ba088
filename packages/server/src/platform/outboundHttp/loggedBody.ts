/** Longest body the request log keeps, in characters; a longer one is cut and says so. */
export const MAX_LOGGED_BODY_LENGTH = 16_384

/**
 * A provider body as the request log keeps it: text (JSON for structured bodies), already
 * redacted by the caller, cut to `MAX_LOGGED_BODY_LENGTH` so one large answer cannot bloat
 * the log or the writer's memory. Null when the call had no body.
 */
export const loggedBody = (body: unknown): string | null => {
  if (body === undefined || body === null) return null
  const text = typeof body === "string" ? body : JSON.stringify(body)
  if (text === undefined) return null
  return text.length <= MAX_LOGGED_BODY_LENGTH
    ? text
    : `${text.slice(0, MAX_LOGGED_BODY_LENGTH)}…[cut: ${text.length} characters in all]`
}
