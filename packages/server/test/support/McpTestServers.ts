import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"
import {
  StreamableHTTPServerTransport,
  type StreamableHTTPServerTransportOptions
} from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { Effect } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"

export type Handler = (req: Http.IncomingMessage, res: Http.ServerResponse) => void | Promise<void>

interface SeenRequest {
  readonly method: string
  readonly path: string
  readonly headers: Http.IncomingHttpHeaders
}

/** A node:http server on an ephemeral 127.0.0.1 port for the test's scope; it logs requests. */
export const serve = (handler: Handler) =>
  Effect.acquireRelease(
    Effect.async<{ readonly server: Http.Server; readonly seen: Array<SeenRequest> }>((resume) => {
      const seen: Array<SeenRequest> = []
      const server = Http.createServer((req, res) => {
        seen.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers })
        Promise.resolve(handler(req, res)).catch((error) => {
          if (!res.headersSent) res.writeHead(500)
          res.end(String(error))
        })
      })
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed({ server, seen })))
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ server, seen }) => {
    const port = (server.address() as AddressInfo).port
    return { port, origin: `http://127.0.0.1:${port}`, seen }
  }))

export const newMcpServer = (name: string) => new McpServer({ name, version: "1.2.3" })

/** The SDK's stateless Streamable HTTP setup: a fresh server and transport per request. */
export const statelessMcp = (name: string, options: { readonly json?: boolean } = {}): Handler => async (req, res) => {
  const server = newMcpServer(name)
  // Stateless mode is `sessionIdGenerator: undefined`; the SDK's option types do not admit an
  // explicit undefined under exactOptionalPropertyTypes, so the key is left out (same effect).
  const stateless: StreamableHTTPServerTransportOptions = { enableJsonResponse: options.json ?? false }
  const transport = new StreamableHTTPServerTransport(stateless)
  res.on("close", () => {
    void transport.close()
    void server.close()
  })
  await server.connect(transport)
  await transport.handleRequest(req, res)
}

/** Only `/mcp` speaks MCP; everything else is a plain 404. */
export const atMcpPath = (mcp: Handler): Handler => (req, res) => {
  if (new URL(req.url ?? "/", "http://x").pathname === "/mcp") return mcp(req, res)
  res.writeHead(404, { "content-type": "text/plain" }).end("not found")
}

