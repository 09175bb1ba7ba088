// OAuth discovery (RFC 9728): what a 401 says of a server's auth, from its challenge and resource metadata.
import { type HttpClient, HttpClientRequest } from "@effect/platform"
import { Duration, Effect, Option, Schema } from "effect"
import { checkOutboundUrl } from "../../../platform/outboundHttp/OutboundUrlGuard.js"
import { clip, displayUrl, parseJson } from "./clip.js"
import { discard, MAX_METADATA_BYTES, readText } from "./guardBody.js"
import type { McpProbeResult } from "./McpProbeResult.js"

const METADATA_TIMEOUT = Duration.seconds(3)

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
export const classifyUnauthorized = (
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
