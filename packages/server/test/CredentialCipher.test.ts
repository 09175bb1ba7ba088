import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Schema } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { SwitchyardConfig } from "../src/platform/Config.js"
import { CredentialCipher } from "../src/platform/crypto/CredentialCipher.js"

const cipherWith = (values: Record<string, string>) =>
  CredentialCipher.DefaultWithoutDependencies.pipe(
    Layer.provide(SwitchyardConfig.Default),
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(values)))))
  )

const withCipher = <A, E>(values: Record<string, string>, f: (cipher: CredentialCipher) => Effect.Effect<A, E>) =>
  Effect.flatMap(CredentialCipher, f).pipe(Effect.provide(cipherWith(values)))

/** The shape the tests seal: string fields by key. */
const Fields = Schema.Record({ key: Schema.String, value: Schema.String })

describe("CredentialCipher", () => {
  const oldKey = Crypto.randomBytes(32).toString("hex")
  const newKey = Crypto.randomBytes(32).toString("base64")

  it.effect("seals with AES-256-GCM and opens what it sealed", () =>
    withCipher({ SWITCHYARD_ENCRYPTION_KEY: oldKey, SWITCHYARD_DATA_DIR: ":memory:" }, (cipher) =>
      Effect.gen(function*() {
        const sealed = cipher.seal({ api_key: "top-secret" })
        expect(sealed.ciphertext).not.toContain("top-secret")
        expect(cipher.seal({ api_key: "top-secret" }).ciphertext).not.toBe(sealed.ciphertext)
        expect(yield* cipher.open(Fields, sealed)).toEqual({ api_key: "top-secret" })
        const bytes = Buffer.from(sealed.ciphertext, "base64")
        bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 1
        const tampered = yield* cipher.open(Fields, { ...sealed, ciphertext: bytes.toString("base64") }).pipe(Effect.flip)
        expect(tampered._tag).toBe("CipherError")
      })))

  it.effect("decodes what it opens with the caller's Schema, naming where it differs and never the value", () =>
    withCipher({ SWITCHYARD_ENCRYPTION_KEY: oldKey, SWITCHYARD_DATA_DIR: ":memory:" }, (cipher) =>
      Effect.gen(function*() {
        const sealed = cipher.seal({ api_key: "top-secret", port: 443 })
        const mismatch = yield* cipher.open(Fields, sealed).pipe(Effect.flip)
        expect(mismatch._tag).toBe("SealedValueMismatch")
        expect(mismatch.message).toContain("port")
        expect(mismatch.message).not.toContain("443")
        expect(mismatch.message).not.toContain("top-secret")
        const missing = yield* cipher.open(Schema.Struct({ token: Schema.String }), sealed).pipe(Effect.flip)
        expect(missing.message).toContain("token")
        expect(yield* cipher.open(Schema.Struct({ port: Schema.Number }), sealed)).toEqual({ port: 443 })
      })))

  it.effect("opens values sealed under a previous key while rotating", () =>
    Effect.gen(function*() {
      const sealed = yield* withCipher(
        { SWITCHYARD_ENCRYPTION_KEY: oldKey, SWITCHYARD_DATA_DIR: ":memory:" },
        (cipher) => Effect.succeed(cipher.seal({ token: "abc" }))
      )
      const rotated = { SWITCHYARD_ENCRYPTION_KEY: newKey, SWITCHYARD_DATA_DIR: ":memory:" }
      const withoutOld = yield* withCipher(rotated, (cipher) => cipher.open(Fields, sealed)).pipe(Effect.flip)
      expect(withoutOld.message).toContain("no configured key")
      const opened = yield* withCipher(
        { ...rotated, SWITCHYARD_PREVIOUS_ENCRYPTION_KEYS: oldKey },
        (cipher) => Effect.map(cipher.open(Fields, sealed), (value) => ({ value, stale: cipher.isStale(sealed) }))
      )
      expect(opened).toEqual({ value: { token: "abc" }, stale: true })
    }))

  it.effect("requires a well-formed key, and a configured one with DATABASE_URL", () =>
    Effect.gen(function*() {
      const short = yield* withCipher({ SWITCHYARD_ENCRYPTION_KEY: "abcd" }, () => Effect.void).pipe(Effect.flip)
      expect(short.message).toContain("SWITCHYARD_ENCRYPTION_KEY must hold 32-byte keys")
      const missing = yield* withCipher({ DATABASE_URL: "postgres://localhost/x" }, () => Effect.void).pipe(Effect.flip)
      expect(missing.message).toContain("SWITCHYARD_ENCRYPTION_KEY is required with DATABASE_URL")
    }))

  it.effect("generates a private key file once in the embedded data directory", () =>
    Effect.gen(function*() {
      const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-key-"))
      const sealed = yield* withCipher({ SWITCHYARD_DATA_DIR: dir }, (cipher) => Effect.succeed(cipher.seal("x")))
      const file = Path.join(dir, "encryption.key")
      expect(Fs.statSync(file).mode & 0o777).toBe(0o600)
      const reopened = yield* withCipher({ SWITCHYARD_DATA_DIR: dir }, (cipher) => cipher.open(Schema.String, sealed))
      expect(reopened).toBe("x")
    }))
})
