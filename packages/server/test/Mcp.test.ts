import { HttpClientRequest, HttpServer } from "@effect/platform"
import { describe, expect, it as plainIt, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { sandboxWeather } from "@switchyard/sandbox"
import type { ActionInput } from "@switchyard/engine"
import { Effect, Layer } from "effect"
import { LastRequestTracker } from "../src/features/accounts/LastRequestTracker.js"
import { RequestLog } from "../src/features/requestLogs/RequestLog.js"
import { toolInputSchema } from "../src/edge/mcp/McpTools.js"
import { accountBody, freshProject, keyFor, otherProject } from "./support/Fixtures.js"
import { SandboxLive, SandboxProviders, sandboxGreenhouseAccount } from "./support/SandboxLayer.js"
import { TestServer } from "./support/TestServer.js"
import { expectErrorBody, json, send, withKey } from "./support/Wire.js"

/*
 * `/mcp` as an agent meets it: the official MCP SDK client over the server's real socket,
 * tools backed by the sandbox's providers and by the sandbox's own MCP server.
 */

const SEED = 7
const Server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive(SEED))

const basicAuth = (key: string) => `Basic ${Buffer.from(`${key}:`).toString("base64")}`

const mcpUrl = Effect.map(HttpServer.HttpServer, (server) => {
  const address = server.address
  return new URL("/mcp", address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : "http://invalid")
})

/** An SDK client connected for one account, the account given as a header or in the URL. */
const connect = (key: string, accountId: string, via: "header" | "query" = "header") =>
  Effect.gen(function*() {
    const url = yield* mcpUrl
    const headers: Record<string, string> = { authorization: basicAuth(key) }
    if (via === "header") headers["x-account-id"] = accountId
    else url.searchParams.set("x-account-id", accountId)
    return yield* Effect.acquireRelease(
      Effect.tryPromise(async () => {
        const client = new Client({ name: "switchyard-test", version: "1.0.0" })
        await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }))
        return client
      }),
      (client) => Effect.promise(() => client.close())
    )
  })

/** The HTTP status an SDK client's connect was refused with. */
const refusedWith = (key: string, accountId: string) =>
  Effect.map(Effect.flip(connect(key, accountId)), (failure) => (failure.error as { code?: number }).code)

const call = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  Effect.promise(() => client.callTool({ name, arguments: args }) as Promise<CallToolResult>)

const textOf = (result: CallToolResult) => result.content.map((part) => part.type === "text" ? part.text : "").join("\n")

const mcpPost = (key: string, accountId?: string, body: unknown = { jsonrpc: "2.0", id: 1, method: "tools/list" }) =>
  HttpClientRequest.post("/mcp").pipe(
    json(body),
    HttpClientRequest.setHeader("accept", "application/json, text/event-stream"),
    accountId === undefined ? (request) => request : HttpClientRequest.setHeader("x-account-id", accountId),
    withKey(key)
  )

/** A project with a Greenhouse account on the sandbox. */
const setup = Effect.gen(function*() {
  const sandbox = yield* SandboxProviders
  const project = yield* freshProject
  const ats = yield* project.client.accounts.create_account({ payload: sandboxGreenhouseAccount(sandbox) })
  sandbox.faults.clear()
  sandbox.clearRequests()
  return { sandbox, project, ats }
})

interface ToolAction {
  readonly tool: string
  readonly actionType: string
  readonly inputs: ReadonlyArray<{ readonly name: string; readonly required?: boolean; readonly description?: string }>
}

/** An action that calls the MCP server's tool of the same name with its inputs as arguments. */
const mcpToolAction = ({ actionType, inputs, tool }: ToolAction) => `  - actionId: ${tool}
    actionType: ${actionType}
    label: ${tool.replace(/_/g, " ")}
    inputs:
${inputs.map((input) => `      - name: ${input.name}
        type: string
        in: body
        required: ${input.required === true}
${input.description === undefined ? "" : `        description: ${input.description}\n`}`).join("")}    steps:
      - stepId: call
        stepFunction:
          functionName: mcp_request
          parameters:
            method: tools/call
            name: ${tool}
            arguments: $.inputs
    result:
      data: $.steps.call.output.data
`

