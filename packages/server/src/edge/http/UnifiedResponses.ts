import { HttpServerResponse } from "@effect/platform"
import { type ApiError, InternalServerError } from "@switchyard/api"
import { Effect, Either, Stream } from "effect"
import type { JsonAnswer } from "../wire/jsonAnswer.js"

export const HEARTBEAT_INTERVAL = "1 second"

/** The documented error body; `message` is not an own enumerable key of an error instance. */
const errorBody = (error: ApiError) => {
  const { _tag: _, retryAfter: __, ...body } = error as ApiError & { readonly retryAfter?: number }
  return { ...body, message: error.message }
}

/**
 * `Prefer: heartbeat` (RFC 7240): the status is sent at once, a newline follows every second
 * while the work runs, then the JSON body. A failure after that point cannot change the
 * status, so it is reported in the body in the documented error shape: the work's own error,
 * or the one it answers for a value that does not fit its schema (see `encodedAnswer`).
 */
export const withHeartbeat = (
  body: Effect.Effect<string, ApiError>
): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
  Effect.sync(() => {
    const text = Stream.fromEffect(Effect.catchAll(body, (error) => Effect.succeed(JSON.stringify(errorBody(error)))))
    const beats = Stream.tick(HEARTBEAT_INTERVAL).pipe(Stream.drop(1), Stream.as("\n"))
    const chunks = Stream.merge(beats, text, { haltStrategy: "right" }).pipe(Stream.encodeText)
    return HttpServerResponse.stream(chunks, {
      contentType: "application/json",
      headers: { "preference-applied": "heartbeat" }
    })
  })

/**
 * The JSON body of `value` through the endpoint's schema, or the error `misfit` gives for a
 * value that does not fit it (the issues name paths and expectations, never values).
 */
export const encodedAnswer = (
  answer: JsonAnswer,
  value: unknown,
  misfit: (issues: string) => ApiError
): Effect.Effect<string, ApiError> =>
  Either.match(answer.body(value), {
    onRight: Effect.succeed,
    onLeft: (issues) => {
      const error = misfit(issues)
      return Effect.zipRight(Effect.logError(error.message), Effect.fail(error))
    }
  })

/** Our own answer not fitting its schema is our fault: a 500 naming the fields. */
export const ownAnswerMisfit = (issues: string): ApiError =>
  new InternalServerError({ message: `The answer does not match its documented schema: ${issues}` })

export const wantsHeartbeat = (prefer: string | undefined) =>
  prefer !== undefined && prefer.split(",").some((token) => token.trim().toLowerCase() === "heartbeat")
