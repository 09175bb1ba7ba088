import { redactHeaders, redactText, redactValue } from "../redact.js"
import type { ProviderResponse } from "../ProviderTransport.js"
import type { ActionError } from "../RunErrors.js"

/**
 * The same error with every field walked once: text has the run's secrets replaced,
 * `headers` lose credentials and cookies, bodies and issue lists are copied redacted and
 * bounded (long values other than the message are cut), a carried `response` keeps its
 * status with its headers and body redacted. It rebuilds the error with its own
 * constructor, so tags and classes stay.
 */
export const redactError = (error: ActionError, forms: ReadonlyArray<string>): ActionError => {
  const fields: Record<string, unknown> = {}
  // `message` is Error's own property, which `Object.keys` does not list
  for (const key of ["message", ...Object.keys(error)]) {
    if (key === "_tag") continue
    fields[key] = redactField(key, (error as unknown as Record<string, unknown>)[key], forms)
  }
  const rebuild = error.constructor as new(fields: Record<string, unknown>) => ActionError
  return new rebuild(fields)
}

const isObject = (value: unknown): value is object => typeof value === "object" && value !== null

const redactField = (key: string, value: unknown, forms: ReadonlyArray<string>): unknown => {
  if (key === "message" && typeof value === "string") return redactText(value, forms)
  if (key === "headers" && isObject(value)) return redactHeaders(value as Record<string, string>, forms)
  if (key === "response" && isObject(value)) {
    const response = value as ProviderResponse
    return { ...response, headers: redactHeaders(response.headers, forms), body: redactValue(response.body, forms) }
  }
  return redactValue(value, forms)
}
