import { NodeHttpServer } from "@effect/platform-node"
import {
  BadRequest,
  BadRequestBody,
  PayloadTooLarge,
  PayloadTooLargeBody,
  RequestHeaderFieldsTooLarge,
  RequestHeaderFieldsTooLargeBody,
  RequestTimeout,
  RequestTimeoutBody
} from "@switchyard/api"
import { Schema } from "effect"
import { createServer, type Server, STATUS_CODES } from "node:http"
import type { Socket } from "node:net"

/** The request line and headers together may not exceed this (Node's default, stated here). */
export const MAX_HEADER_BYTES = 16 * 1024

/** Node's parser answers a request it cannot parse itself; these are its cases, in our error shape. */
const clientErrorAnswer = (code: string | undefined) => {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return Schema.encodeSync(RequestHeaderFieldsTooLargeBody)(
        new RequestHeaderFieldsTooLarge({
          message: `The request line and headers are larger than the limit of ${MAX_HEADER_BYTES / 1024} KiB`
        })
      )
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return Schema.encodeSync(PayloadTooLargeBody)(new PayloadTooLarge({ message: "The chunk extensions are too large" }))
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return Schema.encodeSync(RequestTimeoutBody)(new RequestTimeout({ message: "The request was not received in time" }))
    default:
      return Schema.encodeSync(BadRequestBody)(new BadRequest({ message: "The request is not valid HTTP" }))
  }
}

/**
 * Replaces Node's default `clientError` answer (a status line with no body) with the error
 * body, under the same rule Node follows: only while no response has started on the socket.
 */
const answerClientError = (error: Error & { readonly code?: string }, socket: Socket) => {
  const responding = (socket as Socket & { readonly _httpMessage?: { readonly headersSent?: boolean } })._httpMessage
  if (error.code === "ECONNRESET" || !socket.writable || responding?.headersSent === true) {
    socket.destroy()
    return
  }
  const body = clientErrorAnswer(error.code)
  const text = JSON.stringify(body)
  socket.end(
    `HTTP/1.1 ${body.statusCode} ${STATUS_CODES[body.statusCode as number]}\r\n` +
      "Content-Type: application/json\r\n" +
      `Content-Length: ${Buffer.byteLength(text)}\r\n` +
      "Connection: close\r\n\r\n" +
      text
  )
}

/** Node's HTTP server with the header limit and client-error answers of Switchyard. */
export const makeNodeServer = (): Server => {
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES })
  server.on("clientError", answerClientError)
  return server
}

/** The HTTP server layer the real server and the test servers share. */
export const NodeServerLive = (options: { readonly port: number; readonly host?: string | undefined }) =>
  NodeHttpServer.layer(makeNodeServer, options)
