import { Effect, Either } from "effect"
import { CredentialCipher } from "../../platform/crypto/CredentialCipher.js"
import { signedCursor } from "../../platform/crypto/SignedCursor.js"
import { InvalidRequestLogCursor } from "./RequestLogErrors.js"
import type { RequestLogKeyset } from "./RequestLogsRepo.js"

interface CursorPayload {
  /** project */
  readonly p: string
  /** order: `<order_by>.<direction>` */
  readonly o: string
  /** the last row's sort value: its exact time as text, or its duration in ms */
  readonly v: string | number
  /** the last row's id */
  readonly i: string
}

const isCursorPayload = (value: unknown): value is CursorPayload => {
  if (typeof value !== "object" || value === null) return false
  const payload = value as Record<string, unknown>
  return typeof payload.p === "string" && typeof payload.o === "string" && typeof payload.i === "string" &&
    (typeof payload.v === "string" || (typeof payload.v === "number" && Number.isInteger(payload.v)))
}

const invalid = (reason: string) => new InvalidRequestLogCursor({ reason })

/**
 * The request log's `next`: an opaque, signed keyset position (the last entry's sort value and
 * id) that names its project and order, so it can neither reach another project's entries
 * nor be replayed under a different order. Keysets do not go stale: no expiry.
 */
export class RequestLogCursor extends Effect.Service<RequestLogCursor>()("Switchyard/RequestLogCursor", {
  effect: Effect.gen(function*() {
    const cipher = yield* CredentialCipher
    const cursor = signedCursor(cipher.derivedKey("request-log-cursor"))

    /** `order` is `<order_by>.<direction>`; a duration order's value is a number, a time order's a string. */
    const encode = (projectId: string, order: string, keyset: RequestLogKeyset) => {
      const payload: CursorPayload = { p: projectId, o: order, v: keyset.value, i: keyset.id }
      return cursor.seal(payload)
    }

    const decode = (token: string, projectId: string, order: string) =>
      Effect.gen(function*() {
        const opened = cursor.open(token)
        if (Either.isLeft(opened)) return yield* invalid(opened.left)
        const payload = opened.right
        if (!isCursorPayload(payload)) return yield* invalid("malformed")
        if (payload.p !== projectId) return yield* invalid("it belongs to another project")
        if (payload.o !== order) return yield* invalid(`it continues order ${payload.o}, not ${order}`)
        // the value's type follows the order: a signed cursor of this order always has the right one
        if ((typeof payload.v === "number") !== order.startsWith("duration.")) return yield* invalid("malformed")
        return { value: payload.v, id: payload.i } satisfies RequestLogKeyset
      })

    return { encode, decode } as const
  }),
  dependencies: [CredentialCipher.Default]
}) {}
