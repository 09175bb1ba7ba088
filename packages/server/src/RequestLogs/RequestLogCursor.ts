import { Effect } from "effect"
import * as Crypto from "node:crypto"
import { CredentialCipher } from "../Crypto/CredentialCipher.js"
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
    const key = cipher.derivedKey("request-log-cursor")
    const sign = (body: string) => Crypto.createHmac("sha256", key).update(body).digest("base64url").slice(0, 32)

    /** `order` is `<order_by>.<direction>`; a duration order's value is a number, a time order's a string. */
    const encode = (projectId: string, order: string, keyset: RequestLogKeyset) => {
      const payload: CursorPayload = { p: projectId, o: order, v: keyset.value, i: keyset.id }
      const body = Buffer.from(JSON.stringify(payload)).toString("base64url")
      return `${body}.${sign(body)}`
    }

    const decode = (token: string, projectId: string, order: string) =>
      Effect.gen(function*() {
        const [body, signature, extra] = token.split(".")
        if (body === undefined || signature === undefined || extra !== undefined) return yield* invalid("malformed")
        const expected = sign(body)
        if (signature.length !== expected.length || !Crypto.timingSafeEqual(Buffer.from(signature), Buffer.from(expected))) {
          return yield* invalid("signature does not match")
        }
        const payload = yield* Effect.try({
          try: (): unknown => JSON.parse(Buffer.from(body, "base64url").toString("utf8")),
          catch: () => invalid("malformed")
        })
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
