import { Effect } from "effect"
import * as Crypto from "node:crypto"
import { CredentialCipher } from "../Crypto/CredentialCipher.js"
import { InvalidCursor } from "./UnifiedErrors.js"

const CURSOR_TTL_SECONDS = 24 * 60 * 60
const MAX_CURSOR_LENGTH = 4096

interface CursorPayload {
  /** account */
  readonly a: string
  /** operation */
  readonly o: string
  /** the provider's cursor */
  readonly c: unknown
  /** expiry, epoch seconds */
  readonly e: number
}

const invalid = (reason: string) => new InvalidCursor({ reason })

/**
 * The unified `next`: an opaque, signed token carrying the provider's cursor, valid only for
 * the account and operation that produced it and for a day. Tampered, foreign or expired
 * tokens are refused, never a request to the provider.
 */
export class CursorCodec extends Effect.Service<CursorCodec>()("Switchyard/CursorCodec", {
  effect: Effect.gen(function*() {
    const cipher = yield* CredentialCipher
    const key = cipher.derivedKey("unified-cursor")
    const sign = (body: string) => Crypto.createHmac("sha256", key).update(body).digest("base64url").slice(0, 32)

    const encode = (accountId: string, operationId: string, providerCursor: unknown, now = Date.now()): string | null => {
      if (providerCursor === undefined || providerCursor === null || providerCursor === "") return null
      const payload: CursorPayload = { a: accountId, o: operationId, c: providerCursor, e: Math.floor(now / 1000) + CURSOR_TTL_SECONDS }
      const body = Buffer.from(JSON.stringify(payload)).toString("base64url")
      return `${body}.${sign(body)}`
    }

    const decode = (token: string, accountId: string, operationId: string, now = Date.now()) =>
      Effect.gen(function*() {
        if (token.length > MAX_CURSOR_LENGTH) return yield* invalid("too long")
        const [body, signature, extra] = token.split(".")
        if (body === undefined || signature === undefined || extra !== undefined) return yield* invalid("malformed")
        const expected = sign(body)
        if (
          signature.length !== expected.length ||
          !Crypto.timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
        ) return yield* invalid("signature does not match")
        const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as CursorPayload
        if (payload.a !== accountId) return yield* invalid("it belongs to another account")
        if (payload.o !== operationId) return yield* invalid("it belongs to another operation")
        if (payload.e * 1000 < now) return yield* invalid("expired")
        return payload.c
      })

    return { encode, decode } as const
  }),
  dependencies: [CredentialCipher.Default]
}) {}