const sandboxToolActions: ReadonlyArray<ToolAction> = [
  { tool: "echo", actionType: "custom", inputs: [{ name: "text", required: true, description: "Text to echo back" }] },
  { tool: "get_weather", actionType: "get", inputs: [{ name: "city", required: true }, { name: "date" }] },
  { tool: "always_fails", actionType: "custom", inputs: [{ name: "reason" }] }
]

/** A new version of an MCP connector whose actions call three of the server's tools. */
const mcpToolsYaml = (key: string, serverUrl: string) => `StackOne: 1.0.0
info:
  title: Sandbox Tools
  key: ${key}
  version: 1.1.0
  description: The sandbox MCP server's tools
  categories: [mcp]
baseUrl: ${serverUrl}
authentication:
  - token:
      type: custom
      label: Access token
      authorization:
        type: bearer
        token: $.credentials.accessToken
      configFields:
        - key: accessToken
          label: Access token
          type: password
          required: true
          secret: true
actions:
${sandboxToolActions.map(mcpToolAction).join("")}`

layer(Server, { excludeTestServices: true })("/mcp", (it) => {
  it.scoped("lists the account's actions as tools with JSON Schemas and read-only annotations", () =>
    Effect.gen(function*() {
      const { ats, project } = yield* setup
      const client = yield* connect(project.key, ats.id)
      expect(client.getServerVersion()?.name).toBe("switchyard")
      const { tools } = yield* Effect.promise(() => client.listTools())
      const byName = new Map(tools.map((tool) => [tool.name, tool]))
      expect(tools.every((tool) => tool.name.startsWith("greenhouse_ats_"))).toBe(true)
      expect(tools.length).toBeGreaterThanOrEqual(20)

      const list = byName.get("greenhouse_ats_list_applications")!
      expect(list.description).toContain("Applications in pages")
      expect(list.annotations).toMatchObject({ readOnlyHint: true })
      expect(list.inputSchema.properties).toMatchObject({ page_size: { type: "number" }, cursor: { type: "string" } })
      expect(list.inputSchema.required).toBeUndefined()

      const changes = byName.get("greenhouse_ats_list_application_changes")!
      expect(changes.inputSchema).toMatchObject({
        type: "object",
        required: ["id"],
        properties: {
          id: { type: "string" },
          filter_change_type: {
            type: "string",
            enum: ["application_status", "interview_stage", "rejected_reasons", "unmapped_value"]
          },
          filter_created_after: { type: "string" }
        }
      })

      const create = byName.get("greenhouse_ats_create_candidate")!
      expect(create.annotations).toMatchObject({ readOnlyHint: false })
      expect(byName.get("greenhouse_ats_update_application")!.annotations).toMatchObject({
        readOnlyHint: false,
        destructiveHint: true
      })
    }))

  it.scoped("calls an action through the RPC path: provider call, request log and last_request", () =>
    Effect.gen(function*() {
      const { ats, project, sandbox } = yield* setup
      const client = yield* connect(project.key, ats.id)
      const result = yield* call(client, "greenhouse_ats_list_applications", { page_size: 3 })
      expect(result.isError).toBeFalsy()
      const payload = JSON.parse(textOf(result)) as { data: ReadonlyArray<Record<string, unknown>>; next?: unknown }
      expect(payload.data).toHaveLength(3)
      expect(payload.data[0]).toMatchObject({ id: expect.any(String), candidate_id: expect.any(String) })
      expect(result.structuredContent).toEqual(payload)
      const seen = sandbox.requests().filter((request) => request.path === "/v1/applications")
      expect(seen).toHaveLength(1)
      expect(seen[0]!.query).toMatchObject({ per_page: "3" })

      const one = yield* call(client, "greenhouse_ats_get_application", { id: payload.data[0]!.id })
      expect((one.structuredContent as { data: { id: string } }).data.id).toBe(payload.data[0]!.id)

      yield* (yield* LastRequestTracker).flush
      const read = yield* project.client.accounts.get_account({ path: { id: ats.id }, urlParams: { expand: ["last_request"] } })
      expect(read.last_request).not.toBeNull()
      yield* (yield* RequestLog).flush
      const logs = yield* project.client.request_logs.list_request_logs({
        urlParams: { account_ids: [ats.id], order_direction: "asc" }
      })
      const mcpCall = { provider: "greenhouse", status: 200, source_type: "mcp", http_method: "POST", path: "/mcp" }
      expect(logs.data).toEqual([
        expect.objectContaining({ action: "ats_list_applications", ...mcpCall }),
        expect.objectContaining({ action: "ats_get_application", ...mcpCall })
      ])
    }))

  it.scoped("validation and provider failures are tool errors, with no secret in them", () =>
    Effect.gen(function*() {
      const { ats, project, sandbox } = yield* setup
      const client = yield* connect(project.key, ats.id)
      const missing = yield* call(client, "greenhouse_ats_get_application", {})
      expect(missing.isError).toBe(true)
      expect(textOf(missing)).toMatch(/^400 /)
      expect(textOf(missing)).toContain("id")
      expect(textOf(missing)).toContain("required")

      const typed = yield* call(client, "greenhouse_ats_list_applications", { page_size: "lots" })
      expect(typed.isError).toBe(true)
      expect(textOf(typed)).toContain("page_size")

      const absent = yield* call(client, "greenhouse_ats_get_application", { id: "999999999" })
      expect(absent.isError).toBe(true)
      expect(textOf(absent)).toContain("404")

      sandbox.faults.add({ match: { path: "/v1/applications" }, fault: "status", status: 500, times: 10 })
      const broken = yield* call(client, "greenhouse_ats_list_applications", { page_size: 1 })
      expect(broken.isError).toBe(true)
      expect(textOf(broken)).toMatch(/^502 /)
      sandbox.faults.clear()

      const unknown = yield* Effect.flip(Effect.tryPromise(() => client.callTool({ name: "greenhouse_nope", arguments: {} })))
      expect(String(unknown.error)).toContain("Unknown tool: greenhouse_nope")

      for (const result of [missing, typed, absent, broken]) expect(JSON.stringify(result)).not.toContain(sandbox.ats.apiKey)
    }))

  it.scoped("refuses before MCP starts: 401, 403, 400, 404 and 412 in the house error shape", () =>
    Effect.gen(function*() {
      const { ats, project } = yield* setup
      expect(yield* refusedWith("swy_not_a_real_key_0000000000000000", ats.id)).toBe(401)
      const unauthenticated = yield* send(mcpPost("swy_not_a_real_key_0000000000000000", ats.id))
      expectErrorBody(unauthenticated, 401)
      expect(unauthenticated.headers["www-authenticate"]).toMatch(/^Basic\b/)
      const anonymous = yield* send(HttpClientRequest.post("/mcp").pipe(json({}), HttpClientRequest.setHeader("x-account-id", ats.id)))
      expectErrorBody(anonymous, 401)
      expect(anonymous.headers["www-authenticate"]).toMatch(/^Basic\b/)

      const accountsOnly = yield* keyFor(project.projectId, "accounts")
      expectErrorBody(yield* send(mcpPost(accountsOnly.key, ats.id)), 403)
      const actionsOnly = yield* keyFor(project.projectId, "actions")
      const client = yield* connect(actionsOnly.key, ats.id)
      expect((yield* Effect.promise(() => client.listTools())).tools.length).toBeGreaterThan(0)

      expectErrorBody(yield* send(mcpPost(project.key)), 400)
      expectErrorBody(yield* send(mcpPost(project.key, "no-such-account")), 404)

      const other = yield* otherProject
      expect(yield* refusedWith(other.key, ats.id)).toBe(404)
      expectErrorBody(yield* send(mcpPost(other.key, ats.id)), 404)

      yield* project.client.accounts.patch_account({ path: { id: ats.id }, urlParams: {}, payload: { status: "suspended" } })
      expect(yield* refusedWith(project.key, ats.id)).toBe(412)
      expectErrorBody(yield* send(mcpPost(project.key, ats.id)), 412)
    }))

  it.scoped("refuses a JSON-RPC batch of requests with 400 before running any of them", () =>
    Effect.gen(function*() {
      const { ats, project, sandbox } = yield* setup
      const toolCall = (id: number) => ({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "greenhouse_ats_list_applications", arguments: { page_size: 1 } }
      })
      const batch = yield* send(mcpPost(project.key, ats.id, [toolCall(1), toolCall(2)]))
      expect(batch.status).toBe(400)
      expect(batch.json).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringContaining("batch") } })
      expect(sandbox.requests().filter((request) => request.path === "/v1/applications")).toHaveLength(0)

      // one request, sent as such, still runs: the body read for the check reaches the SDK whole
      const single = yield* send(mcpPost(project.key, ats.id, toolCall(3)))
      expect(single.status).toBe(200)
      expect(single.json).toMatchObject({ id: 3, result: { structuredContent: { data: [expect.any(Object)] } } })
      expect(sandbox.requests().filter((request) => request.path === "/v1/applications")).toHaveLength(1)
    }))

  it.scoped("a large result is carried once, as structured content, with a short text summary", () =>
    Effect.gen(function*() {
      const { ats, project } = yield* setup
      const client = yield* connect(project.key, ats.id)
      const result = yield* call(client, "greenhouse_ats_list_applications", { page_size: 500 })
      expect(result.isError).toBeFalsy()
      const structured = JSON.stringify(result.structuredContent)
      expect(structured.length).toBeGreaterThan(64 * 1024)
      const records = (result.structuredContent as { data: ReadonlyArray<{ id: string }> }).data
      const text = textOf(result)
      expect(text).toContain(`${records.length} records`)
      expect(text).toContain("structuredContent")
      expect(text.length).toBeLessThan(1_000)
      expect(text).not.toContain(records[0]!.id)
    }))

  it.scoped("answers GET with 405, a POST without Accept: application/json, text/event-stream with 406; takes the account from ?x-account-id= too", () =>
    Effect.gen(function*() {
      const { ats, project } = yield* setup
      const get = yield* send(HttpClientRequest.get("/mcp").pipe(HttpClientRequest.setHeader("x-account-id", ats.id), withKey(project.key)))
      expect(get.status).toBe(405)
      expect(get.headers.allow).toBe("POST")
      // The README's MCP section names the header: the transport requires both types.
      for (const accept of [undefined, "application/json"]) {
        const notAccepted = yield* send(HttpClientRequest.post("/mcp").pipe(
          json({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
          accept === undefined ? (request) => request : HttpClientRequest.setHeader("accept", accept),
          HttpClientRequest.setHeader("x-account-id", ats.id),
          withKey(project.key)
        ))
        expect({ accept, status: notAccepted.status }).toEqual({ accept, status: 406 })
        expect(notAccepted.text).toContain("text/event-stream")
      }
      const client = yield* connect(project.key, ats.id, "query")
      const result = yield* call(client, "greenhouse_ats_list_applications", { page_size: 1 })
      expect((result.structuredContent as { data: ReadonlyArray<unknown> }).data).toHaveLength(1)
    }))

  it.scoped("lists only what the account's connector profile enables", () =>
    Effect.gen(function*() {
      const { project, sandbox } = yield* setup
      const profile = yield* project.client.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: { connector_key: "greenhouse", label: "Reads", enabled_actions: ["ats_get_application", "ats_list_candidates"] }
      })
      const linked = yield* project.client.accounts.create_account({
        payload: sandboxGreenhouseAccount(sandbox, { connector_profile_id: profile.id })
      })
      const client = yield* connect(project.key, linked.id)
      const { tools } = yield* Effect.promise(() => client.listTools())
      expect(tools.map((tool) => tool.name).sort()).toEqual(["greenhouse_ats_get_application", "greenhouse_ats_list_candidates"])
      const disabled = yield* Effect.flip(
        Effect.tryPromise(() => client.callTool({ name: "greenhouse_ats_list_applications", arguments: {} }))
      )
      expect(String(disabled.error)).toContain("Unknown tool")
      expect(sandbox.requests().filter((request) => request.path === "/v1/applications")).toHaveLength(0)

      yield* project.client.connector_profiles.update_connector_profile({
        path: { id: profile.id },
        urlParams: {},
        payload: { active: false }
      })
      expect(yield* refusedWith(project.key, linked.id)).toBe(412)
    }))

  it.scoped("an MCP server's tools, added as actions, call through with the account's token", () =>
    Effect.gen(function*() {
      const { project, sandbox } = yield* setup
      const connector = yield* project.client.connectors.create_connector({
        urlParams: {},
        payload: { mcp_server_url: sandbox.mcp.protectedUrl, title: "Sandbox Tools" }
      })
      expect(connector.mcp_auth).toBe("token")
      yield* project.client.connectors.create_connector({
        urlParams: {},
        payload: { yaml: mcpToolsYaml(connector.key, sandbox.mcp.protectedUrl) }
      })
      const account = yield* project.client.accounts.create_account({
        payload: accountBody({ connector_key: connector.key, credentials: { accessToken: sandbox.mcp.token }, settings: {} })
      })
      const client = yield* connect(project.key, account.id)
      const { tools } = yield* Effect.promise(() => client.listTools())
      expect(tools.map((tool) => tool.name).sort()).toEqual(
        ["always_fails", "echo", "get_weather"].map((name) => `${connector.key}_${name}`)
      )
      expect(tools.find((tool) => tool.name.endsWith("_get_weather"))!.annotations).toMatchObject({ readOnlyHint: true })
      expect(tools.find((tool) => tool.name.endsWith("_echo"))!.inputSchema).toEqual({
        type: "object",
        required: ["text"],
        properties: { text: { type: "string", description: "Text to echo back" } }
      })

      const echoed = yield* call(client, `${connector.key}_echo`, { text: "hello through two MCP hops" })
      expect(echoed.isError).toBeFalsy()
      expect(echoed.content).toEqual([{ type: "text", text: "hello through two MCP hops" }])

      const weather = yield* call(client, `${connector.key}_get_weather`, { city: "Oslo", date: "2025-03-01" })
      expect(weather.structuredContent).toEqual(sandboxWeather(SEED, "Oslo", "2025-03-01"))

      const failed = yield* call(client, `${connector.key}_always_fails`, { reason: "as designed" })
      expect(failed).toMatchObject({ isError: true, content: [{ type: "text", text: "as designed" }] })

      const missing = yield* call(client, `${connector.key}_echo`, {})
      expect(missing.isError).toBe(true)
      expect(textOf(missing)).toContain("text")

      // A wrong token: the MCP server's 401 comes back as a tool error, the token redacted.
      const wrong = yield* project.client.accounts.create_account({
        payload: accountBody({ connector_key: connector.key, credentials: { accessToken: "wrong-token-value-123" }, settings: {} })
      })
      const refused = yield* call(yield* connect(project.key, wrong.id), `${connector.key}_echo`, { text: "x" })
      expect(refused.isError).toBe(true)
      expect(textOf(refused)).toContain("401")
      expect(JSON.stringify(refused)).not.toContain("wrong-token-value-123")
    }))
})

