import { describe, expect, it } from "@effect/vitest"
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import {
  MCP_PROTOCOL_VERSION,
  mcpInitializeParams,
  type ProviderRequest,
  type ProviderResponse,
  runAction
} from "../src/index.js"
import { connector, dedent, type FakeHandler, fakeTransport, json } from "./support/fakeTransport.js"

/*
 * How the `mcp_request` step reads an MCP server's answers, now through the SDK's client:
 * event streams as servers write them, and answers that cannot carry the response, which
 * fail at once with the step's messages (a test that only ended at the step's deadline
 * would hang: the test clock never moves).
 */

const server = connector(dedent`
  StackOne: 1.0.0
  info:
    title: MCP
    key: mcp
    version: 1.0.0
  baseUrl: https://mcp.example.com/mcp
  actions:
    - actionId: tools
      actionType: list
      label: Tools
      steps:
        - stepId: list
          stepFunction:
            functionName: mcp_request
            parameters:
              method: tools/list
      result:
        data: $.steps.list.output.data
`)

const rpcMessage = (request: ProviderRequest) => (request.body as { value: { id?: number; method: string } }).value

const initializeResult = {
  protocolVersion: MCP_PROTOCOL_VERSION,
  capabilities: { tools: {} },
  serverInfo: { name: "fake-mcp", version: "1.0.0" }
}

/** `initialize` answered with `initialize` (a valid result by default), notifications with 202, `tools/list` with `list`. */
const mcpServer = (
  list: (id: number) => ProviderResponse,
  initialize: (id: number) => ProviderResponse = (id) => json({ jsonrpc: "2.0", id, result: initializeResult })
): FakeHandler =>
(request) => {
  const message = rpcMessage(request)
  if (message.id === undefined) return { status: 202, headers: {}, body: null }
  return message.method === "initialize" ? initialize(message.id) : list(message.id)
}

const sse = (body: string): ProviderResponse => ({ status: 200, headers: { "content-type": "text/event-stream" }, body })

const listTools = (handler: FakeHandler) => {
  const transport = fakeTransport(handler)
  return runAction(server, "tools", {}, { credentials: {} }).pipe(Effect.provide(transport.layer))
}

const tools = { tools: [{ name: "weather", inputSchema: { type: "object" } }] }

describe("mcp_request: event streams", () => {
  it.effect("reads events as servers write them: comments, other fields, data over lines, CRLF, a last event left open", () =>
    Effect.gen(function*() {
      // the response split over two data lines between its members (joined with a newline, still JSON)
      const output = yield* listTools(mcpServer((id) =>
        sse(
          ": hello\n" +
            "event: message\nid: 7\ndata: {\"jsonrpc\":\"2.0\",\ndata:  \"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"x\"}}\n\n" +
            "retry: 10\n\n" +
            `data: {"jsonrpc":"2.0","id":${id},\r\ndata: "result":${JSON.stringify(tools)}}`
        )
      ))
      expect(output.data).toEqual(tools.tools)
    }))

  it.effect("reads the initialize result from an event stream too", () =>
    Effect.gen(function*() {
      const output = yield* listTools(mcpServer(
        (id) => json({ jsonrpc: "2.0", id, result: tools }),
        (id) => sse(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id, result: initializeResult })}\n\n`)
      ))
      expect(output.data).toEqual(tools.tools)
    }))

  it.effect("an event stream that ends without the response fails at once", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(listTools(mcpServer(() =>
        sse("event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"x\"}}\n\n")
      )))
      expect(error).toMatchObject({ _tag: "ProviderHttpError", status: 200, stepId: "list" })
      expect(error.message).toContain("MCP tools/list: the event stream carried no response to the request")
    }))
})

describe("mcp_request: answers that are not the response", () => {
  it.effect("a JSON answer to another id, an empty answer and a body that is not JSON fail at once", () =>
    Effect.gen(function*() {
      const other = yield* Effect.flip(listTools(mcpServer(() => json({ jsonrpc: "2.0", id: 99, result: tools }))))
      expect(other).toMatchObject({ _tag: "ProviderHttpError", status: 200, body: { id: 99 } })
      expect(other.message).toContain("MCP tools/list: answer is not a JSON-RPC response to the request")

      const empty = yield* Effect.flip(listTools(mcpServer(() => ({ status: 200, headers: { "content-type": "application/json" }, body: null }))))
      expect(empty.message).toContain("MCP tools/list: empty answer (status 200)")

      const broken = yield* Effect.flip(listTools(mcpServer(() => ({ status: 200, headers: { "content-type": "application/json" }, body: "{\"jsonrpc\":" }))))
      expect(broken.message).toContain("MCP tools/list: answer is not valid JSON")
    }))

  it.effect("a JSON-RPC error without the request's id is still the server's error", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(listTools(mcpServer(() => json({ jsonrpc: "2.0", id: null, error: { code: -32603, message: "internal" } }))))
      expect(error).toMatchObject({ _tag: "ProviderHttpError", status: 200, body: { code: -32603, message: "internal" } })
      expect(error.message).toContain("MCP tools/list failed: internal")
    }))

  it.effect("an initialize result the SDK refuses fails with why, before the call", () =>
    Effect.gen(function*() {
      const requests: Array<string> = []
      const refusing = (initialize: (id: number) => ProviderResponse): FakeHandler => (request, url, index) => {
        requests.push(rpcMessage(request).method)
        return mcpServer((id) => json({ jsonrpc: "2.0", id, result: tools }), initialize)(request, url, index)
      }
      const unknown = yield* Effect.flip(listTools(refusing((id) =>
        json({ jsonrpc: "2.0", id, result: { ...initializeResult, protocolVersion: "1999-01-01" } }))))
      expect(unknown.message).toContain("MCP initialize: the server speaks MCP 1999-01-01, which this client does not support")

      const unversioned = yield* Effect.flip(listTools(refusing((id) =>
        json({ jsonrpc: "2.0", id, result: { capabilities: {}, serverInfo: { name: "x", version: "1" } } }))))
      expect(unversioned.message).toContain("MCP initialize: the initialize result has no protocolVersion")

      const anonymous = yield* Effect.flip(listTools(refusing((id) =>
        json({ jsonrpc: "2.0", id, result: { protocolVersion: MCP_PROTOCOL_VERSION, capabilities: {} } }))))
      expect(anonymous).toMatchObject({ _tag: "ProviderHttpError", status: 200, stepId: "list" })
      expect(anonymous.message).toContain("MCP initialize: the initialize result is not valid (serverInfo")
      expect(requests).toEqual(["initialize", "initialize", "initialize"])
    }))
})

describe("MCP protocol version", () => {
  it("is the SDK's, in initialize of both clients", () => {
    expect(MCP_PROTOCOL_VERSION).toBe(LATEST_PROTOCOL_VERSION)
    expect(MCP_PROTOCOL_VERSION).toBe("2025-11-25")
    expect(mcpInitializeParams.protocolVersion).toBe(MCP_PROTOCOL_VERSION)
  })
})
