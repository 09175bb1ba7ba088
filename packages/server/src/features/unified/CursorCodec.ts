import { Effect, Either } from "effect"
import { CredentialCipher } from "../../platform/crypto/CredentialCipher.js"
import { signedCursor } from "../../platform/crypto/SignedCursor.js"
import { InvalidCursor } from "./UnifiedErrors.js"

const CURSOR_TTL_SECONDS = 24 * 60 * 60

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

const isCursorPayload = (value: unknown): value is CursorPayload => {
  if (typeof value !== "object" || value === null) return false
  const payload = value as Record<string, unknown>
  return typeof payload.a === "string" && typeof payload.o === "string" && typeof payload.e === "number"
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
    const cursor = signedCursor(cipher.derivedKey("unified-cursor"))

    const encode = (accountId: string, operationId: string, providerCursor: unknown, now = Date.now()): string | null => {
      if (providerCursor === undefined || providerCursor === null || providerCursor === "") return null
      const payload: CursorPayload = { a: accountId, o: operationId, c: providerCursor, e: Math.floor(now / 1000) + CURSOR_TTL_SECONDS }
      return cursor.seal(payload)
    }

    const decode = (token: string, accountId: string, operationId: string, now = Date.now()) =>
      Effect.gen(function*() {
        const opened = cursor.open(token)
        if (Either.isLeft(opened)) return yield* invalid(opened.left)
        const payload = opened.right
        if (!isCursorPayload(payload)) return yield* invalid("malformed")
        if (payload.a !== accountId) return yield* invalid("it belongs to another account")
        if (payload.o !== operationId) return yield* invalid("it belongs to another operation")
        if (payload.e * 1000 < now) return yield* invalid("expired")
        return payload.c
      })

    return { encode, decode } as const
  }),
  dependencies: [CredentialCipher.Default]
}) {}