describe("tool input schemas", () => {
  const input = (fields: Partial<ActionInput> & Pick<ActionInput, "name" | "type">): ActionInput => ({ in: "query", ...fields })

  plainIt("maps lists, dates, objects with described properties and descriptions", () => {
    const schema = toolInputSchema({
      inputs: [
        input({ name: "ids", type: "number", array: true, required: true, description: "Record ids" }),
        input({ name: "since", type: "datetime_string" }),
        input({ name: "active", type: "boolean" }),
        input({
          name: "body",
          type: "object",
          in: "body",
          properties: [input({ name: "email", type: "string", required: true }), input({ name: "tags", type: "string", array: true })]
        }),
        input({ name: "meta", type: "object", properties: { source: { type: "string" } } }),
        input({ name: "kind", type: "enum" })
      ]
    })
    expect(schema).toEqual({
      type: "object",
      required: ["ids"],
      properties: {
        ids: { type: "array", items: { type: "number" }, description: "Record ids" },
        since: { type: "string", anyOf: [{ format: "date-time" }, { format: "date" }] },
        active: { type: "boolean" },
        body: {
          type: "object",
          required: ["email"],
          properties: { email: { type: "string" }, tags: { type: "array", items: { type: "string" } } }
        },
        meta: { type: "object", properties: { source: { type: "string" } } },
        kind: { type: "string" }
      }
    })
    expect(toolInputSchema({})).toEqual({ type: "object", properties: {} })
  })
})
