import { HttpServerResponse } from "@effect/platform"
import { type ApiError, InternalServerError } from "@switchyard/api"
import { Effect, Either, Stream } from "effect"
import type { JsonAnswer } from "../Wire/jsonAnswer.js"

export const HEARTBEAT_INTERVAL = "1 second"

/** The documented error body; `message` is not an own enumerable key of an error instance. */
const errorBody = (error: ApiError) => {
  const { _tag: _, retryAfter: __, ...body } = error as ApiError & { readonly retryAfter?: number }
  return { ...body, message: error.message }
}

/**
 * `Prefer: heartbeat` (RFC 7240): the status is sent at once, a newline follows every second
 * while the work runs, then the JSON body, encoded by the endpoint's answer schema. A failure
 * after that point cannot change the status, so it is reported in the body in the documented
 * error shape: the work's own error, or a 500 naming the fields of an answer that does not
 * match its schema.
 */
export const withHeartbeat = <A>(
  work: Effect.Effect<A, ApiError>,
  answer: JsonAnswer
): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
  Effect.sync(() => {
    const body = Stream.fromEffect(
      work.pipe(
        Effect.flatMap((value) =>
          Either.match(answer.body(value), {
            onRight: Effect.succeed,
            onLeft: (mismatch) =>
              Effect.as(
                Effect.logError(`answer does not match its schema: ${mismatch}`),
                JSON.stringify(errorBody(
                  new InternalServerError({ message: `The answer does not match its documented schema: ${mismatch}` })
                ))
              )
          })
        ),
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
