import type { ActionError } from "@switchyard/engine"

const MAX_REASON = 300

const text = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : undefined

/** The provider's own words in an error body, where providers commonly put them. */
const bodyMessage = (body: unknown): string | undefined => {
  if (typeof body === "string") return body.length <= MAX_REASON && !/^\s*</.test(body) ? text(body) : undefined
  if (typeof body !== "object" || body === null) return undefined
  const record = body as Record<string, unknown>
  const nested = record.error
  const errors = Array.isArray(record.errors) ? record.errors[0] : undefined
  return text(record.message) ?? text(record.error_description) ??
    (typeof nested === "object" && nested !== null ? text((nested as Record<string, unknown>).message) : text(nested)) ??
    (typeof errors === "object" && errors !== null ? text((errors as Record<string, unknown>).message) : text(errors)) ??
    text(record.detail) ?? text(record.title)
}

/**
 * Why the provider refused entered credentials, in words an end user can act on: its own
 * message when its error body has one (already redacted), with the HTTP status; else the
 * run's message.
 */
export const providerReason = (failure: ActionError): string => {
  if (failure._tag !== "ProviderHttpError") return failure.message
  const said = bodyMessage(failure.body)
  const reason = said === undefined ? `it answered HTTP ${failure.status}` : `${said} (HTTP ${failure.status})`
  return reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON - 1)}…` : reason
}
