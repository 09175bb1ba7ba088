import { FetchHttpClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import * as Crypto from "node:crypto"
import type * as Http from "node:http"
import { connectorKeyFromTitle, defaultTitle, probeMcpServer } from "../src/features/connectors/McpProbe.js"
import { atMcpPath, newMcpServer, serve, statelessMcp } from "./support/McpTestServers.js"

const TOKEN = "s3cret-token"

const withNode = NodeHttpClient.layer

const initializeResult = (protocolVersion: string) => ({
  protocolVersion,
  capabilities: {},
  serverInfo: { name: "Odd", version: "0.1" }
})

/** A request's JSON body. */
const readJson = async (req: Http.IncomingMessage): Promise<{ readonly id?: unknown; readonly method?: unknown }> => {
  let text = ""
  for await (const chunk of req) text += String(chunk)
  return JSON.parse(text) as { readonly id?: unknown; readonly method?: unknown }
}

describe("probeMcpServer", () => {
  it.scopedLive("(a) an open server: auth none with its name and version (SSE answer)", () =>
    Effect.gen(function*() {
      const { origin, seen } = yield* serve(atMcpPath(statelessMcp("Acme Tools")))
      const result = yield* probeMcpServer(new URL(`${origin}/mcp`))
      // The SDK's client asks for its latest protocol version, which the SDK's server grants.
      expect(result).toEqual({
        auth: "none",
        serverName: "Acme Tools",
        serverVersion: "1.2.3",
        protocolVersion: LATEST_PROTOCOL_VERSION
      })
      const [initialize, initialized] = seen
      expect(initialize?.method).toBe("POST")
      expect(initialize?.headers["accept"]).toBe("application/json, text/event-stream")
      expect(initialize?.headers["content-type"]).toBe("application/json")
      // The SDK sends the version header once it is negotiated: from the request after initialize.
      expect(initialize?.headers["mcp-protocol-version"]).toBeUndefined()
      expect(initialized?.method).toBe("POST")
      expect(initialized?.headers["mcp-protocol-version"]).toBe(LATEST_PROTOCOL_VERSION)
      // Stateless: no session, so no DELETE; and no GET stream for server messages.
      expect(seen.map((request) => request.method)).toEqual(["POST", "POST"])
    }).pipe(Effect.provide(withNode)))

  it.scopedLive("(a) an open server answering with JSON, probed through the fetch client", () =>
    Effect.gen(function*() {
      const { origin } = yield* serve(atMcpPath(statelessMcp("Acme Tools", { json: true })))
      const result = yield* probeMcpServer(new URL(`${origin}/mcp`))
      expect(result.auth).toBe("none")
      expect(result.serverName).toBe("Acme Tools")
      expect(defaultTitle(result, new URL(`${origin}/mcp`))).toBe("Acme Tools")
      expect(connectorKeyFromTitle(defaultTitle(result, new URL(`${origin}/mcp`)))).toBe("acme_tools")
    }).pipe(Effect.provide(FetchHttpClient.layer)))

  it.scopedLive("(a) a stateful server: sends notifications/initialized and ends the session", () =>
    Effect.gen(function*() {
      const server = newMcpServer("Stateful Tools")
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => Crypto.randomUUID() })
      yield* Effect.promise(() => server.connect(transport))
      yield* Effect.addFinalizer(() => Effect.promise(() => server.close()))
      const { origin, seen } = yield* serve(atMcpPath((req, res) => transport.handleRequest(req, res)))
      const result = yield* probeMcpServer(new URL(`${origin}/mcp`))
      expect(result.serverName).toBe("Stateful Tools")
      expect(seen.map((request) => request.method)).toEqual(["POST", "POST", "DELETE"])
      const sessionId = transport.sessionId
      expect(sessionId).toBeDefined()
      expect(seen[1]?.headers["mcp-session-id"]).toBe(sessionId)
      expect(seen[2]?.headers["mcp-session-id"]).toBe(sessionId)
    }).pipe(Effect.provide(withNode)))

  it.scopedLive("(b) a server behind a static bearer token: auth token", () =>
    Effect.gen(function*() {
      const mcp = statelessMcp("Acme Tools")
      const { origin, seen } = yield* serve(atMcpPath((req, res) => {
        if (req.headers.authorization !== `Bearer ${TOKEN}`) {
          res.writeHead(401, { "www-authenticate": "Bearer", "content-type": "application/json" })
          res.end(JSON.stringify({ error: "unauthorized" }))
          return
        }
        return mcp(req, res)
      }))
      const result = yield* probeMcpServer(new URL(`${origin}/mcp`))
      expect(result).toEqual({ auth: "token" })
      // It looked for OAuth metadata at the well-known locations before settling on a token.
      expect(seen.map((request) => `${request.method} ${request.path}`)).toEqual([
        "POST /mcp",
        "GET /.well-known/oauth-protected-resource/mcp",
        "GET /.well-known/oauth-protected-resource"
      ])
    }).pipe(Effect.provide(withNode)))

  it.scopedLive("(c) an OAuth-protected server (RFC 9728 resource_metadata): auth oauth", () =>
    Effect.gen(function*() {
      let metadataUrl = ""
      const { origin } = yield* serve((req, res) => {
        if (req.url === "/.well-known/oauth-protected-resource") {
          res.writeHead(200, { "content-type": "application/json" })
          res.end(JSON.stringify({
            resource: metadataUrl.replace("/.well-known/oauth-protected-resource", "/mcp"),
            authorization_servers: ["https://auth.example.com"]
          }))
          return
        }
        res.writeHead(401, { "www-authenticate": `Bearer resource_metadata="${metadataUrl}"` })
        res.end()
      }).pipe(Effect.tap(({ origin }) => {
        metadataUrl = `${origin}/.well-known/oauth-protected-resource`
      }))
      const result = yield* probeMcpServer(new URL(`${origin}/mcp`))
      expect(result).toEqual({
        auth: "oauth",
        resourceMetadataUrl: `${origin}/.well-known/oauth-protected-resource`,
        authorizationServers: ["https://auth.example.com"]
      })
    }).pipe(Effect.provide(withNode)))

  it.scopedLive("(c) OAuth metadata found at the well-known location without a header hint", () =>
    Effect.gen(function*() {
      const { origin } = yield* serve((req, res) => {
        if (req.url === "/.well-known/oauth-protected-resource/mcp") {
          res.writeHead(200, { "content-type": "application/json" })
          res.end(JSON.stringify({ authorization_servers: ["https://login.example.org/tenant"] }))
          return
        }
        res.writeHead(401, { "www-authenticate": "Bearer realm=\"mcp\"" }).end()
      })
      const result = yield* probeMcpServer(new URL(`${origin}/mcp`))
      expect(result).toEqual({
        auth: "oauth",
        resourceMetadataUrl: `${origin}/.well-known/oauth-protected-resource/mcp`,
        authorizationServers: ["https://login.example.org/tenant"]
      })
    }).pipe(Effect.provide(withNode)))

  it.scopedLive("(c) a resource_metadata URL on a private address elsewhere is not fetched", () =>
    Effect.gen(function*() {
      const { origin } = yield* serve((_req, res) => {
        res.writeHead(401, {
          "www-authenticate": "Bearer error=\"invalid_token\", resource_metadata=\"http://169.254.169.254/latest/meta-data\""
        }).end()
      })
      const result = yield* probeMcpServer(new URL(`${origin}/mcp`))
      expect(result).toEqual({ auth: "oauth", resourceMetadataUrl: "http://169.254.169.254/latest/meta-data" })
    }).pipe(Effect.provide(withNode)))

  it.scopedLive("(d) a plain HTTP server that is not MCP: McpProbeFailed", () =>
    Effect.gen(function*() {
      const { origin } = yield* serve((req, res) => {
        if (req.url === "/") {
          res.writeHead(200, { "content-type": "text/html" }).end("<html><body>Welcome</body></html>")
          return
        }
        res.writeHead(404, { "content-type": "text/html" }).end("<html><body>Not Found</body></html>")
      })
      const notFound = yield* Effect.flip(probeMcpServer(new URL(`${origin}/mcp?key=${TOKEN}`)))
      expect(notFound._tag).toBe("McpProbeFailed")
      expect(notFound.reason).toBe("http_status")
      expect(notFound.status).toBe(404)
      expect(notFound.message).toBe(
        `${origin}/mcp answered HTTP 404: not found; check the path of the MCP endpoint (often /mcp)`
      )
      expect(notFound.message).not.toContain(TOKEN)

      const html = yield* Effect.flip(probeMcpServer(new URL(`${origin}/`)))
      expect(html.reason).toBe("not_mcp")
      expect(html.message).toBe(`${origin}/ is not an MCP endpoint: it answered with text/html, not JSON or an event stream`)
    }).pipe(Effect.provide(withNode)))

  it.scopedLive("(d) invalid JSON, non-initialize JSON, 5xx and oversized bodies: McpProbeFailed", () =>
    Effect.gen(function*() {
      const { origin } = yield* serve((req, res) => {
        const json = { "content-type": "application/json" }
        if (req.url === "/garbled") res.writeHead(200, json).end("{not json")
        else if (req.url === "/other") res.writeHead(200, json).end(JSON.stringify({ ok: true }))
        else if (req.url === "/rpc-error") {
          // A JSON-RPC error answers the request's own id.
          void readJson(req).then((request) =>
            res.writeHead(200, json).end(
              JSON.stringify({ jsonrpc: "2.0", id: request.id, error: { code: -32601, message: "Method not found" } })
            )
          )
        } else if (req.url === "/huge") res.writeHead(200, json).end(`"${"x".repeat(2 * 1024 * 1024)}"`)
        else res.writeHead(502).end("bad gateway")
      })
      const probe = (path: string) => Effect.flip(probeMcpServer(new URL(`${origin}${path}`)))
      expect(yield* probe("/garbled")).toMatchObject({
        reason: "not_mcp",
        message: `${origin}/garbled: the response is not valid JSON`
      })
      expect(yield* probe("/other")).toMatchObject({
        reason: "not_mcp",
        message: `${origin}/other: the response is not a JSON-RPC answer to initialize`
      })
      expect(yield* probe("/rpc-error")).toMatchObject({
        reason: "not_mcp",
        message: `${origin}/rpc-error refused initialize: JSON-RPC error -32601: Method not found`
      })
      expect(yield* probe("/huge")).toMatchObject({ reason: "too_large" })
      expect(yield* probe("/down")).toMatchObject({
        reason: "http_status",
        status: 502,
        message: `${origin}/down answered HTTP 502: server error`
      })
    }).pipe(Effect.provide(withNode)))

  it.scopedLive("(d) what the SDK would wait on in vain fails at once: a stream without the answer, another id", () =>
    Effect.gen(function*() {
      const { origin } = yield* serve((req, res) => {
        if (req.url === "/sse-ends") {
          res.writeHead(200, { "content-type": "text/event-stream" })
          return void res.end(": hello\n\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\n\n")
        }
        if (req.url === "/sse-huge") {
          res.writeHead(200, { "content-type": "text/event-stream" })
          return void res.end(`data: "${"x".repeat(2 * 1024 * 1024)}"\n\n`)
        }
        res.writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", id: 99, result: initializeResult("2025-06-18") }))
      })
      // Any of these failing only at the timeout would fail the test (reason "timeout").
      const probe = (path: string) =>
        Effect.flip(probeMcpServer(new URL(`${origin}${path}`), { timeout: "30 seconds" }))
      expect(yield* probe("/sse-ends")).toMatchObject({
        reason: "not_mcp",
        message: `${origin}/sse-ends: the event stream ended without an initialize result`
      })
      expect(yield* probe("/sse-huge")).toMatchObject({
        reason: "too_large",
        message: `${origin}/sse-huge: the response is larger than 1048576 bytes`
      })
      expect(yield* probe("/other-id")).toMatchObject({
        reason: "not_mcp",
        message: `${origin}/other-id: the response is not a JSON-RPC answer to initialize`
      })
    }).pipe(Effect.provide(withNode)))

  it.scopedLive("(d) initialize results the SDK refuses: an unknown protocol version, no version, no serverInfo", () =>
    Effect.gen(function*() {
      const { origin } = yield* serve((req, res) =>
        void readJson(req).then((request) => {
          const result = req.url === "/old"
            ? initializeResult("1999-01-01")
            : req.url === "/no-version"
            ? { capabilities: {}, serverInfo: { name: "x", version: "1" } }
            : { protocolVersion: "2025-06-18", capabilities: {} }
          res.writeHead(200, { "content-type": "application/json" })
            .end(JSON.stringify({ jsonrpc: "2.0", id: request.id, result }))
        })
      )
      const probe = (path: string) => Effect.flip(probeMcpServer(new URL(`${origin}${path}`)))
      expect(yield* probe("/old")).toMatchObject({
        reason: "not_mcp",
        message: `${origin}/old answered initialize with MCP version 1999-01-01, which this client does not support`
      })
      expect(yield* probe("/no-version")).toMatchObject({
        reason: "not_mcp",
        message: `${origin}/no-version: the initialize result has no protocolVersion`
      })
      const noInfo = yield* probe("/no-info")
      expect(noInfo.reason).toBe("not_mcp")
      expect(noInfo.message).toMatch(new RegExp(`^${origin}/no-info: the initialize result is not valid \\(serverInfo`))
    }).pipe(Effect.provide(withNode)))

  it.scopedLive("(a) a server that fails notifications/initialized still answered initialize", () =>
    Effect.gen(function*() {
      const { origin, seen } = yield* serve((req, res) =>
        void readJson(req).then((request) => {
          if (request.method !== "initialize") return void res.writeHead(500).end("no")
          res.writeHead(200, { "content-type": "application/json" })
            .end(JSON.stringify({ jsonrpc: "2.0", id: request.id, result: initializeResult("2025-06-18") }))
        })
      )
      const result = yield* probeMcpServer(new URL(`${origin}/mcp`))
      expect(result).toEqual({ auth: "none", serverName: "Odd", serverVersion: "0.1", protocolVersion: "2025-06-18" })
      expect(seen.map((request) => request.method)).toEqual(["POST", "POST"])
    }).pipe(Effect.provide(withNode)))

  it.scopedLive("(e) connection refused: McpProbeFailed", () =>
    Effect.gen(function*() {
      // A port that was just free: listen, note it, close.
      const { port } = yield* Effect.scoped(serve(() => {}))
      const error = yield* Effect.flip(probeMcpServer(new URL(`http://127.0.0.1:${port}/mcp`)))
      expect(error._tag).toBe("McpProbeFailed")
      expect(error.reason).toBe("unreachable")
      expect(error.message).toBe(`cannot reach http://127.0.0.1:${port}/mcp: connection refused`)

      const viaFetch = yield* Effect.flip(probeMcpServer(new URL(`http://127.0.0.1:${port}/mcp`))).pipe(
        Effect.provide(FetchHttpClient.layer)
      )
      expect(viaFetch.message).toBe(`cannot reach http://127.0.0.1:${port}/mcp: connection refused`)
    }).pipe(Effect.provide(withNode)))

  it.scopedLive("a server that never answers: McpProbeFailed after the timeout", () =>
    Effect.gen(function*() {
      const { origin } = yield* serve(() => {})
      const error = yield* Effect.flip(probeMcpServer(new URL(`${origin}/mcp`), { timeout: "300 millis" }))
      expect(error.reason).toBe("timeout")
      expect(error.message).toBe(`${origin}/mcp did not answer within 300ms`)
    }).pipe(Effect.provide(withNode)))

  it.scopedLive("redirects are reported, not followed", () =>
    Effect.gen(function*() {
      const { origin, seen } = yield* serve((_req, res) => {
        res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data?x=1" }).end()
      })
      for (const layer of [NodeHttpClient.layer, FetchHttpClient.layer]) {
        const error = yield* Effect.flip(probeMcpServer(new URL(`${origin}/mcp`))).pipe(Effect.provide(layer))
        expect(error.message).toBe(
          `${origin}/mcp answered HTTP 302: redirects to http://169.254.169.254/latest/meta-data; use the final URL`
        )
      }
      expect(seen).toHaveLength(2)
    }))

  it.scopedLive("redirects within the origin are reported too (the SDK would follow them)", () =>
    Effect.gen(function*() {
      const { origin, seen } = yield* serve((req, res) => {
        if (req.url === "/old") return void res.writeHead(307, { location: "/mcp" }).end()
        return atMcpPath(statelessMcp("Moved"))(req, res)
      })
      const error = yield* Effect.flip(probeMcpServer(new URL(`${origin}/old`)))
      expect(error).toMatchObject({
        reason: "http_status",
        status: 307,
        message: `${origin}/old answered HTTP 307: redirects to /mcp; use the final URL`
      })
      expect(seen.map((request) => request.path)).toEqual(["/old"])
    }).pipe(Effect.provide(withNode)))
})

describe("connector naming", () => {
  it("derives a connector key from a title", () => {
    expect(connectorKeyFromTitle("Acme Tools")).toBe("acme_tools")
    expect(connectorKeyFromTitle("  GitHub (MCP) -- v2!  ")).toBe("github_mcp_v2")
    expect(connectorKeyFromTitle("Café Déjà Vu")).toBe("cafe_deja_vu")
    expect(connectorKeyFromTitle("___")).toBe("mcp")
    expect(connectorKeyFromTitle("日本語")).toBe("mcp")
    expect(connectorKeyFromTitle("")).toBe("mcp")
    const long = connectorKeyFromTitle(`${"a".repeat(99)} b`)
    expect(long).toBe("a".repeat(99))
    expect(long).toMatch(/^[a-z0-9_-]{1,100}$/)
    expect(connectorKeyFromTitle("x".repeat(300))).toHaveLength(100)
  })

  it("titles a server by its name, else its host", () => {
    expect(defaultTitle({ auth: "none", serverName: "Acme Tools" }, new URL("https://mcp.acme.dev/mcp"))).toBe("Acme Tools")
    expect(defaultTitle({ auth: "oauth" }, new URL("https://mcp.acme.dev/mcp"))).toBe("mcp.acme.dev")
  })
})
