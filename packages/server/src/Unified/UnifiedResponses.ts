import { HttpServerResponse } from "@effect/platform"
import type { ApiError } from "@switchyard/api"
import { Effect, Stream } from "effect"

export const HEARTBEAT_INTERVAL = "1 second"

const errorBody = (error: ApiError) => {
  const { _tag: _, retryAfter: __, ...body } = error as ApiError & { readonly retryAfter?: number }
  return body
}

/**
 * `Prefer: heartbeat` (RFC 7240): the status is sent at once, a newline follows every second
 * while the work runs, then the JSON body. A failure after that point cannot change the
 * status, so it is reported in the body in the documented error shape.
 */
export const withHeartbeat = <A>(work: Effect.Effect<A, ApiError>): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
  Effect.sync(() => {
    const body = Stream.fromEffect(
      work.pipe(
        Effect.map((value) => JSON.stringify(value)),
        Effect.catchAll((error) => Effect.succeed(JSON.stringify(errorBody(error))))
      )
    )
    const beats = Stream.tick(HEARTBEAT_INTERVAL).pipe(Stream.drop(1), Stream.as("\n"))
    const chunks = Stream.merge(beats, body, { haltStrategy: "right" }).pipe(Stream.encodeText)
    return HttpServerResponse.stream(chunks, {
      contentType: "application/json",
      headers: { "preference-applied": "heartbeat" }
    })
  })

export const wantsHeartbeat = (prefer: string | undefined) =>
  prefer !== undefined && prefer.split(",").some((token) => token.trim().toLowerCase() === "heartbeat")
