const REDACTED = "[REDACTED]"
const MIN_SECRET_LENGTH = 4

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

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/**
 * Removes every secret value from text. Secrets are also matched in their URL-encoded and
 * base64 forms (a Basic header or a query parameter carries them that way).
 */
export const redactText = (text: string, secrets: ReadonlyArray<string>): string => {
  const variants = secrets
    .filter((secret) => secret.length >= MIN_SECRET_LENGTH)
    .flatMap((secret) => [secret, encodeURIComponent(secret), Buffer.from(secret).toString("base64")])
  if (variants.length === 0) return text
  const pattern = new RegExp([...new Set(variants)].sort((a, b) => b.length - a.length).map(escape).join("|"), "g")
  return text.replace(pattern, REDACTED)
}

/** Redacts secrets anywhere inside a JSON-like value (strings, keys included). */
export const redactValue = (value: unknown, secrets: ReadonlyArray<string>): unknown => {
  if (value === undefined || value instanceof Uint8Array) return value
  if (typeof value === "string") return redactText(value, secrets)
  return JSON.parse(redactText(JSON.stringify(value), secrets)) as unknown
}

export const redactHeaders = (
  headers: Readonly<Record<string, string>>,
  secrets: ReadonlyArray<string>
): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).map((
      [name, value]
    ) => [name, sensitiveHeaders.has(name.toLowerCase()) ? REDACTED : redactText(value, secrets)])
  )
