import { FileDownload } from "./FileDownload.js"
import { StreamedBody } from "./ProviderTransport.js"

/*
 * Secrets are removed from everything the runner reports (error URLs, bodies, headers,
 * messages). The transport gets the same list in `ProviderRequest.secrets`.
 */

export const REDACTED = "[REDACTED]"

/** Shortest credential value treated as a secret (shorter ones would redact ordinary text). */
export const MIN_SECRET_LENGTH = 4

/** Longest string kept in a reported body; the rest is cut. */
const MAX_REPORTED_STRING = 64 * 1024
const MAX_REPORTED_NODES = 10_000
const MAX_REPORTED_DEPTH = 32

/** Every string of at least `MIN_SECRET_LENGTH` characters anywhere in `value`. */
export const collectSecrets = (value: unknown, into: Set<string>, depth = 0): Set<string> => {
  if (typeof value === "string") {
    if (value.length >= MIN_SECRET_LENGTH) into.add(value)
  } else if (typeof value === "object" && value !== null && depth < 8) {
    for (const item of Array.isArray(value) ? value : Object.values(value)) collectSecrets(item, into, depth + 1)
  }
  return into
}

/** The secrets and the forms they take in URLs, longest first. */
export const secretForms = (secrets: Iterable<string>): Array<string> => {
  const forms = new Set<string>()
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue
    forms.add(secret)
    const encoded = encodeURIComponent(secret)
    if (encoded !== secret) forms.add(encoded)
    const plus = new URLSearchParams({ s: secret }).toString().slice(2)
    if (plus !== secret) forms.add(plus)
  }
  return [...forms].sort((a, b) => b.length - a.length)
}

export const redactText = (text: string, forms: ReadonlyArray<string>): string => {
  let out = text
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED)
  return out
}

/**
 * A copy of `value` fit for an error report: secrets replaced, long strings cut, deep or
 * huge structures truncated, binary bodies summarized.
 */
export const redactValue = (value: unknown, forms: ReadonlyArray<string>): unknown => {
  let nodes = 0
  const visit = (current: unknown, depth: number): unknown => {
    if (++nodes > MAX_REPORTED_NODES) return "[truncated]"
    if (typeof current === "string") {
      const cut = current.length > MAX_REPORTED_STRING ? `${current.slice(0, MAX_REPORTED_STRING)}[truncated]` : current
      return redactText(cut, forms)
    }
    if (current instanceof Uint8Array) return `[${current.byteLength} bytes]`
    if (current instanceof StreamedBody || current instanceof FileDownload) return current.toJSON()
    if (typeof current !== "object" || current === null) return current
    if (depth >= MAX_REPORTED_DEPTH) return "[truncated]"
    if (Array.isArray(current)) return current.map((item) => visit(item, depth + 1))
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(current)) out[redactText(key, forms)] = visit(item, depth + 1)
    return out
  }
  return visit(value, 0)
}

export const redactHeaders = (
  headers: Readonly<Record<string, string>>,
  forms: ReadonlyArray<string>
): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(headers)) {
    const lower = key.toLowerCase()
    out[key] = lower === "authorization" || lower === "set-cookie" || lower === "cookie"
      ? REDACTED
      : redactText(value, forms)
  }
  return out
}
