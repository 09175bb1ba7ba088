import { Either } from "effect"
import * as Crypto from "node:crypto"

/** Longer tokens are refused before any work: no list's position needs more. */
const MAX_TOKEN_LENGTH = 4096

/** Why a token did not open; each list turns it into its own 400 for `next`. */
export type CursorFault = "too long" | "malformed" | "signature does not match"

export interface SignedCursor {
  /** The payload as an opaque token: base64url JSON and its signature. */
  readonly seal: (payload: unknown) => string
  /** The payload of a token this key sealed; its shape is the caller's to check. */
  readonly open: (token: string) => Either.Either<unknown, CursorFault>
}

/**
 * The envelope of every list's `next`: signed so that a client can neither forge a position
 * nor learn anything it could not already see, whatever the payload carries (a provider's own
 * cursor, a keyset). `key` is a purpose's derived key, so a token of one list never opens
 * in another.
 */
export const signedCursor = (key: Uint8Array): SignedCursor => {
  const sign = (body: string) => Crypto.createHmac("sha256", key).update(body).digest("base64url").slice(0, 32)

  const seal = (payload: unknown) => {
    const body = Buffer.from(JSON.stringify(payload)).toString("base64url")
    return `${body}.${sign(body)}`
  }

  const open = (token: string): Either.Either<unknown, CursorFault> => {
    if (token.length > MAX_TOKEN_LENGTH) return Either.left("too long")
    const [body, signature, extra] = token.split(".")
    if (body === undefined || signature === undefined || extra !== undefined) return Either.left("malformed")
    const expected = sign(body)
    if (signature.length !== expected.length || !Crypto.timingSafeEqual(Buffer.from(signature), Buffer.from(expected))) {
      return Either.left("signature does not match")
    }
    try {
      return Either.right(JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as unknown)
    } catch {
      return Either.left("malformed")
    }
  }

  return { seal, open }
}
