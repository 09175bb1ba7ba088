import { redactHeaders, redactText, redactValue } from "../redact.js"
import type { ActionError } from "../RunErrors.js"

/**
 * The same error with every field walked once: text has the run's secrets replaced,
 * `headers` lose credentials and cookies, bodies and issue lists are copied redacted and
 * bounded (long values other than the message are cut). It rebuilds the error with its own constructor, so tags and classes stay.
 *
 * A `ProviderTransportError` is passed through: the transport redacts it itself (it gets the
 * secrets with each request) and its `response` is read by the caller as is.
 */
export const redactError = (error: ActionError, forms: ReadonlyArray<string>): ActionError => {
  if (error._tag === "ProviderTransportError") return error
  const fields: Record<string, unknown> = {}
  // `message` is Error's own property, which `Object.keys` does not list
  for (const key of ["message", ...Object.keys(error)]) {
    if (key === "_tag") continue
    const value = (error as unknown as Record<string, unknown>)[key]
    fields[key] = key === "message" && typeof value === "string"
      ? redactText(value, forms)
      : key === "headers" && typeof value === "object" && value !== null
      ? redactHeaders(value as Record<string, string>, forms)
      : redactValue(value, forms)
  }
  const rebuild = error.constructor as new(fields: Record<string, unknown>) => ActionError
  return new rebuild(fields)
}
