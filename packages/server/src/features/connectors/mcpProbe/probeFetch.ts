// The guarded fetch and transport the probe hands the SDK, and the Exchange in which they note what they saw.
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js"
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCResultResponse
} from "@modelcontextprotocol/sdk/types.js"
import { Deferred, Effect, Option } from "effect"
import { mediaType, parseJson } from "./clip.js"
import { guardBody, MAX_BODY_BYTES, MAX_METADATA_BYTES } from "./guardBody.js"
import { McpProbeFailed, statusFailure, tooLarge, transportFailure } from "./McpProbeFailed.js"

/**
 * What the probe saw of its `initialize` exchange, beside the SDK: the HTTP answer (status,
 * headers), the JSON-RPC answer as the server sent it, and the first failure the probe's own
 * checks found (body too large, connection lost, redirect, no answer). The SDK reports some
 * of these only as a request that never completes, or with less detail, so the probe fails
 * on `failed` as soon as it is set.
 */
export class Exchange {
  response: { readonly status: number; readonly headers: Headers } | undefined = undefined
  requestId: string | number | undefined = undefined
  answer: JSONRPCResultResponse | JSONRPCErrorResponse | undefined = undefined
  failure: McpProbeFailed | undefined = undefined

  constructor(readonly where: string, readonly failed: Deferred.Deferred<never, McpProbeFailed>) {}

  fail(failure: McpProbeFailed) {
    if (this.failure !== undefined) return
    this.failure = failure
    Deferred.unsafeDone(this.failed, Effect.fail(failure))
  }

  /** Watches every message the transport hands the client (it runs before the client's handler). */
  readonly observe = (message: JSONRPCMessage) => {
    if (isJSONRPCNotification(message) && message.method === STREAM_END_METHOD) {
      if (this.answer === undefined) {
        this.fail(
          new McpProbeFailed({
            reason: "not_mcp",
            message: `${this.where}: the event stream ended without an initialize result`
          })
        )
      }
      return
    }
    // Ids compare as numbers, as the SDK matches them.
    if (
      (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) &&
      this.requestId !== undefined && Number(message.id) === Number(this.requestId)
    ) this.answer = message
  }
}

/**
 * The end of the event stream that answers `initialize`, marked with a notification of the
 * probe's own: the SDK leaves a request pending when its stream ends without the answer
 * (it resumes only streams whose events carry ids, over GET, which the probe declines), so
 * the probe watches for this message, which the SDK's own parser hands over after every
 * event before it, and fails at once instead of at its timeout. The blank lines first close
 * an event the server left unterminated; the client ignores the notification (no handler).
 */
const STREAM_END_METHOD = "notifications/switchyard/probe_stream_end"
const STREAM_END = new TextEncoder().encode(
  `\n\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: STREAM_END_METHOD })}\n\n`
)

const isInitialize = (body: unknown) => {
  if (typeof body !== "string") return false
  const message = parseJson(body)
  return Option.isSome(message) && isJSONRPCRequest(message.value) && message.value.method === "initialize"
}

/**
 * The fetch the SDK's transport uses, over the outbound HTTP client, with the probe's rules:
 *
 * - No GET stream: the SDK opens one after `notifications/initialized` when the server
 *   offers it; the probe is about to hang up, so it answers for the server as one without a
 *   stream does (405), and nothing is sent.
 * - No redirect, not even within the origin (which the SDK would follow): a 3xx fails the
 *   request, so the user learns the URL to register instead.
 * - Bounded bodies: the answer to `initialize` up to `MAX_BODY_BYTES`, others (error pages)
 *   up to `MAX_METADATA_BYTES`.
 * - Failures of the `initialize` request, and its answer, are noted in `exchange`.
 */
export const probeFetch = (fetch: FetchLike, exchange: Exchange): FetchLike => async (input, init) => {
  const where = exchange.where
  const method = (init?.method ?? "GET").toUpperCase()
  if (method === "GET") return new Response(null, { status: 405, statusText: "Method Not Allowed" })
  const initializing = method === "POST" && isInitialize(init?.body)
  const note = <E extends McpProbeFailed>(failure: E): E => {
    if (initializing && init?.signal?.aborted !== true) exchange.fail(failure)
    return failure
  }
  let response: Response
  try {
    response = await fetch(input, init)
  } catch (error) {
    note(transportFailure(where)(error))
    throw error
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel().catch(() => undefined)
    throw note(statusFailure(where, response.status, response.headers.get("location")))
  }
  if (initializing) exchange.response = { status: response.status, headers: response.headers }
  if (response.body === null) return response
  const answer = initializing && response.ok
  const body = guardBody(response.body, {
    max: answer ? MAX_BODY_BYTES : MAX_METADATA_BYTES,
    tooLarge: () => answer ? note(tooLarge(where, MAX_BODY_BYTES)) : tooLarge(where, MAX_METADATA_BYTES),
    onError: (error) => answer ? note(transportFailure(where)(error)) : error,
    ...(answer && mediaType(response.headers.get("content-type")) === "text/event-stream" ? { tail: STREAM_END } : {})
  })
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
}

/**
 * The SDK's transport, noting the id of `initialize`; once a JSON answer to it (read whole
 * before `send` returns) has not carried the response, the SDK would wait for it in vain.
 */
export class ProbeTransport extends StreamableHTTPClientTransport {
  constructor(url: URL, fetch: FetchLike, private readonly exchange: Exchange) {
    super(url, { fetch })
  }

  override async send(message: JSONRPCMessage, options?: Parameters<StreamableHTTPClientTransport["send"]>[1]) {
    const initializing = isJSONRPCRequest(message) && message.method === "initialize"
    if (initializing) this.exchange.requestId = message.id
    await super.send(message, options)
    const type = mediaType(this.exchange.response?.headers.get("content-type"))
    if (initializing && this.exchange.answer === undefined && type !== "text/event-stream") {
      this.exchange.fail(
        new McpProbeFailed({
          reason: "not_mcp",
          message: `${this.exchange.where}: the response is not a JSON-RPC answer to initialize`
        })
      )
    }
  }
}
