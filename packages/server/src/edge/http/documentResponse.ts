import { type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { FileDownload } from "@switchyard/engine"
import { Effect, Stream } from "effect"
import { contentDisposition } from "./contentDisposition.js"

/** A downloaded document: its bytes as they arrive and what the connector knows of them. */
export interface Document {
  readonly stream: Stream.Stream<Uint8Array, unknown>
  readonly contentType: string
  readonly fileName?: string | undefined
  readonly contentLength?: number | undefined
}

const OCTET_STREAM = "application/octet-stream"

/** The document in an action's result: a streamed file, or bytes (with their type when reported). */
export const documentOf = (data: unknown): Document | undefined => {
  if (data instanceof FileDownload) return data
  if (data instanceof Uint8Array) return { stream: Stream.succeed(data), contentType: OCTET_STREAM, contentLength: data.length }
  if (typeof data === "object" && data !== null) {
    const record = data as Record<string, unknown>
    if (record.data instanceof FileDownload) return record.data
    if (record.data instanceof Uint8Array) {
      return {
        stream: Stream.succeed(record.data),
        contentType: typeof record.contentType === "string" ? record.contentType : OCTET_STREAM,
        fileName: typeof record.fileName === "string" ? record.fileName : undefined,
        contentLength: record.data.length
      }
    }
  }
  return undefined
}

/**
 * Base64 of a byte stream, chunk by chunk: each chunk encodes its whole 3-byte groups and
 * carries the 0–2 bytes left over to the next, so the output is the base64 of the whole.
 */
export const base64Stream = <E, R>(bytes: Stream.Stream<Uint8Array, E, R>): Stream.Stream<Uint8Array, E, R> =>
  Stream.suspend(() => {
    let carry: Buffer = Buffer.alloc(0)
    const encode = (chunk: Buffer) => Buffer.from(chunk.toString("base64"), "latin1")
    return bytes.pipe(
      Stream.map((chunk) => {
        const joined = carry.length === 0
          ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
          : Buffer.concat([carry, chunk])
        const whole = joined.length - (joined.length % 3)
        carry = Buffer.from(joined.subarray(whole))
        return encode(joined.subarray(0, whole))
      }),
      Stream.concat(Stream.suspend(() => carry.length === 0 ? Stream.empty : Stream.succeed(encode(carry)))),
      Stream.filter((chunk) => chunk.length > 0)
    )
  })

/** Length of the base64 text of `size` bytes (padded). */
const base64Length = (size: number) => Math.ceil(size / 3) * 4

/**
 * The document as the HTTP answer: its own media type (or `export_format`), or base64 text
 * for `format=base64`, streamed as the provider sends it. The status is sent with the first
 * byte, so a failure after it (provider gone, size bound) cannot become an error body: the
 * connection is cut instead, which tells the client the body is incomplete (ending it
 * normally would pass a truncated file off as whole).
 */
export const documentResponse = (
  document: Document,
  params: Readonly<Record<string, unknown>>,
  request: HttpServerRequest.HttpServerRequest
): HttpServerResponse.HttpServerResponse => {
  const cut = Stream.tapErrorCause(() => Effect.sync(() => NodeHttpServerRequest.toServerResponse(request).destroy()))
  const size = document.contentLength
  if (params.format === "base64") {
    return HttpServerResponse.stream(cut(base64Stream(document.stream)), {
      contentType: "text/plain",
      ...(size === undefined ? {} : { contentLength: base64Length(size) })
    })
  }
  const disposition = document.fileName === undefined ? undefined : contentDisposition(document.fileName)
  return HttpServerResponse.stream(cut(document.stream), {
    contentType: typeof params.export_format === "string" ? params.export_format : document.contentType,
    ...(size === undefined ? {} : { contentLength: size }),
    ...(disposition === undefined ? {} : { headers: { "content-disposition": disposition } })
  })
}
