import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { freshProject } from "./support/Fixtures.js"
import { atMcpPath, type Handler, serve, statelessMcp } from "./support/McpTestServers.js"
import { TestServer } from "./support/TestServer.js"

const TOKEN = "mcp-static-token"

/** The open server behind a static bearer token. */
const tokenProtected = (inner: Handler): Handler => (req, res) => {
  if (req.headers.authorization !== `Bearer ${TOKEN}`) {
    res.writeHead(401, { "www-authenticate": "Bearer", "content-type": "application/json" })
    return void res.end(JSON.stringify({ error: "unauthorized" }))
  }
  return inner(req, res)
}

layer(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), { excludeTestServices: true })(
  "connectors from MCP servers",
  (it) => {
    it.scoped("probes an open server and names the connector after it", () =>
      Effect.gen(function*() {
        const { client } = yield* freshProject
        const { origin } = yield* serve(atMcpPath(statelessMcp("Acme Tools")))
        const connector = yield* client.connectors.create_connector({
          urlParams: { expand: ["actions", "versions"] },
          payload: { mcp_server_url: `${origin}/mcp` }
        })
        expect(connector).toMatchObject({
          id: "acme_tools@1.0.0~custom",
          key: "acme_tools",
          title: "Acme Tools",
          owner: "custom",
          mcp_server_url: `${origin}/mcp`,
          mcp_auth: "none",
          actions: { actions: [], event_actions: [], scope_definitions: [] }
        })
        expect(connector.versions!.map((v) => v.version)).toEqual(["1.0.0"])
        const again = yield* client.connectors.create_connector({
          urlParams: {},
          payload: { mcp_server_url: `${origin}/mcp` }
        }).pipe(Effect.flip)
        expect(again._tag).toBe("Conflict")
        const titled = yield* client.connectors.create_connector({
          urlParams: {},
          payload: { mcp_server_url: `${origin}/mcp`, title: "Tools For Sales!" }
        })
        expect([titled.key, titled.title]).toEqual(["tools_for_sales", "Tools For Sales!"])
      }))

    it.scoped("detects a server that wants a static access token", () =>
      Effect.gen(function*() {
        const { client } = yield* freshProject
        const { origin } = yield* serve(atMcpPath(tokenProtected(statelessMcp("Locked Tools"))))
        const connector = yield* client.connectors.create_connector({
          urlParams: {},
          payload: { mcp_server_url: `${origin}/mcp`, title: "Locked" }
        })
        expect(connector.mcp_auth).toBe("token")
        expect(connector.authentication_methods).toEqual([expect.objectContaining({
          authorization_type: "bearer",
          config_fields: [expect.objectContaining({ key: "accessToken", secret: true })]
        })])
      }))

    it.scoped("refuses what is not a reachable MCP server, storing nothing", () =>
      Effect.gen(function*() {
        const { client } = yield* freshProject
        const { origin } = yield* serve(atMcpPath(statelessMcp("Elsewhere")))
        const notMcp = yield* client.connectors.create_connector({
          urlParams: {},
          payload: { mcp_server_url: `${origin}/not-here` }
        }).pipe(Effect.flip)
        expect(notMcp._tag).toBe("UnprocessableEntity")
        const refused = yield* client.connectors.create_connector({
          urlParams: {},
          payload: { mcp_server_url: "http://127.0.0.1:1/mcp" }
        }).pipe(Effect.flip)
        expect(refused._tag).toBe("UnprocessableEntity")
        const listed = yield* client.connectors.list_connectors({ urlParams: { key: ["elsewhere"] } })
        expect(listed).toEqual([])
      }))
  }
)

layer(TestServer(), { excludeTestServices: true })("MCP connectors without an allowlist", (it) => {
  it.scoped("private and loopback addresses are refused (SSRF)", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const { origin } = yield* serve(atMcpPath(statelessMcp("Internal")))
      for (const url of [`${origin}/mcp`, "http://169.254.169.254/latest/meta-data", "http://10.0.0.5/mcp"]) {
        const refused = yield* client.connectors.create_connector({ urlParams: {}, payload: { mcp_server_url: url } })
          .pipe(Effect.flip)
        expect(refused._tag).toBe("UnprocessableEntity")
        expect(refused.message).toContain("which this server does not call")
        // the operator learns the setting for a loopback or private host, never for the metadata endpoint
        const host = new URL(url).hostname
        if (host === "169.254.169.254") expect(refused.message).not.toContain("SWITCHYARD_OUTBOUND_ALLOWLIST")
        else expect(refused.message).toContain(`set SWITCHYARD_OUTBOUND_ALLOWLIST=${host} on the server`)
      }
    }))
})
