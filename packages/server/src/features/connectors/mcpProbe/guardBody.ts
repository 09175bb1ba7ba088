// Bounded bodies: Effect streams (readText, discard) and the web streams handed to the SDK (guardBody).
import type { HttpClientResponse } from "@effect/platform"
import { Effect, Stream } from "effect"
import { tooLarge, transportFailure } from "./McpProbeFailed.js"

/** The most the answer to `initialize` may be. */
export const MAX_BODY_BYTES = 1024 * 1024
/** The most any other body may be: protected-resource metadata, error pages. */
export const MAX_METADATA_BYTES = 64 * 1024

/** Fails once a body grows beyond `max` bytes instead of buffering it all. */
const limitBytes = <E>(stream: Stream.Stream<Uint8Array, E>, max: number, where: string) =>
  Stream.mapAccumEffect(stream, 0, (total, chunk) =>
    total + chunk.length > max
      ? Effect.fail(tooLarge(where, max))
      : Effect.succeed([total + chunk.length, chunk] as const))

export const readText = (response: HttpClientResponse.HttpClientResponse, max: number, where: string) =>
  limitBytes(response.stream, max, where).pipe(
    Stream.decodeText(),
    Stream.runFold("", (text, part) => text + part),
    Effect.mapError((error) => error._tag === "McpProbeFailed" ? error : transportFailure(where)(error))
  )

/** Reads and drops what is left of a body, so the connection is not left half-read. */
export const discard = (response: HttpClientResponse.HttpClientResponse) =>
  Stream.runDrain(limitBytes(response.stream, MAX_METADATA_BYTES, "")).pipe(Effect.ignore)

/**
 * A body read through, at most `max` bytes (beyond, it errors with `tooLarge()`), with
 * `onError` told why it broke off and `tail` appended when it ends.
 */
export const guardBody = (source: ReadableStream<Uint8Array>, options: {
  readonly max: number
  readonly tooLarge: () => unknown
  readonly onError: (error: unknown) => unknown
  readonly tail?: Uint8Array
}) => {
  const reader = source.getReader()
  let total = 0
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: Awaited<ReturnType<typeof reader.read>>
      try {
        next = await reader.read()
      } catch (error) {
        return controller.error(options.onError(error))
      }
      if (next.done) {
        if (options.tail !== undefined) controller.enqueue(options.tail)
        return controller.close()
      }
      total += next.value.byteLength
      if (total > options.max) {
        const error = options.tooLarge()
        controller.error(error)
        return reader.cancel(error).catch(() => undefined)
      }
      controller.enqueue(next.value)
    },
    cancel: (reason) => reader.cancel(reason)
  })
}
