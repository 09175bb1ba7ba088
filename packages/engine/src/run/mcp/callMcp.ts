import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js"
import { isJSONRPCRequest, type JSONRPCMessage, ResultSchema } from "@modelcontextprotocol/sdk/types.js"
import { Effect, Fiber } from "effect"
import type { StepPlan } from "../../actionPlan.js"
import { mcpInitializeParams } from "../../mcp.js"
import type { RunFailure } from "../../RunErrors.js"
import type { RunState } from "../RunState.js"
import { McpExchange } from "./McpExchange.js"
import { mcpFetch } from "./mcpFetch.js"

/** The SDK's transport, telling `exchange` of each request it sends and when it has read the answer. */
class StepTransport extends StreamableHTTPClientTransport {
  constructor(url: URL, fetch: FetchLike, private readonly exchange: McpExchange) {
    super(url, { fetch })
  }

  override async send(message: JSONRPCMessage, options?: Parameters<StreamableHTTPClientTransport["send"]>[1]) {
    const request = isJSONRPCRequest(message)
    if (request) this.exchange.begin(message.id)
    await super.send(message, options)
    if (request) this.exchange.sent()
  }
}

/** The SDK's own request timeout, kept beyond the step's deadline so the deadline is the one that ends a call. */
const sdkTimeoutMillis = (run: RunState) => Math.min(run.limits.stepTimeoutMs + 60_000, 2 ** 31 - 1)

/**
 * One MCP request through the SDK's `Client` over Streamable HTTP: `initialize`, then
 * `notifications/initialized`, then `method` with `params`, in a session of its own (the run
 * has no end to close a longer-lived client at, so each call opens one and closes it). The
 * client is closed in every path, interruption by the step's deadline included, and with it
 * any provider call under way. Any method may be asked; its result comes back unshaped, with
 * the status of the HTTP answer that carried it.
 */
export const callMcp = (
  run: RunState,
  step: StepPlan,
  url: URL,
  method: string,
  params: Record<string, unknown>
): Effect.Effect<{ readonly result: Record<string, unknown>; readonly status: number }, RunFailure> =>
  Effect.scoped(Effect.gen(function*() {
    const exchange = yield* McpExchange.make(step, url.toString(), (text) => run.secrets.redact(text))
    const runtime = yield* Effect.runtime<never>()
    const { client, transport } = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const transport = new StepTransport(url, mcpFetch(run, step, exchange, runtime), exchange)
        // Set before connecting, so the client's handler chains after it.
        transport.onmessage = exchange.observe
        const client = new Client(mcpInitializeParams.clientInfo, { capabilities: mcpInitializeParams.capabilities })
        return { client, transport }
      }),
      ({ client }) =>
        Effect.promise(() => client.close().catch(() => undefined)).pipe(
          Effect.zipRight(Effect.suspend(() => Fiber.interruptAll([...exchange.inflight])))
        )
    )
    const options = { timeout: sdkTimeoutMillis(run) }
    yield* exchange.call("initialize", () => client.connect(transport, options))
    const result = yield* exchange.call(method, () => client.request({ method, params }, ResultSchema, options))
    return { result, status: exchange.response?.status ?? 200 }
  }))
