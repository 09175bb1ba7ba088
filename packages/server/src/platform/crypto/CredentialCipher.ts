import { Data, Effect, Option, ParseResult, Redacted, Schema } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { SwitchyardConfig } from "../Config.js"
import { parseEncryptionKey } from "./encryptionKey.js"

/** Ciphertext plus the id of the key that sealed it, so keys can rotate. */
export interface Sealed {
  readonly keyId: string
  readonly ciphertext: string
}

export class CipherError extends Data.TaggedError("CipherError")<{ readonly message: string }> {}

/**
 * A value that opened but is not what its caller's Schema says it sealed. The message names
 * where it differs, never the value found there: the value is a secret.
 */
export class SealedValueMismatch extends Data.TaggedError("SealedValueMismatch")<{ readonly message: string }> {}

const mismatchOf = (error: ParseResult.ParseError) =>
  new SealedValueMismatch({
    message: `the opened value is not of the sealed shape: ${
      ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => `${issue._tag} at ${issue.path.join(".") || "(root)"}`)
        .join("; ")
    }`
  })

interface KeyMaterial {
  readonly id: string
  readonly key: Buffer
}

const KEY_FILE = "encryption.key"

const keyMaterial = (key: Buffer): KeyMaterial => ({
  id: Crypto.createHash("sha256").update(key).digest("hex").slice(0, 16),
  key
})

/**
 * The current key: configured, or (embedded default only) generated once into the data
 * directory. A real PostgreSQL deployment must configure it: losing it loses credentials.
 */
const loadCurrentKey = (config: SwitchyardConfig): Effect.Effect<Buffer, CipherError> =>
  Effect.gen(function*() {
    if (Option.isSome(config.encryptionKey)) return Redacted.value(config.encryptionKey.value)
    if (Option.isSome(config.databaseUrl)) {
      return yield* new CipherError({
        message: "SWITCHYARD_ENCRYPTION_KEY is required with DATABASE_URL (32 bytes, hex or base64; e.g. `openssl rand -hex 32`)"
      })
    }
    if (config.dataDir === ":memory:") return Crypto.randomBytes(32)
    const file = Path.join(Path.resolve(config.dataDir), KEY_FILE)
    return yield* Effect.try({
      try: () => {
        if (!Fs.existsSync(file)) {
          Fs.mkdirSync(Path.dirname(file), { recursive: true })
          Fs.writeFileSync(file, Crypto.randomBytes(32).toString("hex"), { mode: 0o600, flag: "wx" })
        }
        const key = parseEncryptionKey(Fs.readFileSync(file, "utf8"))
        if (key === undefined) throw new Error(`${file} does not hold a 32-byte key`)
        return key
      },
      catch: (error) => new CipherError({ message: `cannot load the encryption key: ${String(error)}` })
    })
  })

/** AES-256-GCM for provider credentials at rest. */
export class CredentialCipher extends Effect.Service<CredentialCipher>()("Switchyard/CredentialCipher", {
  effect: Effect.gen(function*() {
    const config = yield* SwitchyardConfig
    const current = keyMaterial(yield* loadCurrentKey(config))
    const keyring = new Map<string, KeyMaterial>([[current.id, current]])
    for (const previous of config.previousEncryptionKeys) {
      const material = keyMaterial(Redacted.value(previous))
      keyring.set(material.id, material)
    }

    const seal = (plaintext: unknown): Sealed => {
      const iv = Crypto.randomBytes(12)
      const cipher = Crypto.createCipheriv("aes-256-gcm", current.key, iv)
      const body = Buffer.concat([cipher.update(JSON.stringify(plaintext), "utf8"), cipher.final()])
      return { keyId: current.id, ciphertext: Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64") }
    }

    const decrypt = (sealed: Sealed): Effect.Effect<unknown, CipherError> =>
      Effect.try({
        try: () => {
          const material = keyring.get(sealed.keyId)
          if (material === undefined) throw new Error(`no configured key has id ${sealed.keyId}`)
          const bytes = Buffer.from(sealed.ciphertext, "base64")
          const decipher = Crypto.createDecipheriv("aes-256-gcm", material.key, bytes.subarray(0, 12))
          decipher.setAuthTag(bytes.subarray(12, 28))
          const plain = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()])
          return JSON.parse(plain.toString("utf8")) as unknown
        },
        catch: (error) => new CipherError({ message: `cannot decrypt credentials: ${(error as Error).message}` })
      })

    /** The sealed value, decoded with the Schema of what its caller sealed. */
    const open = <A, I>(schema: Schema.Schema<A, I>, sealed: Sealed): Effect.Effect<A, CipherError | SealedValueMismatch> =>
      Effect.flatMap(decrypt(sealed), (plain) => Effect.mapError(Schema.decodeUnknown(schema)(plain), mismatchOf))

    /** A key for one purpose (e.g. signing cursors), derived so it never doubles as the cipher key. */
    const derivedKey = (purpose: string) => Crypto.createHmac("sha256", current.key).update(`switchyard:${purpose}`).digest()

    return {
      currentKeyId: current.id,
      derivedKey,
      seal,
      open,
      /** Whether a sealed value should be re-sealed under the current key. */
      isStale: (sealed: Sealed) => sealed.keyId !== current.id
    } as const
  }),
  dependencies: [SwitchyardConfig.Default]
}) {}
