import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js"
import { Authentication, BadRequest, basic, MethodNotAllowed } from "@switchyard/api"
import { type Context, Duration, Effect, Runtime } from "effect"
import { SwitchyardConfig } from "../../platform/Config.js"
import { toApiError } from "../toApiError.js"
import { type AccountToolset, AccountTools } from "./AccountTools.js"
import { checkedMcpRequest, jsonRpcError } from "./McpRequestBody.js"

/*
 * `/mcp`: MCP over Streamable HTTP, stateless (every POST stands alone, answered as JSON).
 * It sits on the router beside the HttpApi, so the groups' authentication middleware does
 * not cover it: the same Authentication service runs here by hand. Everything decided
 * before MCP starts (key, scope, account id, account state) answers as an HTTP error in the
 * house shape; what goes wrong inside a tool call is a tool error.
 */

export const MCP_PATH = "/mcp"
const SERVER_INFO = { name: "switchyard", version: "0.1.0" } as const
const MAX_ACCOUNT_ID = 200
/** Past the provider deadline, time for the runner to turn it into a tool error and answer. */
const DEADLINE_MARGIN = Duration.seconds(15)

/** The caller as every API call finds it: the API key by HTTP Basic, else the dashboard's session cookie. */
const authenticate = (authentication: Context.Tag.Service<Authentication>) =>
  Effect.flatMap(HttpApiBuilder.securityDecode(basic), (credential) =>
    authentication.basic(credential))

/** The account from the `x-account-id` header, or the query parameter for clients that cannot set headers. */
const accountIdOf = (request: HttpServerRequest.HttpServerRequest) => {
  const header = request.headers["x-account-id"]
  const accountId = header !== undefined && header !== ""
    ? header
    : new URL(request.url, "http://switchyard").searchParams.get("x-account-id") ?? ""
  if (accountId === "") {
    return Effect.fail(new BadRequest({ message: "x-account-id is required (a header, or ?x-account-id= in the URL)" }))
  }
  if (accountId.length > MAX_ACCOUNT_ID) {
    return Effect.fail(new BadRequest({ message: `x-account-id must be at most ${MAX_ACCOUNT_ID} characters` }))
  }
  return Effect.succeed(accountId)
}

/** Stateless: no SSE stream to open with GET and no session to end with DELETE. */
const methodNotAllowed = (method: string) =>
  new MethodNotAllowed({
    message: `${method} ${MCP_PATH} is not supported: this MCP server is stateless, send JSON-RPC with POST`,
    allow: ["POST"]
  })

/** A fresh SDK server for one request, knowing only this account's tools. */
const mcpServer = (toolset: AccountToolset, runtime: Runtime.Runtime<never>) => {
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } } })
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...toolset.tools] }))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params
    const result = await Runtime.runPromise(runtime, toolset.call(name, args ?? {}), { signal: extra.signal })
    if (result === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`)
    return result
  })
  return server
}

/**
 * One MCP exchange through the SDK's web-standard transport, bounded: the SDK's promise
 * never settles when its send fails (an answer too large to serialize), so past the
 * deadline the request answers an internal error and the server is closed.
 */
const exchange = (request: HttpServerRequest.HttpServerRequest, toolset: AccountToolset, deadline: Duration.Duration) =>
  Effect.gen(function*() {
    const runtime = yield* Effect.runtime<never>()
    const checked = yield* checkedMcpRequest(yield* HttpServerRequest.toWeb(request))
    if (checked.refused !== undefined) return checked.refused
    const webRequest = checked.request
    return yield* Effect.acquireUseRelease(
      Effect.sync(() => ({
        server: mcpServer(toolset, runtime),
        // stateless: `sessionIdGenerator` left out (undefined)
        transport: new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
      })),
      // a caller gone or the deadline interrupts this; closing the server then aborts its running tool calls
      ({ server, transport }) =>
        Effect.promise(async () => {
          await server.connect(transport)
          return transport.handleRequest(webRequest)
        }).pipe(
          Effect.map(HttpServerResponse.fromWeb),
          Effect.timeout(deadline),
          Effect.catchTag("TimeoutException", () =>
            Effect.as(
              Effect.logError(`MCP request unanswered after ${Duration.format(deadline)}`),
              jsonRpcError(500, ErrorCode.InternalError, "Internal error: the MCP request did not complete in time")
            ))
        ),
      ({ server }) => Effect.promise(() => server.close())
    )
  })

export const McpEndpointLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const tools = yield* AccountTools
    const authentication = yield* Authentication
    const config = yield* SwitchyardConfig
    const deadline = Duration.sum(Duration.millis(config.providerDeadlineMs), DEADLINE_MARGIN)
    const handler = Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const caller = yield* authenticate(authentication)
      if (request.method !== "POST") return yield* methodNotAllowed(request.method)
      const accountId = yield* accountIdOf(request)
      const toolset = yield* Effect.mapError(tools.forAccount(caller.projectId, accountId), toApiError)
      return yield* exchange(request, toolset, deadline)
    })
    yield* router.all(MCP_PATH, handler)
  })
)
