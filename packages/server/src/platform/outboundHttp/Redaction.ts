import { redactText as redactForms, redactValue as redactValueForms, REDACTED, secretForms } from "@switchyard/engine"

/** Header names whose values are credentials whatever the connector says. */
export const sensitiveHeaders = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
  "api-key",
  "x-auth-token"
])

/** Removes every secret value (and its URL-encoded forms) from text. */
export const redactText = (text: string, secrets: ReadonlyArray<string>): string =>
  redactForms(text, secretForms(secrets))

/** A copy of a JSON-like value with secrets removed from every string and key (the engine's walk). */
export const redactValue = (value: unknown, secrets: ReadonlyArray<string>): unknown =>
  redactValueForms(value, secretForms(secrets))

export const redactHeaders = (
  headers: Readonly<Record<string, string>>,
  secrets: ReadonlyArray<string>
): Record<string, string> => {
  const forms = secretForms(secrets)
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      sensitiveHeaders.has(name.toLowerCase()) ? REDACTED : redactForms(value, forms)
    ])
  )
}
