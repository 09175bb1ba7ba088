import { Config, ConfigError, Either, Redacted } from "effect"

/** Accepts 32 bytes as 64 hex characters or as base64. */
export const parseEncryptionKey = (encoded: string): Buffer | undefined => {
  const text = encoded.trim()
  const bytes = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64")
  return bytes.length === 32 ? bytes : undefined
}

const decoded = (name: string) => (encoded: string) => {
  const key = parseEncryptionKey(encoded)
  return key === undefined
    ? Either.left(ConfigError.InvalidData([], `${name} must hold 32-byte keys, as 64 hex characters or base64`))
    : Either.right(Redacted.make(key))
}

/**
 * SWITCHYARD_ENCRYPTION_KEY, decoded when the configuration is read: a malformed key stops
 * the start with a configuration error, before anything is built on it.
 */
export const encryptionKeyConfig = Config.option(
  Config.string("SWITCHYARD_ENCRYPTION_KEY").pipe(Config.mapOrFail(decoded("SWITCHYARD_ENCRYPTION_KEY")))
)

/** SWITCHYARD_PREVIOUS_ENCRYPTION_KEYS: comma-separated keys still accepted for opening (rotation). */
export const previousEncryptionKeysConfig = Config.string("SWITCHYARD_PREVIOUS_ENCRYPTION_KEYS").pipe(
  Config.withDefault(""),
  Config.mapOrFail((list) =>
    Either.all(
      list.split(",").map((key) => key.trim()).filter((key) => key.length > 0).map(
        decoded("SWITCHYARD_PREVIOUS_ENCRYPTION_KEYS")
      )
    )
  )
)
