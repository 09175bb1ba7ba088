import { FetchHttpClient, HttpClient } from "@effect/platform"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js"
import { mcpInitializeParams } from "@switchyard/engine"
import { Clock, Deferred, Duration, Effect, Option } from "effect"
import { makeHttpClientFetch } from "./HttpClientFetch.js"
import { classifyUnauthorized } from "./mcpProbe/classifyUnauthorized.js"
import { clip, displayUrl } from "./mcpProbe/clip.js"
import { failureOf } from "./mcpProbe/failureOf.js"
import { McpProbeFailed, timeoutFailure } from "./mcpProbe/McpProbeFailed.js"
import type { McpProbeOptions, McpProbeResult } from "./mcpProbe/McpProbeResult.js"
import { Exchange, probeFetch, ProbeTransport } from "./mcpProbe/probeFetch.js"

/**
 * Probes an MCP server over Streamable HTTP before a connector is created for it: does it
 * answer `initialize`, and does it need no auth, a static token, or OAuth (RFC 9728)? It
 * speaks MCP through the SDK's `Client` and `StreamableHTTPClientTransport`, whose `fetch`
 * is the outbound HTTP client's. The parts live in `./mcpProbe/`: the result and failure
 * types, the auth discovery after a 401, the guarded fetch and transport, and the mapping
 * of the SDK's errors; this module runs the probe and exports what importers use.
 */

export { connectorKeyFromTitle, defaultTitle } from "./mcpProbe/connectorKeyFromTitle.js"
export { McpProbeFailed, type McpProbeFailureReason } from "./mcpProbe/McpProbeFailed.js"
export type { McpProbeOptions, McpProbeResult } from "./mcpProbe/McpProbeResult.js"

const DEFAULT_TIMEOUT = Duration.seconds(10)
const COURTESY_TIMEOUT = Duration.seconds(2)

type Outcome =
  | { readonly _tag: "Initialized"; readonly result: McpProbeResult }
  | { readonly _tag: "Unauthorized"; readonly result: McpProbeResult }

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
