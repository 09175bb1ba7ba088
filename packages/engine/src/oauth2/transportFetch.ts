import { Cause, type Context, Exit, Option, Runtime } from "effect"
import type * as oauth from "oauth4webapi"
import type { ProviderRequest, ProviderResponse, ProviderTransport, ProviderTransportError } from "../ProviderTransport.js"
import { isParsedBody, NULL_BODY_STATUSES, responseBodyText } from "../run/http/fetchResponseBody.js"

/** The transport failed (`ProviderTransportError`): what `transportFetch` rejects with instead of a `TypeError`. */
export class TransportFailure extends Error {
  constructor(readonly failure: ProviderTransportError) {
    super(failure.message)
    this.name = "TransportFailure"
  }
}

type CustomFetch = (url: string, options: oauth.CustomFetchOptions<"POST", URLSearchParams>) => Promise<Response>

/** Headers oauth4webapi sets that the transport sets itself (the form's type) or chooses (the agent). */
const DROPPED_REQUEST_HEADERS = new Set(["content-type", "content-length", "user-agent"])

/**
 * oauth4webapi's `customFetch` over the `ProviderTransport`, as `mcpFetch` is for the MCP SDK:
 * token requests go where every provider call goes, so the outbound policy, rate limits,
 * request recording and redaction apply.
 *
 * - The form body goes out as `{ _tag: "Form" }`, with oauth4webapi's `accept` and (for
 *   `client_secret_basic`) `authorization` headers; `secrets` (client secret, code, verifier,
 *   refresh token) travel in `ProviderRequest.secrets`, with the Basic credentials' encoding.
 * - The answer, which the transport reads whole, comes back as a `Response`: parsed JSON
 *   re-serialized as `application/json` (the transport parsed it, whatever its label), text as
 *   it came, with the provider's other headers (`www-authenticate` matters to oauth4webapi).
 * - A transport failure rejects with `TransportFailure`; `options.signal` interrupts the call.
 */
export const transportFetch = (
  transport: Context.Tag.Service<typeof ProviderTransport>,
  runtime: Runtime.Runtime<never>,
  secrets: ReadonlyArray<string>
): CustomFetch =>
async (url, options) => {
  options.signal?.throwIfAborted()
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(options.headers)) {
    const lower = name.toLowerCase()
    if (!DROPPED_REQUEST_HEADERS.has(lower)) headers[lower] = value
  }
  const basic = /^basic\s+(\S+)$/i.exec(headers.authorization ?? "")?.[1]
  const request: ProviderRequest = {
    method: "POST",
    url,
    headers,
    body: { _tag: "Form", value: Object.fromEntries(options.body) },
    secrets: basic === undefined ? [...secrets] : [...secrets, basic]
  }
  const exit = await Runtime.runPromiseExit(runtime)(transport.send(request), options.signal ? { signal: options.signal } : {})
  if (Exit.isSuccess(exit)) return toResponse(exit.value)
  if (options.signal?.aborted) throw options.signal.reason
  const failure = Cause.failureOption(exit.cause)
  if (Option.isSome(failure)) throw new TransportFailure(failure.value)
  throw Cause.squash(exit.cause)
}

/** Describe the bytes as they were on the wire, not as we hand them on. */
const DROPPED_RESPONSE_HEADERS = new Set(["content-length", "content-encoding", "transfer-encoding", "content-type"])

const toResponse = (answer: ProviderResponse): Response => {
  const headers = new Headers()
  let contentType: string | undefined
  for (const [name, value] of Object.entries(answer.headers)) {
    const lower = name.toLowerCase()
    if (lower === "content-type") contentType = value
    if (DROPPED_RESPONSE_HEADERS.has(lower)) continue
    try {
      headers.append(lower, value)
    } catch {
      // a header value fetch would not accept: oauth4webapi reads none but www-authenticate
    }
  }
  const body = answer.body
  if (isParsedBody(body)) contentType = "application/json"
  if (contentType !== undefined) headers.set("content-type", contentType)
  if (NULL_BODY_STATUSES.has(answer.status)) return new Response(null, { status: answer.status, headers })
  return new Response(responseBodyText(body), { status: answer.status, headers })
}
