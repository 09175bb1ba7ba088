import { FetchHttpClient, HttpClient, HttpClientError, HttpClientRequest } from "@effect/platform"
import type { HttpClientResponse } from "@effect/platform"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js"
import {
  ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCResultResponse,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS
} from "@modelcontextprotocol/sdk/types.js"
import { mcpInitializeParams } from "@switchyard/engine"
import { Clock, Data, Deferred, Duration, Effect, Option, Schema, Stream } from "effect"
import { checkOutboundUrl } from "../Provider/OutboundUrlGuard.js"
import { makeHttpClientFetch } from "./HttpClientFetch.js"

/**
 * Probes an MCP server over Streamable HTTP before a connector is created for it: does it
 * answer `initialize`, and does it need no auth, a static token, or OAuth (RFC 9728)? It
 * speaks MCP through the SDK's `Client` and `StreamableHTTPClientTransport`, whose `fetch`
 * is the outbound HTTP client's.
 */

export interface McpProbeResult {
  readonly auth: "none" | "token" | "oauth"
  readonly serverName?: string
  readonly serverVersion?: string
  readonly protocolVersion?: string
  readonly resourceMetadataUrl?: string
  readonly authorizationServers?: ReadonlyArray<string>
}

export type McpProbeFailureReason = "unreachable" | "timeout" | "http_status" | "not_mcp" | "too_large"

export class McpProbeFailed extends Data.TaggedError("McpProbeFailed")<{
  readonly message: string
  readonly reason: McpProbeFailureReason
  readonly status?: number
}> {}

export interface McpProbeOptions {
  /** Bound on the whole probe; 10 seconds by default. */
  readonly timeout?: Duration.DurationInput
  /**
   * Operator allowlist used to vet a protected-resource metadata URL on another origin than
   * the probed server (a 401 challenge could point anywhere).
   */
  readonly allowlist?: ReadonlyArray<string>
}

const DEFAULT_TIMEOUT = Duration.seconds(10)
const MAX_BODY_BYTES = 1024 * 1024
const MAX_METADATA_BYTES = 64 * 1024
const METADATA_TIMEOUT = Duration.seconds(3)
const COURTESY_TIMEOUT = Duration.seconds(2)
const MAX_TEXT = 200

// Connector naming -----------------------------------------------------------------------------

/** A connector key (`^[a-z0-9_-]{1,100}$`) derived from a display title. */
export const connectorKeyFromTitle = (title: string): string => {
  const key = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 100)
    .replace(/_+$/, "")
  return key === "" ? "mcp" : key
}

export const defaultTitle = (result: McpProbeResult, url: URL): string => result.serverName ?? url.hostname

// Helpers ------------------------------------------------------------------------------------

/** What error messages show of a URL: never its query (it may carry a key). */
const displayUrl = (url: URL) => `${url.origin}${url.pathname}`

