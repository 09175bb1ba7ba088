import {
  ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCResultResponse,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCResultResponse,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS
} from "@modelcontextprotocol/sdk/types.js"
import { Cause, Deferred, Effect, type Fiber } from "effect"
import type { StepPlan } from "../../actionPlan.js"
import { type ProviderResponse, ProviderTransportError } from "../../ProviderTransport.js"
import type { ActionError, RunFailure } from "../../RunErrors.js"
import { httpError } from "../http/providerAnswers.js"
import { header, isRecord, isSuccess } from "../wireValues.js"

const MAX_TEXT = 200

const clip = (text: string) => text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}...` : text

export const mediaType = (contentType: string | undefined) => (contentType ?? "").split(";")[0]!.trim().toLowerCase()

/**
 * The end of an event stream answering the request `id`, marked with a notification of the
 * step's own: the SDK leaves a request pending when its stream ends without the answer (it
 * resumes only streams whose events carry ids, over GET, which the step declines), so the
 * exchange watches for this message, which the SDK's parser hands over after every event
 * before it. It names its request, as it may be read after the next request has begun. The
 * blank lines first close an event the server left unterminated; the client ignores the
 * notification (no handler).
 */
const STREAM_END_METHOD = "notifications/switchyard/stream_end"
export const streamEnd = (id: string | number) =>
  `\n\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: STREAM_END_METHOD, params: { requestId: id } })}\n\n`

/** A JSON-RPC error in a body as the transport parsed it: one message or a batch, for `id` (or none). */
const rpcErrorIn = (body: unknown, id: string | number | undefined): Record<string, unknown> | undefined => {
  for (const message of Array.isArray(body) ? body : [body]) {
    if (!isRecord(message) || !isRecord(message.error)) continue
    if (message.id === undefined || message.id === null || (id !== undefined && Number(message.id) === Number(id))) {
      return message.error
    }
  }
  return undefined
}

/** The SDK's schema errors (zod's) carry `issues`; the first one, as ` (path: message)`. */
const issueOf = (error: unknown) => {
  const issues = error instanceof Error ? (error as { issues?: unknown }).issues : undefined
  const issue: unknown = Array.isArray(issues) ? issues[0] : undefined
  if (!isRecord(issue)) return ""
  const path = Array.isArray(issue.path) ? issue.path.join(".") : ""
  return ` (${clip(`${path === "" ? "" : `${path}: `}${String(issue.message)}`)})`
}

/**
 * What the `mcp_request` step sees of its exchange with an MCP server beside the SDK's
 * client: the HTTP answer to the request under way, the JSON-RPC answer to it as the server
 * sent it, and the first failure, which ends the step at once. The SDK rethrows a failed
 * fetch as its own error, swallows what goes wrong reading an event stream, leaves a request
 * pending when its answer never comes, and puts the server's text in its messages; so the
 * step fails on what it noted here: the typed error `sendRequest` failed with, or the
 * provider's answer read as the step read it before the SDK (`failureOf`).
 */
export class McpExchange {
  /** The JSON-RPC method of the request under way, as the step's errors name it. */
  method = "initialize"
  requestId: string | number | undefined = undefined
  /** The provider's answer to the request under way, once it came. */
  response: ProviderResponse | undefined = undefined
  answer: JSONRPCResultResponse | JSONRPCErrorResponse | undefined = undefined
  failure: Cause.Cause<RunFailure> | undefined = undefined
  /** Provider calls under way (each a fiber of `sendRequest`), interrupted when the client closes. */
  readonly inflight = new Set<Fiber.RuntimeFiber<ProviderResponse, RunFailure>>()

  constructor(
    readonly step: StepPlan,
    /** The server's URL, as the step's errors show it. */
    readonly url: string,
    /** The run's redaction, for the errors that do not pass the run's boundary redacted (`ProviderTransportError`). */
    readonly redact: (text: string) => string,
    readonly failed: Deferred.Deferred<never, RunFailure>
  ) {}

  static make = (step: StepPlan, url: string, redact: (text: string) => string) =>
    Effect.map(Deferred.make<never, RunFailure>(), (failed) => new McpExchange(step, url, redact, failed))

  /** Notes the first failure (later ones are consequences) and ends the step with it. */
  fail(cause: Cause.Cause<RunFailure>) {
    if (this.failure !== undefined) return
    this.failure = cause
    Deferred.unsafeDone(this.failed, Effect.failCause(cause))
  }

  /** The transport is about to send a request. */
  begin(id: string | number) {
    this.requestId = id
    this.response = undefined
    this.answer = undefined
  }

  /**
   * The transport sent a request and read its answer, unless that is an event stream (read
   * on after `send` returns, up to `streamEnd`): without the response to the request by now,
   * none will come.
   */
  sent() {
    const response = this.response
    if (response === undefined || this.answer !== undefined) return
    if (mediaType(header(response.headers, "content-type")) === "text/event-stream" && isSuccess(response.status)) return
    this.fail(Cause.fail(this.failureOf(undefined)))
  }

  /** Watches every message the transport hands the client (it runs before the client's handler). */
  readonly observe = (message: JSONRPCMessage) => {
    if (isJSONRPCNotification(message) && message.method === STREAM_END_METHOD) {
      if (this.answer === undefined && message.params?.requestId === this.requestId) this.fail(Cause.fail(this.failureOf(undefined)))
      return
    }
    // Ids compare as numbers, as the SDK matches them.
    if (
      (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) &&
      this.requestId !== undefined && Number(message.id) === Number(this.requestId)
    ) this.answer = message
  }

  /**
   * Runs one call of the SDK's client for `method`; fails with the failure noted first, as
   * soon as it is noted, else with what `failureOf` reads in the answer.
   */
  call<A>(method: string, sdkCall: () => Promise<A>): Effect.Effect<A, RunFailure> {
    return Effect.suspend(() => {
      this.method = method
      return Effect.tryPromise({ try: sdkCall, catch: (error) => error })
    }).pipe(
      Effect.raceFirst(Deferred.await(this.failed)),
      Effect.catchAll((error) =>
        this.failure !== undefined ? Effect.failCause(this.failure) : Effect.fail(this.failureOf(error))
      )
    )
  }

  /**
   * Why the request under way failed, from the provider's answer: a JSON-RPC error as the
   * server sent it (`MCP <method> failed: <message>`, its body the error), another non-2xx
   * status, or an answer that is not the response to the request, with the step's messages
   * of before the SDK; `error` is the SDK's own, for what only it knows (a result its schema
   * refused, a request it gave up on).
   */
  failureOf(error: unknown): ActionError {
    const { method, response, step, url } = this
    if (response === undefined) return this.unanswered(error)
    const answer = this.answer
    const rpcError = answer !== undefined && "error" in answer ? answer.error : rpcErrorIn(response.body, this.requestId)
    if (rpcError !== undefined) {
      const text = typeof rpcError.message === "string" ? rpcError.message : "error"
      return httpError(step, "POST", url, { ...response, body: rpcError }, `MCP ${method} failed: ${text}`)
    }
    if (!isSuccess(response.status)) return httpError(step, "POST", url, response, `MCP ${method}: provider answered ${response.status}`)
    if (answer !== undefined && "result" in answer) {
      // a result the SDK refused: the initialize result checked, any other by its schema
      const version = answer.result.protocolVersion
      if (method === "initialize" && typeof version !== "string") return this.invalid("the initialize result has no protocolVersion")
      if (method === "initialize" && !SUPPORTED_PROTOCOL_VERSIONS.includes(version as string)) {
        return this.invalid(`the server speaks MCP ${clip(String(version))}, which this client does not support`)
      }
      return this.invalid(`the ${method} result is not valid${issueOf(error)}`)
    }
    const body = response.body
    const text = typeof body === "string" ? body.trim() : undefined
    return this.invalid(
      body === null || body === undefined || text === ""
        ? `empty answer (status ${response.status})`
        : text === undefined
        ? "answer is not a JSON-RPC response to the request"
        : text.startsWith("{") || text.startsWith("[")
        ? "answer is not valid JSON"
        : "the event stream carried no response to the request"
    )
  }

  private invalid(reason: string) {
    return httpError(this.step, "POST", this.url, this.response!, `MCP ${this.method}: ${reason}`)
  }

  /** No answer to read: the SDK gave up on the request (its timeout is beyond the step's) or closed. */
  private unanswered(error: unknown) {
    const text = error instanceof Error ? error.message : String(error)
    return new ProviderTransportError({
      reason: error instanceof McpError && error.code === ErrorCode.RequestTimeout ? "timeout" : "invalid_response",
      message: this.redact(`MCP ${this.method} failed: ${clip(text.split("\n")[0]!)}`),
      url: this.redact(this.url)
    })
  }
}
