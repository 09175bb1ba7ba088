import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js"
import { isJSONRPCRequest } from "@modelcontextprotocol/sdk/types.js"
import { Cause, Exit, FiberId, Runtime } from "effect"
import type { StepPlan } from "../../actionPlan.js"
import type { ProviderResponse } from "../../ProviderTransport.js"
import type { RunFailure } from "../../RunErrors.js"
import type { BuiltRequest } from "../http/BuiltRequest.js"
import { isParsedBody, NULL_BODY_STATUSES, responseBodyText } from "../http/fetchResponseBody.js"
import { sendRequest } from "../http/sendRequest.js"
import type { RunState } from "../RunState.js"
import { header, isSuccess } from "../wireValues.js"
import { type McpExchange, mediaType, streamEnd } from "./McpExchange.js"

/**
 * The WHATWG `fetch` the SDK's transport uses for the `mcp_request` step: every request goes
 * through the run's `sendRequest`, so the step keeps what any provider call has (the
 * connector's authentication, a new token on 401, `maxResponseBytes`, `run.answered`, and the
 * transport's rate-limit slots, retries, redaction and raw capture).
 *
 * - The SDK's JSON body goes out as `{ _tag: "Json" }` (raw capture shows the message), with
 *   the SDK's headers (accept, content-type, mcp-session-id, mcp-protocol-version).
 * - The answer is read whole by the transport and handed back as a `Response`: parsed JSON
 *   re-serialized, text and event streams as they came, with their content type and
 *   `mcp-session-id` (never `location`: no redirect is followed). An event stream answering a
 *   request ends with `streamEnd`.
 * - No GET stream: the SDK opens one after `notifications/initialized` when the server offers
 *   it; the step hangs up after its call, so this answers for the server as one without a
 *   stream does (405), and nothing is sent.
 * - A message that expects no answer (a notification, the client's answer to a server's
 *   request) has its refusal passed on as 202 Accepted: the step never read those answers.
 * - A typed failure of `sendRequest` is noted in `exchange` (the SDK rethrows it as its own
 *   error), then the fetch rejects as fetch does (`TypeError("fetch failed")`).
 */
export const mcpFetch = (
  run: RunState,
  step: StepPlan,
  exchange: McpExchange,
  runtime: Runtime.Runtime<never>
): FetchLike =>
async (input, init) => {
  const signal = init?.signal ?? undefined
  signal?.throwIfAborted()
  const method = (init?.method ?? "GET").toUpperCase()
  if (method === "GET") return new Response(null, { status: 405, headers: { allow: "POST" } })
  if (method !== "POST" && method !== "DELETE") throw new TypeError(`the mcp_request step does not send ${method}`)
  const message: unknown = typeof init?.body === "string" ? JSON.parse(init.body) : undefined
  const built: BuiltRequest = {
    method,
    url: new URL(input),
    headers: Object.fromEntries(new Headers(init?.headers)),
    body: message === undefined ? undefined : { _tag: "Json", value: message }
  }
  const exit = await send(exchange, runtime, sendRequest(run, step, built), signal)
  if (Exit.isFailure(exit)) {
    if (signal?.aborted) throw signal.reason
    if (!Cause.isInterruptedOnly(exit.cause)) exchange.fail(exit.cause)
    throw new TypeError("fetch failed", { cause: Cause.squash(exit.cause) })
  }
  const request = isJSONRPCRequest(message) ? message : undefined
  if (request !== undefined) exchange.response = exit.value
  return toResponse(exit.value, request?.id)
}

/** Runs one provider call as a fiber of its own, noted in `exchange` until it ends; `signal` interrupts it. */
const send = (
  exchange: McpExchange,
  runtime: Runtime.Runtime<never>,
  effect: ReturnType<typeof sendRequest>,
  signal: AbortSignal | undefined
) =>
  new Promise<Exit.Exit<ProviderResponse, RunFailure>>((resolve) => {
    const fiber = Runtime.runFork(runtime)(effect)
    exchange.inflight.add(fiber)
    const onAbort = () => fiber.unsafeInterruptAsFork(FiberId.none)
    signal?.addEventListener("abort", onAbort, { once: true })
    fiber.addObserver((exit) => {
      exchange.inflight.delete(fiber)
      signal?.removeEventListener("abort", onAbort)
      resolve(exit)
    })
  })


/** The provider's answer to the request `id` (none: a message that expects no answer) for the SDK. */
const toResponse = (answer: ProviderResponse, id: string | number | undefined): Response => {
  if (id === undefined && !isSuccess(answer.status)) return new Response(null, { status: 202 })
  const headers = new Headers()
  const body = answer.body
  const given = header(answer.headers, "content-type")
  // A body the transport parsed is JSON whatever it was labelled (the step read it so before).
  const type = isParsedBody(body) && mediaType(given) !== "text/event-stream" ? "application/json" : given
  if (type !== undefined) headers.set("content-type", type)
  const session = header(answer.headers, "mcp-session-id")
  if (session !== undefined) headers.set("mcp-session-id", session)
  if (NULL_BODY_STATUSES.has(answer.status)) return new Response(null, { status: answer.status, headers })
  let text = responseBodyText(body)
  if (id !== undefined && isSuccess(answer.status) && mediaType(type) === "text/event-stream") text += streamEnd(id)
  return new Response(text, { status: answer.status, headers })
}