const clip = (text: string) => text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}...` : text

const mediaType = (contentType: string | null | undefined) => (contentType ?? "").split(";")[0]!.trim().toLowerCase()

const errorCode = (cause: unknown): string | undefined => {
  // Node errors carry `code`; fetch wraps them as `TypeError("fetch failed", {cause})`.
  for (let current = cause, depth = 0; current instanceof Object && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === "string") return code
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

const CONNECT_ERRORS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "connection timed out",
  UND_ERR_CONNECT_TIMEOUT: "connection timed out",
  UND_ERR_SOCKET: "connection closed"
}

/**
 * A request or body that failed underway: an `HttpClientError`, or the `fetch failed`
 * `TypeError` wrapping one (see `HttpClientFetch`).
 */
const transportFailure = (where: string) => (failure: unknown): McpProbeFailed => {
  const error = failure instanceof TypeError && HttpClientError.isHttpClientError(failure.cause)
    ? failure.cause
    : failure
  const cause = HttpClientError.isHttpClientError(error) ? error.cause : error
  const code = errorCode(cause)
  const detail = code === undefined
    ? clip(
      (cause instanceof Error ? cause.message : HttpClientError.isHttpClientError(error) ? error.reason : String(cause))
        .split("\n")[0]!
    )
    : CONNECT_ERRORS[code] ?? (/CERT|SSL|TLS/.test(code) ? `TLS certificate problem (${code})` : code)
  return HttpClientError.isHttpClientError(error) && error._tag === "ResponseError"
    ? new McpProbeFailed({ reason: "unreachable", message: `${where}: the response broke off (${detail})` })
    : new McpProbeFailed({ reason: "unreachable", message: `cannot reach ${where}: ${detail}` })
}

const tooLarge = (where: string, max: number) =>
  new McpProbeFailed({ reason: "too_large", message: `${where}: the response is larger than ${max} bytes` })

/** Fails once a body grows beyond `max` bytes instead of buffering it all. */
const limitBytes = <E>(stream: Stream.Stream<Uint8Array, E>, max: number, where: string) =>
  Stream.mapAccumEffect(stream, 0, (total, chunk) =>
    total + chunk.length > max
      ? Effect.fail(tooLarge(where, max))
      : Effect.succeed([total + chunk.length, chunk] as const))

const readText = (response: HttpClientResponse.HttpClientResponse, max: number, where: string) =>
  limitBytes(response.stream, max, where).pipe(
    Stream.decodeText(),
    Stream.runFold("", (text, part) => text + part),
    Effect.mapError((error) => error._tag === "McpProbeFailed" ? error : transportFailure(where)(error))
  )

/** Reads and drops what is left of a body, so the connection is not left half-read. */
const discard = (response: HttpClientResponse.HttpClientResponse) =>
  Stream.runDrain(limitBytes(response.stream, MAX_METADATA_BYTES, "")).pipe(Effect.ignore)

const parseJson = (text: string): Option.Option<unknown> => {
  try {
    return Option.some(JSON.parse(text) as unknown)
  } catch {
    return Option.none()
  }
}

// OAuth discovery (RFC 9728) -----------------------------------------------------------------

/** `resource_metadata` from a `WWW-Authenticate` challenge, resolved against the server URL. */
const resourceMetadataFromChallenge = (challenge: string, base: URL): URL | undefined => {
  const match = /(?:^|[\s,])resource_metadata\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,"]+))/i.exec(challenge)
  const value = match?.[1]?.replace(/\\(.)/g, "$1") ?? match?.[2]
  if (value === undefined) return undefined
  try {
    const url = new URL(value, base)
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined
  } catch {
    return undefined
  }
}

/** The well-known locations: path-specific first (RFC 9728 section 3.1), then the root. */
const wellKnownMetadataUrls = (url: URL): ReadonlyArray<URL> => {
  const path = url.pathname.replace(/\/+$/, "")
  const root = new URL("/.well-known/oauth-protected-resource", url.origin)
  return path === "" ? [root] : [new URL(`/.well-known/oauth-protected-resource${path}`, url.origin), root]
}

const ProtectedResourceMetadata = Schema.Struct({
  authorization_servers: Schema.optional(Schema.Array(Schema.Unknown))
})

/** Protected-resource metadata, or none when it is missing, odd, slow or not allowed. */
const fetchMetadata = (client: HttpClient.HttpClient, metadataUrl: URL, server: URL, allowlist: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    // Another origin than the probed server is vetted like any user-supplied URL.
    if (metadataUrl.origin !== server.origin) yield* checkOutboundUrl(metadataUrl.href, allowlist)
    const response = yield* client.execute(
      HttpClientRequest.get(metadataUrl).pipe(HttpClientRequest.setHeader("accept", "application/json"))
    )
    if (response.status !== 200) {
      yield* discard(response)
      return Option.none()
    }
    const text = yield* readText(response, MAX_METADATA_BYTES, displayUrl(metadataUrl))
    return Option.flatMap(parseJson(text), Schema.decodeUnknownOption(ProtectedResourceMetadata))
  }).pipe(
    Effect.timeout(METADATA_TIMEOUT),
    Effect.orElseSucceed(() => Option.none())
  )

const authorizationServersOf = (metadata: typeof ProtectedResourceMetadata.Type) =>
  (metadata.authorization_servers ?? []).filter((item): item is string => typeof item === "string").map(clip)

/** What a 401 says about the server's auth: its challenge, then protected-resource metadata. */
const classifyUnauthorized = (
  client: HttpClient.HttpClient,
  challenge: string,
  url: URL,
  allowlist: ReadonlyArray<string>
): Effect.Effect<McpProbeResult> =>
  Effect.gen(function*() {
    const declared = resourceMetadataFromChallenge(challenge, url)
    if (declared !== undefined) {
      const metadata = yield* fetchMetadata(client, declared, url, allowlist)
      const servers = Option.map(metadata, authorizationServersOf).pipe(Option.filter((list) => list.length > 0))
      return {
        auth: "oauth",
        resourceMetadataUrl: declared.href,
        ...Option.match(servers, { onNone: () => ({}), onSome: (authorizationServers) => ({ authorizationServers }) })
      } satisfies McpProbeResult
    }
    // Servers that predate the header may still publish metadata at the well-known location.
    for (const candidate of wellKnownMetadataUrls(url)) {
      const metadata = yield* fetchMetadata(client, candidate, url, allowlist)
      const servers = Option.map(metadata, authorizationServersOf).pipe(Option.getOrElse(() => []))
      if (servers.length > 0) return { auth: "oauth", resourceMetadataUrl: candidate.href, authorizationServers: servers }
    }
    return { auth: "token" } satisfies McpProbeResult
  })

// The initialize exchange -------------------------------------------------------------------

/**
 * What the probe saw of its `initialize` exchange, beside the SDK: the HTTP answer (status,
 * headers), the JSON-RPC answer as the server sent it, and the first failure the probe's own
 * checks found (body too large, connection lost, redirect, no answer). The SDK reports some
 * of these only as a request that never completes, or with less detail, so the probe fails
 * on `failed` as soon as it is set.
 */
class Exchange {
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
 * A body read through, at most `max` bytes (beyond, it errors with `tooLarge()`), with
 * `onError` told why it broke off and `tail` appended when it ends.
 */
const guardBody = (source: ReadableStream<Uint8Array>, options: {
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
const probeFetch = (fetch: FetchLike, exchange: Exchange): FetchLike => async (input, init) => {
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
class ProbeTransport extends StreamableHTTPClientTransport {
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

// Probe --------------------------------------------------------------------------------------

type Outcome =
  | { readonly _tag: "Initialized"; readonly result: McpProbeResult }
  | { readonly _tag: "Unauthorized"; readonly result: McpProbeResult }

const statusFailure = (where: string, status: number, location: string | null): McpProbeFailed => {
  const detail = status >= 300 && status < 400
    ? `redirects${location === null ? "" : ` to ${clip(location.split("?")[0]!)}`}; use the final URL`
    : status === 404
    ? "not found; check the path of the MCP endpoint (often /mcp)"
    : status === 403
    ? "access forbidden"
    : status >= 500
    ? "server error"
    : "not an MCP Streamable HTTP endpoint"
  return new McpProbeFailed({ reason: "http_status", status, message: `${where} answered HTTP ${status}: ${detail}` })
}

const timeoutFailure = (where: string, timeout: Duration.Duration) =>
  new McpProbeFailed({ reason: "timeout", message: `${where} did not answer within ${Duration.format(timeout)}` })

const notMcp = (message: string) => new McpProbeFailed({ reason: "not_mcp", message })

interface SchemaIssues {
  readonly issues: ReadonlyArray<{ readonly message?: unknown; readonly path?: unknown }>
}

/** The SDK's schema errors (zod's), without depending on zod. */
const isZodError = (error: unknown): error is SchemaIssues =>
  error instanceof Error && Array.isArray((error as { issues?: unknown }).issues)

/** The first schema issue, as ` (path: message)`. */
const issueOf = (error: unknown) => {
  const issue = isZodError(error) ? error.issues[0] : undefined
  if (issue === undefined) return ""
  const path = Array.isArray(issue.path) ? issue.path.join(".") : ""
  return ` (${clip(`${path === "" ? "" : `${path}: `}${String(issue.message)}`)})`
}

/**
 * Why `client.connect` failed, in the probe's terms: what the probe noted first, else the
 * SDK's error (`StreamableHTTPError` for HTTP, `McpError` for JSON-RPC and timeouts, schema
 * errors for what is not MCP) read with the answer the server sent.
 */
const failureOf = (error: unknown, exchange: Exchange, timeout: Duration.Duration): McpProbeFailed | "unauthorized" => {
  const where = exchange.where
  if (exchange.failure !== undefined) return exchange.failure
  if (error instanceof McpProbeFailed) return error
  if (error instanceof StreamableHTTPError) {
    const status = error.code ?? -1
    if (status === 401) return "unauthorized"
    const headers = exchange.response?.headers
    if (status > 0) return statusFailure(where, status, headers?.get("location") ?? null)
    const type = mediaType(headers?.get("content-type"))
    return notMcp(
      `${where} is not an MCP endpoint: it answered with ${type === "" ? "no content type" : clip(type)}, ` +
        "not JSON or an event stream"
    )
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return timeoutFailure(where, timeout)
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    return new McpProbeFailed({
      reason: "unreachable",
      message: `${where}: the connection closed before initialize was answered`
    })
  }
  const answer = exchange.answer
  if (error instanceof McpError || (answer !== undefined && "error" in answer)) {
    // The server's own words when the probe saw them; the SDK's message prefixes them.
    const [code, text] = answer !== undefined && "error" in answer
      ? [answer.error.code, answer.error.message]
      : [(error as McpError).code, (error as McpError).message.replace(/^MCP error -?\d+: /, "")]
    return notMcp(`${where} refused initialize: JSON-RPC error ${code}: ${clip(text)}`)
  }
  if (answer !== undefined) {
    const version = (answer.result as { protocolVersion?: unknown }).protocolVersion
    if (typeof version !== "string") return notMcp(`${where}: the initialize result has no protocolVersion`)
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      return notMcp(
        `${where} answered initialize with MCP version ${clip(version)}, which this client does not support`
      )
    }
    return notMcp(`${where}: the initialize result is not valid${issueOf(error)}`)
  }
  if (error instanceof SyntaxError) return notMcp(`${where}: the response is not valid JSON`)
  if (isZodError(error)) return notMcp(`${where}: the response is not a JSON-RPC answer to initialize`)
  const text = error instanceof Error ? error.message : String(error)
  return notMcp(`${where}: initialize failed: ${clip(text.split("\n")[0]!)}`)
}

/** A client and its transport for the probe's scope; closing the client closes the transport too. */
const openClient = (url: URL, fetch: FetchLike, exchange: Exchange) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const transport = new ProbeTransport(url, probeFetch(fetch, exchange), exchange)
      // Set before connecting, so the client's handler chains after it.
      transport.onmessage = exchange.observe
      const client = new Client(mcpInitializeParams.clientInfo, { capabilities: mcpInitializeParams.capabilities })
      return { client, transport }
    }),
    ({ client }) => Effect.promise(() => client.close().catch(() => undefined))
  )

/** The SDK's own request timeout, kept beyond the probe's so the probe's is the one that ends it. */
const sdkTimeoutMillis = (timeout: Duration.Duration) =>
  Math.min(Duration.toMillis(timeout) + 60_000, 2 ** 31 - 1)

const initialize = (
  http: HttpClient.HttpClient,
  session: { readonly client: Client; readonly transport: ProbeTransport },
  exchange: Exchange,
  url: URL,
  allowlist: ReadonlyArray<string>,
  timeout: Duration.Duration
): Effect.Effect<Outcome, McpProbeFailed> =>
  Effect.gen(function*() {
    const { client, transport } = session
    const started = yield* Clock.currentTimeMillis
    const connected = yield* Effect.tryPromise({
      // No abort signal: MCP forbids cancelling initialize; closing the client ends it.
      try: () => client.connect(transport, { timeout: sdkTimeoutMillis(timeout) }),
      catch: (error) => error
    }).pipe(
      Effect.raceFirst(Deferred.await(exchange.failed)),
      Effect.timeoutFail({ duration: timeout, onTimeout: () => timeoutFailure(exchange.where, timeout) }),
      Effect.either
    )
    // The client notes the version once it accepted the initialize result; what fails after
    // that (`notifications/initialized`) is a courtesy to the server, not the probe's answer.
    const server = client.getServerVersion()
    if (transport.protocolVersion !== undefined && server !== undefined) {
      const name = server.name.trim()
      const version = server.version.trim()
      return {
        _tag: "Initialized",
        result: {
          auth: "none",
          protocolVersion: clip(transport.protocolVersion),
          ...(name ? { serverName: clip(name) } : {}),
          ...(version ? { serverVersion: clip(version) } : {})
        }
      } satisfies Outcome
    }
    const failure = failureOf(connected._tag === "Left" ? connected.left : undefined, exchange, timeout)
    if (failure !== "unauthorized") return yield* failure
    // Looking for OAuth metadata takes what is left of the probe's time.
    const left = Duration.millis(Math.max(0, Duration.toMillis(timeout) - ((yield* Clock.currentTimeMillis) - started)))
    const challenge = exchange.response?.headers.get("www-authenticate") ?? ""
    const result = yield* classifyUnauthorized(http, challenge, url, allowlist).pipe(
      Effect.timeoutFail({ duration: left, onTimeout: () => timeoutFailure(exchange.where, timeout) })
    )
    return { _tag: "Unauthorized", result } satisfies Outcome
  })

/** Ends the session, when the server began one (DELETE); its answer does not matter. */
const endSession = (transport: ProbeTransport) =>
  transport.sessionId === undefined
    ? Effect.void
    : Effect.tryPromise(() => transport.terminateSession()).pipe(Effect.timeout(COURTESY_TIMEOUT), Effect.ignore)

/**
 * Sends MCP `initialize` to a Streamable HTTP endpoint through the SDK's client and reports
 * how it authenticates. Requests go through the `HttpClient` in context (the outbound one,
 * whose connections check the address they reach). Redirects are not followed (with the
 * fetch client too), so a vetted URL cannot bounce the probe elsewhere; the URL itself
 * should have passed `checkOutboundUrl` first.
 */
export const probeMcpServer = (
  url: URL,
  options?: McpProbeOptions
): Effect.Effect<McpProbeResult, McpProbeFailed, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const http = yield* HttpClient.HttpClient
    const fetch = yield* makeHttpClientFetch
    const timeout = Duration.decode(options?.timeout ?? DEFAULT_TIMEOUT)
    const exchange = new Exchange(displayUrl(url), yield* Deferred.make<never, McpProbeFailed>())
    return yield* Effect.scoped(Effect.gen(function*() {
      const session = yield* openClient(url, fetch, exchange)
      const outcome = yield* initialize(http, session, exchange, url, options?.allowlist ?? [], timeout)
      if (outcome._tag === "Initialized") yield* endSession(session.transport)
      return outcome.result
    }))
  }).pipe(withoutRedirects)

function withoutRedirects<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> {
  return Effect.flatMap(
    Effect.serviceOption(FetchHttpClient.RequestInit),
    (init) =>
      Effect.provideService(effect, FetchHttpClient.RequestInit, {
        ...Option.getOrElse(init, () => ({})),
        redirect: "manual"
      })
  )
}
