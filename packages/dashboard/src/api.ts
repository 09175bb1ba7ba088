import { createSwitchyardClient } from "@switchyard/client"

/**
 * The derived client, as any TypeScript service uses it, but without a key: the page is
 * served by the Switchyard server itself, so its requests are same-origin and the browser
 * adds the HttpOnly session cookie (the script never sees it). No retries: a person is
 * waiting and can click again.
 */
export const api = createSwitchyardClient({ baseUrl: location.origin, retry: false })

/** A failure in words: the server's `message` for the API's errors, else what went wrong on the way. */
export const messageOf = (error: unknown): string => {
  if (typeof error === "object" && error !== null) {
    const { message, _tag } = error as { message?: unknown; _tag?: unknown }
    if (typeof message === "string" && message.length > 0) return message
    if (_tag === "RequestError") return "The server could not be reached. Check your connection and try again."
    if (typeof _tag === "string") return `The request failed (${_tag}).`
  }
  return String(error)
}

/** Whether the failure is the session's end (401): signed out elsewhere, expired, or its key revoked. */
export const isSignedOut = (error: unknown) =>
  typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "Unauthorized"
