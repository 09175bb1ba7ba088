import { FetchHttpClient, HttpClient, HttpClientRequest } from "@effect/platform"
import type { HttpClientError, HttpClientResponse } from "@effect/platform"
import { Chunk, Data, Duration, Effect, Option, Schema, Stream } from "effect"
import { MCP_PROTOCOL_VERSION, mcpInitializeParams, readSseLine } from "@switchyard/engine"
import { checkOutboundUrl } from "../Provider/OutboundUrlGuard.js"

/**
 * Probes an MCP server over Streamable HTTP before a connector is created for it: does it
 * answer `initialize`, and does it need no auth, a static token, or OAuth (RFC 9728)?
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

const INITIALIZE_ID = 1
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

const headerOf = (response: HttpClientResponse.HttpClientResponse, name: string): string | undefined =>
  response.headers[name.toLowerCase()]

const mediaType = (response: HttpClientResponse.HttpClientResponse) =>
  (headerOf(response, "content-type") ?? "").split(";")[0]!.trim().toLowerCase()

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

const transportFailure = (where: string) => (error: HttpClientError.HttpClientError): McpProbeFailed => {
  const code = errorCode(error.cause)
  const detail = code === undefined
    ? clip((error.cause instanceof Error ? error.cause.message : error.reason).split("\n")[0]!)
    : CONNECT_ERRORS[code] ?? (/CERT|SSL|TLS/.test(code) ? `TLS certificate problem (${code})` : code)
  return error._tag === "ResponseError"
    ? new McpProbeFailed({ reason: "unreachable", message: `${where}: the response broke off (${detail})` })
    : new McpProbeFailed({ reason: "unreachable", message: `cannot reach ${where}: ${detail}` })
}

/** Fails once a body grows beyond `max` bytes instead of buffering it all. */
const limitBytes = <E>(stream: Stream.Stream<Uint8Array, E>, max: number, where: string) =>
  Stream.mapAccumEffect(stream, 0, (total, chunk) =>
    total + chunk.length > max
      ? Effect.fail(
        new McpProbeFailed({ reason: "too_large", message: `${where}: the response is larger than ${max} bytes` })
      )
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

/** The data of each event in a `text/event-stream` body, read with the engine's event parser. */
const sseData = <E>(bytes: Stream.Stream<Uint8Array, E>) =>
  Stream.suspend(() => {
    const data: Array<string> = []
    return bytes.pipe(
      Stream.decodeText(),
      Stream.splitLines,
      // a closing blank line, so a last event without one still counts
      Stream.concat(Stream.make("")),
      Stream.filterMap((line) => Option.fromNullable(readSseLine(data, line)))
    )
  })

// JSON-RPC -----------------------------------------------------------------------------------

const JsonRpcResponse = Schema.Struct({
  jsonrpc: Schema.Literal("2.0"),
  id: Schema.Literal(INITIALIZE_ID),
  result: Schema.optional(Schema.Unknown),
  error: Schema.optional(Schema.Struct({ code: Schema.Number, message: Schema.String }))
})
type JsonRpcResponse = typeof JsonRpcResponse.Type

const InitializeResult = Schema.Struct({
  protocolVersion: Schema.String,
  serverInfo: Schema.optional(Schema.Struct({
    name: Schema.optional(Schema.String),
    version: Schema.optional(Schema.String)
  }))
})

const isInitializeResponse = Schema.is(JsonRpcResponse)

/** The answer to our `initialize` among one message or a batch. */
const findInitializeResponse = (json: unknown): Option.Option<JsonRpcResponse> =>
  Option.fromNullable((Array.isArray(json) ? json : [json]).find(isInitializeResponse))

const rpcHeaders = (protocolVersion: string, sessionId: string | undefined) => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": protocolVersion,
  ...(sessionId === undefined ? {} : { "mcp-session-id": sessionId })
})

const initializeRequest = (url: URL) =>
  HttpClientRequest.post(url).pipe(
    HttpClientRequest.setHeaders(rpcHeaders(MCP_PROTOCOL_VERSION, undefined)),
    HttpClientRequest.bodyUnsafeJson({
      jsonrpc: "2.0",
      id: INITIALIZE_ID,
      method: "initialize",
      params: mcpInitializeParams
    })
  )

/** The JSON-RPC answer to `initialize` from a JSON or an event-stream body. */
const readInitializeResponse = (response: HttpClientResponse.HttpClientResponse, where: string) =>
  Effect.gen(function*() {
    const type = mediaType(response)
    if (type === "text/event-stream") {
      // Stop at our answer: the server may keep the stream open after it.
      const found = yield* sseData(limitBytes(response.stream, MAX_BODY_BYTES, where)).pipe(
        Stream.map((data) => Option.flatMap(parseJson(data), findInitializeResponse)),
        Stream.filterMap((message) => message),
        Stream.take(1),
        Stream.runCollect,
        Effect.map(Chunk.head),
        Effect.mapError((error) => error._tag === "McpProbeFailed" ? error : transportFailure(where)(error))
      )
      return yield* Option.match(found, {
        onNone: () =>
          Effect.fail(
            new McpProbeFailed({ reason: "not_mcp", message: `${where}: the event stream ended without an initialize result` })
          ),
        onSome: Effect.succeed
      })
    }
    if (type === "application/json" || type.endsWith("+json")) {
      const text = yield* readText(response, MAX_BODY_BYTES, where)
      const json = yield* Option.match(parseJson(text), {
        onNone: () =>
          Effect.fail(new McpProbeFailed({ reason: "not_mcp", message: `${where}: the response is not valid JSON` })),
        onSome: Effect.succeed
      })
      return yield* Option.match(findInitializeResponse(json), {
        onNone: () =>
          Effect.fail(
            new McpProbeFailed({ reason: "not_mcp", message: `${where}: the response is not a JSON-RPC answer to initialize` })
          ),
        onSome: Effect.succeed
      })
    }
    yield* discard(response)
    return yield* new McpProbeFailed({
      reason: "not_mcp",
      message: `${where} is not an MCP endpoint: it answered with ${type === "" ? "no content type" : clip(type)}, ` +
        "not JSON or an event stream"
    })
  })

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

