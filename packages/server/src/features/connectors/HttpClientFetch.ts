import { HttpBody, HttpClient, HttpClientRequest } from "@effect/platform"
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js"
import { Cause, Effect, Exit, Runtime, Stream } from "effect"

/**
 * A WHATWG `fetch` over the Effect `HttpClient` in context, for libraries that take a
 * `fetch` (the MCP SDK's client transport). Requests go out through that client, so the
 * outbound one (`OutboundHttp`: undici with every address checked when connecting) applies
 * to them as to any other call.
 *
 * - Redirects are never followed, whatever `init.redirect` says: a 3xx comes back as it is.
 * - A failure to connect or send rejects with `TypeError("fetch failed", { cause })` as
 *   fetch does, the cause being the `HttpClientError`.
 * - `init.signal` aborts the request and, once it has answered, errors its body.
 * - Bodies: a string or bytes (what the SDK sends); anything else is refused.
 */
export const makeHttpClientFetch: Effect.Effect<FetchLike, never, HttpClient.HttpClient> = Effect.gen(function*() {
  const client = yield* HttpClient.HttpClient
  const runtime = yield* Effect.runtime<never>()
  const runExit = Runtime.runPromiseExit(runtime)

  return async (input, init) => {
    const signal = init?.signal ?? undefined
    signal?.throwIfAborted()
    const request = toRequest(input, init)
    const exit = await runExit(client.execute(request), signal === undefined ? undefined : { signal })
    if (Exit.isFailure(exit)) {
      if (signal?.aborted) throw signal.reason
      throw fetchFailed(Cause.squash(exit.cause))
    }
    const response = exit.value
    const headers = new Headers()
    for (const [name, value] of Object.entries(response.headers)) headers.append(name, value)
    if (response.status < 200 || response.status > 599) {
      throw fetchFailed(new Error(`invalid HTTP status ${response.status}`))
    }
    const body = NULL_BODY_STATUSES.has(response.status) ? null : Stream.toReadableStreamRuntime(
      response.stream.pipe(Stream.interruptWhen(aborted(signal))),
      runtime
    )
    return new Response(body, { status: response.status, headers })
  }
})

const NULL_BODY_STATUSES = new Set([204, 205, 304])

const fetchFailed = (cause: unknown) => new TypeError("fetch failed", { cause })

/** Fails with the signal's reason once it aborts (never, without a signal). */
const aborted = (signal: AbortSignal | undefined): Effect.Effect<never, unknown> =>
  signal === undefined ? Effect.never : Effect.async<never, unknown>((resume) => {
    const onAbort = () => resume(Effect.fail(signal.reason))
    if (signal.aborted) return onAbort()
    signal.addEventListener("abort", onAbort, { once: true })
    return Effect.sync(() => signal.removeEventListener("abort", onAbort))
  })

const toRequest = (input: string | URL, init: RequestInit | undefined): HttpClientRequest.HttpClientRequest => {
  const headers = new Headers(init?.headers)
  const method = (init?.method ?? "GET").toUpperCase() as HttpClientRequest.HttpClientRequest["method"]
  const request = HttpClientRequest.make(method)(input)
  const body = init?.body
  const withBody = body === undefined || body === null ? request : HttpClientRequest.setBody(
    request,
    typeof body === "string"
      ? HttpBody.text(body, headers.get("content-type") ?? "text/plain;charset=UTF-8")
      : body instanceof Uint8Array
      ? HttpBody.uint8Array(body, headers.get("content-type") ?? "application/octet-stream")
      : unsupportedBody()
  )
  return HttpClientRequest.setHeaders(withBody, Object.fromEntries(headers))
}

const unsupportedBody = (): never => {
  throw new TypeError("this fetch sends string or byte bodies only")
}
