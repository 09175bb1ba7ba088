import { HttpServerResponse } from "@effect/platform"
import { DEFAULT_MAX_REQUEST_BODY_SIZE, requestBodyTooLargeMessage } from "@modelcontextprotocol/sdk/server/requestBody.js"
import { BadRequest, PayloadTooLarge } from "@switchyard/api"
import { Effect } from "effect"

/*
 * The `/mcp` POST body, read once before the SDK sees it: the SDK's transport would run up
 * to 100 batched calls at once and hold all their answers, while the current MCP spec
 * (2025-06-18) no longer has batches. A body with more than one request is refused here;
 * anything else goes on to the SDK as the same bytes (which answers malformed JSON itself).
 */

/** The SDK transport's own bound (4 MiB), kept: it checks it again on the bytes we hand on. */
const MAX_BODY_BYTES = DEFAULT_MAX_REQUEST_BODY_SIZE

/** A JSON-RPC error answer with no request id, as the SDK's transport answers its own refusals. */
export const jsonRpcError = (status: number, code: number, message: string) =>
  HttpServerResponse.unsafeJson({ jsonrpc: "2.0", id: null, error: { code, message } }, { status })

/** The body's bytes, or undefined when they exceed the bound (stops reading as soon as they do). */
const readCapped = async (request: Request): Promise<Uint8Array | undefined> => {
  if (Number(request.headers.get("content-length")) > MAX_BODY_BYTES) return undefined
  if (request.body === null) return new Uint8Array(0)
  const chunks: Array<Uint8Array> = []
  let received = 0
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    received += chunk.byteLength
    if (received > MAX_BODY_BYTES) return undefined
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

const isRequest = (message: unknown) =>
  typeof message === "object" && message !== null && "method" in message && "id" in message

/** How many JSON-RPC requests a batch body holds (0 for a single message or what is not JSON). */
const batchedRequests = (bytes: Uint8Array) => {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(bytes).toString("utf8"))
    return Array.isArray(parsed) ? parsed.filter(isRequest).length : 0
  } catch {
    return 0
  }
}

/**
 * The web request to hand the SDK (its body read once and passed on unchanged), or the
 * JSON-RPC refusal to answer instead (400 for a batch of requests); past the bound it fails
 * with 413 in the house error shape, as every endpoint does.
 */
export const checkedMcpRequest = (request: Request) =>
  Effect.gen(function*() {
    const bytes = yield* Effect.tryPromise({
      try: () => readCapped(request),
      catch: () => new BadRequest({ message: "The request body could not be read" })
    })
    if (bytes === undefined) return yield* new PayloadTooLarge({ message: requestBodyTooLargeMessage(MAX_BODY_BYTES) })
    if (batchedRequests(bytes) > 1) {
      return {
        refused: jsonRpcError(
          400,
          -32600,
          "Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18): send one request per POST"
        )
      } as const
    }
    return { request: new Request(request.url, { method: request.method, headers: request.headers, body: bytes }) } as const
  })
