import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import type { FaultPlan } from "@switchyard/sandbox"
import { Effect, Layer } from "effect"
import { freshProject } from "./support/Fixtures.js"
import { SandboxLive, SandboxProviders, sandboxGreenhouseAccount } from "./support/SandboxLayer.js"
import { TestServer } from "./support/TestServer.js"
import { expectErrorBody, json, send, type WireResponse, withKey } from "./support/Wire.js"

/*
 * A provider answering 2xx with a body that cannot be read or mapped is the provider's
 * problem: 502 naming it, with none of the connector's internals (expressions, step paths,
 * JavaScript errors), on every path that runs actions.
 */

const Server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive())

const setup = Effect.gen(function*() {
  const sandbox = yield* SandboxProviders
  sandbox.faults.clear()
  const project = yield* freshProject
  const ats = yield* project.client.accounts.create_account({ payload: sandboxGreenhouseAccount(sandbox) })
  sandbox.clearRequests()
  return { sandbox, project, ats }
})

type Setup = Effect.Effect.Success<typeof setup>

/** The applications list through the unified API, the RPC and an MCP tool call. */
const listEverywhere = ({ ats, project }: Setup) =>
  Effect.all({
    unified: send(
      HttpClientRequest.get("/unified/ats/applications?page_size=5").pipe(
        HttpClientRequest.setHeader("x-account-id", ats.id),
        withKey(project.key)
      )
    ),
    rpc: send(
      HttpClientRequest.post("/actions/rpc").pipe(
        json({ action: "ats_list_applications", query: { page_size: 5 } }),
        HttpClientRequest.setHeader("x-account-id", ats.id),
        withKey(project.key)
      )
    ),
    mcp: send(
      HttpClientRequest.post("/mcp").pipe(
        json({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "greenhouse_ats_list_applications", arguments: { page_size: 5 } }
        }),
        HttpClientRequest.setHeader("accept", "application/json, text/event-stream"),
        HttpClientRequest.setHeader("x-account-id", ats.id),
        withKey(project.key)
      )
    )
  })

/** No connector internals: expression text, document paths, JavaScript error messages. */
const expectNoInternals = (text: string) => {
  for (const internal of ["{{", "$.", "actions[", "steps[", "expression", "Cannot read", "undefined", "TypeError"]) {
    expect({ internal, leaked: text.includes(internal) }).toEqual({ internal, leaked: false })
  }
}

const expectBadGateway = (answers: { unified: WireResponse; rpc: WireResponse; mcp: WireResponse }, message: string) => {
  for (const answer of [answers.unified, answers.rpc]) {
    expect(expectErrorBody(answer, 502).message).toBe(message)
    expectNoInternals(answer.text)
  }
  // an MCP tool failure is a tool result marked as an error, not a JSON-RPC failure
  expect(answers.mcp.status).toBe(200)
  const result = (answers.mcp.json as { result: { isError: boolean; content: ReadonlyArray<{ text: string }> } }).result
  expect(result.isError).toBe(true)
  expect(result.content[0]!.text).toBe(`502 ${message}`)
  expectNoInternals(answers.mcp.text)
}

const onApplications = (plan: Omit<FaultPlan, "match">): FaultPlan => ({ match: { path: "/v1/applications" }, ...plan })

layer(Server, { excludeTestServices: true })("provider answers that cannot be read", (it) => {
  it.effect("a 200 whose JSON is broken is a 502 naming the provider, asked once", () =>
    Effect.gen(function*() {
      const context = yield* setup
      context.sandbox.faults.add(onApplications({ fault: "malformed_json" }))
      const answers = yield* listEverywhere(context)
      expectBadGateway(answers, "greenhouse answered 200 with a body that is not valid JSON")
      // a broken 200 is not retried: it may answer a write the provider already did
      expect(context.sandbox.requests().filter((request) => request.path === "/v1/applications")).toHaveLength(3)
    }))

  it.effect("a 200 with valid JSON of another shape is a 502: the connector could not map it", () =>
    Effect.gen(function*() {
      const context = yield* setup
      context.sandbox.faults.add(onApplications({ fault: "oversized", sizeMiB: 5 }))
      const answers = yield* listEverywhere(context)
      expectBadGateway(answers, "greenhouse answered 200 with an answer the connector could not map")
    }))

  it.effect("a 200 larger than the response bound is a 502 saying so", () =>
    Effect.gen(function*() {
      const context = yield* setup
      context.sandbox.faults.add(onApplications({ fault: "oversized", sizeMiB: 21 }))
      const answers = yield* listEverywhere(context)
      expectBadGateway(answers, `greenhouse answered 200 with a response larger than ${20 * 1024 * 1024} bytes`)
    }))

  it.effect("the same calls answer 200 once the provider is well again", () =>
    Effect.gen(function*() {
      const answers = yield* listEverywhere(yield* setup)
      expect([answers.unified.status, answers.rpc.status, answers.mcp.status]).toEqual([200, 200, 200])
    }))
})
