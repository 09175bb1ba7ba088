import type { ConnectorDefinition } from "./ConnectorDefinition.js"
import type { ParsedConnector } from "./parseConnector.js"
import { collectSecrets } from "./redact.js"

/**
 * The credential keys the connector declares `secret: false` in every `configFields` and
 * `setupFields` entry naming them. One declaration that is `secret: true` or says nothing
 * keeps the key secret: redaction fails safe.
 */
export const plainCredentialKeys = (definition: ConnectorDefinition): ReadonlySet<string> => {
  const plain = new Set<string>()
  const secret = new Set<string>()
  for (const named of definition.authentication ?? []) {
    for (const method of Object.values(named)) {
      for (const field of [...(method.configFields ?? []), ...(method.setupFields ?? [])]) {
        if (field.secret === false) plain.add(field.key)
        else secret.add(field.key)
      }
    }
  }
  for (const key of secret) plain.delete(key)
  return plain
}

/**
 * The credential values that must never leave in a capture, log or error: every string of
 * the credentials but the plain string value of a field declared `secret: false`. Nested
 * values stay secret whatever their key, and so do tokens obtained while running (the
 * runner adds those). Only secrets are collected, never subtracted: a plain value that
 * equals or sits inside a secret cannot un-redact it.
 */
export const credentialSecrets = (
  parsed: ParsedConnector,
  credentials: Readonly<Record<string, unknown>>
): Set<string> => {
  const plain = plainCredentialKeys(parsed.definition)
  const secrets = new Set<string>()
  for (const [key, value] of Object.entries(credentials)) {
    if (!(plain.has(key) && typeof value === "string")) collectSecrets(value, secrets, 1)
  }
  return secrets
}