const classifyUnauthorized = (
  client: HttpClient.HttpClient,
  response: HttpClientResponse.HttpClientResponse,
  url: URL,
  allowlist: ReadonlyArray<string>
): Effect.Effect<McpProbeResult> =>
  Effect.gen(function*() {
    yield* discard(response)
    const challenge = headerOf(response, "www-authenticate") ?? ""
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

// Probe --------------------------------------------------------------------------------------

type Outcome =
  | { readonly _tag: "Initialized"; readonly result: McpProbeResult; readonly sessionId: string | undefined }
  | { readonly _tag: "Unauthorized"; readonly result: McpProbeResult }

const statusFailure = (where: string, response: HttpClientResponse.HttpClientResponse): McpProbeFailed => {
  const status = response.status
  const location = headerOf(response, "location")
  const detail = status >= 300 && status < 400
    ? `redirects${location === undefined ? "" : ` to ${clip(location.split("?")[0]!)}`}; use the final URL`
    : status === 404
    ? "not found; check the path of the MCP endpoint (often /mcp)"
    : status === 403
    ? "access forbidden"
    : status >= 500
    ? "server error"
    : "not an MCP Streamable HTTP endpoint"
  return new McpProbeFailed({ reason: "http_status", status, message: `${where} answered HTTP ${status}: ${detail}` })
}

const initialize = (client: HttpClient.HttpClient, url: URL, allowlist: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const where = displayUrl(url)
    const response = yield* client.execute(initializeRequest(url)).pipe(Effect.mapError(transportFailure(where)))
    if (response.status === 401) {
      return { _tag: "Unauthorized", result: yield* classifyUnauthorized(client, response, url, allowlist) } as Outcome
    }
    if (response.status < 200 || response.status >= 300) {
      yield* discard(response)
      return yield* statusFailure(where, response)
    }
    const message = yield* readInitializeResponse(response, where)
    if (message.error !== undefined) {
      return yield* new McpProbeFailed({
        reason: "not_mcp",
        message: `${where} refused initialize: JSON-RPC error ${message.error.code}: ${clip(message.error.message)}`
      })
    }
    const result = yield* Schema.decodeUnknown(InitializeResult)(message.result).pipe(
      Effect.mapError(() =>
        new McpProbeFailed({ reason: "not_mcp", message: `${where}: the initialize result has no protocolVersion` })
      )
    )
    const name = result.serverInfo?.name?.trim()
    const version = result.serverInfo?.version?.trim()
    const sessionId = headerOf(response, "mcp-session-id")
    return {
      _tag: "Initialized",
      sessionId,
      result: {
        auth: "none",
        protocolVersion: clip(result.protocolVersion),
        ...(name ? { serverName: clip(name) } : {}),
        ...(version ? { serverVersion: clip(version) } : {})
      }
    } as Outcome
  })

/** Tells the server we are done: `notifications/initialized`, then ends a session if one began. */
const closeSession = (client: HttpClient.HttpClient, url: URL, protocolVersion: string, sessionId: string | undefined) =>
  Effect.gen(function*() {
    const headers = rpcHeaders(protocolVersion, sessionId)
    const notified = yield* client.execute(
      HttpClientRequest.post(url).pipe(
        HttpClientRequest.setHeaders(headers),
        HttpClientRequest.bodyUnsafeJson({ jsonrpc: "2.0", method: "notifications/initialized" })
      )
    )
    yield* discard(notified)
    if (sessionId !== undefined) {
      const deleted = yield* client.execute(HttpClientRequest.del(url).pipe(HttpClientRequest.setHeaders(headers)))
      yield* discard(deleted)
    }
  }).pipe(Effect.timeout(COURTESY_TIMEOUT), Effect.ignore)

/**
 * Sends MCP `initialize` to a Streamable HTTP endpoint and reports how it authenticates.
 * Redirects are not followed (with the fetch client too), so a vetted URL cannot bounce the
 * probe elsewhere; the URL itself should have passed `checkOutboundUrl` first.
 */
export const probeMcpServer = (
  url: URL,
  options?: McpProbeOptions
): Effect.Effect<McpProbeResult, McpProbeFailed, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const timeout = options?.timeout ?? DEFAULT_TIMEOUT
    const outcome = yield* initialize(client, url, options?.allowlist ?? []).pipe(
      Effect.timeoutFail({
        duration: timeout,
        onTimeout: () =>
          new McpProbeFailed({
            reason: "timeout",
            message: `${displayUrl(url)} did not answer within ${Duration.format(Duration.decode(timeout))}`
          })
      })
    )
    if (outcome._tag === "Initialized") {
      yield* closeSession(client, url, outcome.result.protocolVersion ?? MCP_PROTOCOL_VERSION, outcome.sessionId)
    }
    return outcome.result
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
