import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import * as Crypto from "node:crypto"
import { SwitchyardConfig } from "../src/platform/Config.js"
import { CredentialCipher } from "../src/platform/crypto/CredentialCipher.js"
import { toApiError } from "../src/edge/toApiError.js"
import { CursorCodec } from "../src/features/unified/CursorCodec.js"
import { parseFields, projectFields } from "../src/features/unified/projectFields.js"

const codecWith = (key: string) =>
  CursorCodec.DefaultWithoutDependencies.pipe(
    Layer.provide(CredentialCipher.DefaultWithoutDependencies),
    Layer.provide(SwitchyardConfig.Default),
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([
      ["SWITCHYARD_ENCRYPTION_KEY", key],
      ["SWITCHYARD_DATA_DIR", ":memory:"]
    ]))))
  )

const key = Crypto.randomBytes(32).toString("hex")

describe("unified next cursor", () => {
  it.effect("round-trips the provider cursor for its account and operation only", () =>
    Effect.gen(function*() {
      const codec = yield* CursorCodec
      const token = codec.encode("acc-1", "ats_list_applications", { page: 3, since: "x" })!
      expect(token).not.toContain("page")
      expect(yield* codec.decode(token, "acc-1", "ats_list_applications")).toEqual({ page: 3, since: "x" })
      const message = (effect: Effect.Effect<unknown, { message: string }>) =>
        Effect.map(Effect.flip(effect), (error) => error.message)
      expect(yield* message(codec.decode(token, "acc-2", "ats_list_applications"))).toContain("another account")
      expect(yield* message(codec.decode(token, "acc-1", "ats_list_candidates"))).toContain("another operation")
      const [body, signature] = token.split(".")
      const forged = Buffer.from(JSON.stringify({ a: "acc-1", o: "ats_list_applications", c: 99, e: 9e9 })).toString("base64url")
      expect(yield* message(codec.decode(`${forged}.${signature}`, "acc-1", "ats_list_applications"))).toContain("signature")
      expect(yield* message(codec.decode(`${body}`, "acc-1", "ats_list_applications"))).toContain("malformed")
      expect(yield* message(codec.decode("x".repeat(5000), "acc-1", "ats_list_applications"))).toContain("too long")
      const old = codec.encode("acc-1", "ats_list_applications", 2, Date.now() - 2 * 24 * 3600 * 1000)!
      expect(yield* message(codec.decode(old, "acc-1", "ats_list_applications"))).toContain("expired")
      expect(codec.encode("acc-1", "ats_list_applications", undefined)).toBeNull()
      expect(codec.encode("acc-1", "ats_list_applications", null)).toBeNull()
    }).pipe(Effect.provide(codecWith(key))))

  it.effect("a cursor signed under another server key is refused", () =>
    Effect.gen(function*() {
      const token = yield* Effect.map(CursorCodec, (codec) => codec.encode("a", "op", 1)!).pipe(
        Effect.provide(codecWith(Crypto.randomBytes(32).toString("hex")))
      )
      const refused = yield* Effect.flatMap(CursorCodec, (codec) => codec.decode(token, "a", "op")).pipe(
        Effect.flip,
        Effect.provide(codecWith(key))
      )
      expect(toApiError(refused)._tag).toBe("BadRequest")
    }))
})

describe("fields projection", () => {
  it("keeps only the named fields and the record's identifier, all when empty", () => {
    expect(parseFields(undefined)).toBeUndefined()
    expect(parseFields(" , ")).toBeUndefined()
    expect(parseFields("id, name")).toEqual(["id", "name"])
    const records = [{ id: "1", name: "a", extra: true }, { id: "2" }]
    expect(projectFields(records, ["id", "name", "unknown"])).toEqual([{ id: "1", name: "a" }, { id: "2" }])
    expect(projectFields(records[0], ["extra"])).toEqual({ id: "1", extra: true })
    expect(projectFields({ event_id: "e1", change_type: "x", created_at: "t" }, ["created_at"])).toEqual({ event_id: "e1", created_at: "t" })
    expect(projectFields(records, undefined)).toBe(records)
  })
})
