import { Context, Data, type Effect, type Stream } from "effect"

/** One HTTP call to a provider, fully resolved (absolute URL, auth applied). */
export interface ProviderRequest {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD"
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?:
    | { readonly _tag: "Json"; readonly value: unknown }
    | { readonly _tag: "Form"; readonly value: Readonly<Record<string, string>> }
    | { readonly _tag: "Bytes"; readonly value: Uint8Array; readonly contentType: string }
    | undefined
  /**
   * `json` (default) parses JSON and falls back to text; `bytes` reads a file whole; `stream`
   * answers a 2xx body as a `StreamedBody` read from the socket as it is consumed (other
   * statuses are read bounded and parsed like `json`, so provider error messages survive).
   */
  readonly responseType?: "json" | "bytes" | "stream" | undefined
  /**
   * The URL came from provider data and names another host than the connector's (a download
   * link): it is sent bare and may only reach public addresses, whatever the allowlist.
   */
  readonly foreign?: boolean | undefined
  /** Values that must never appear in a capture, a log line or an error (credential values). */
  readonly secrets: ReadonlyArray<string>
}

export interface ProviderResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /**
   * Parsed JSON, text when the body is not JSON, `Uint8Array` for `responseType: "bytes"`,
   * `StreamedBody` for a 2xx answer to `responseType: "stream"`.
   */
  readonly body: unknown
}

/**
 * A provider body not read yet: the bytes arrive as `stream` is run (once). Running it to its
 * end, failing or interrupting it releases the connection. Never buffered by the transport;
 * its summary stands in for it wherever calls are shown or logged.
 */
export class StreamedBody {
  readonly _tag = "StreamedBody"
  constructor(
    readonly stream: Stream.Stream<Uint8Array, ProviderTransportError>,
    /** The provider's Content-Length, when it sent one. */
    readonly contentLength: number | undefined
  ) {}
  toJSON(): string {
    return this.contentLength === undefined ? "<stream>" : `<stream of ${this.contentLength} bytes>`
  }
}

/**
 * The call failed without a usable HTTP answer (after whatever retries the transport does):
 * `timeout` (our deadline), `unreachable` (connection errors), `too_large` (response bound),
 * `rate_limited` (the provider kept answering 429), `unavailable` (kept answering 5xx),
 * `invalid_response` (a 2xx body that is not what it claims to be, or that cannot be mapped).
 */
export class ProviderTransportError extends Data.TaggedError("ProviderTransportError")<{
  readonly reason: "timeout" | "unreachable" | "too_large" | "rate_limited" | "unavailable" | "invalid_response"
  readonly message: string
  readonly url: string
  /** Seconds after which a retry may succeed, when known (Retry-After). */
  readonly retryAfter?: number | undefined
  /** The last response, when there was one (429/5xx after retries). */
  readonly response?: ProviderResponse | undefined
}> {}

/**
 * How the engine reaches providers. The server supplies a live implementation (HTTP with
 * retries, rate limits and raw capture) per run; engine tests supply their own.
 * Responses of any status are returned; non-2xx handling is the engine's job.
 */
export class ProviderTransport extends Context.Tag("Switchyard/ProviderTransport")<ProviderTransport, {
  readonly send: (request: ProviderRequest) => Effect.Effect<ProviderResponse, ProviderTransportError>
}>() {}
