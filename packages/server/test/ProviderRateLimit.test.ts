import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it as plainIt, layer } from "@effect/vitest"
import { builtinConnectorSources } from "@switchyard/connectors"
import { Effect, Layer } from "effect"
import { ProviderSlots } from "../src/platform/outboundHttp/ProviderSlots.js"
import { freshProject } from "./support/Fixtures.js"
import { SandboxLive, SandboxProviders, sandboxGreenhouseAccount } from "./support/SandboxLayer.js"
import { TestServer } from "./support/TestServer.js"
import { expectErrorBody, json, send, withKey } from "./support/Wire.js"

/*
 * An account's provider rate limit does not hold connections without bound: a call whose
 * turn would come later than SWITCHYARD_PROVIDER_MAX_QUEUE_WAIT_MS (default 2 s) answers 429
 * with Retry-After at once, before anything is sent to the provider.
 */

const Server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive())

/** Greenhouse limited to one request per second per account. */
const slowGreenhouse = builtinConnectorSources()
  .find((source) => source.file.endsWith("greenhouse/1.1.0.yaml"))!
  .yaml.replace("key: greenhouse", "key: greenhouse_slow")
  .replace("mainRatelimit: 10", "mainRatelimit: 1")

const CALLS = 20

layer(Server, { excludeTestServices: true })("provider rate limit", (it) => {
  it.effect("calls past the longest wait answer 429 with Retry-After and never reach the provider", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxProviders
      const project = yield* freshProject
      const registered = yield* send(
        HttpClientRequest.post("/v2/connectors").pipe(json({ yaml: slowGreenhouse }), withKey(project.key))
      )
      expect(registered.status).toBe(201)
      const account = yield* project.client.accounts.create_account({
        payload: sandboxGreenhouseAccount(sandbox, { connector_key: "greenhouse_slow" })
      })
      sandbox.clearRequests()
      const call = send(
        HttpClientRequest.post("/actions/rpc").pipe(
          json({ action: "ats_list_applications", query: { page_size: 1 } }),
          HttpClientRequest.setHeader("x-account-id", account.id),
          withKey(project.key)
        )
      )
      const answers = yield* Effect.all(Array.from({ length: CALLS }, () => call), { concurrency: "unbounded" })

      const admitted = answers.filter((answer) => answer.status === 200)
      const refused = answers.filter((answer) => answer.status !== 200)
      // one a second within the 2 s wait: a few go through, most are refused at once
      expect(admitted.length).toBeGreaterThan(0)
      expect(refused.length).toBeGreaterThan(0)
      for (const answer of refused) {
        expect(expectErrorBody(answer, 429).message).toContain("too many calls to greenhouse_slow")
        expect(answer.headers["retry-after"]).toMatch(/^[1-9]\d*$/)
      }
      expect(sandbox.requests().filter((request) => request.path === "/v1/applications")).toHaveLength(admitted.length)
    }))
})

describe("provider slots by reservation", () => {
  const admitAll = (slots: ProviderSlots, count: number, now: number) =>
    Array.from({ length: count }, () => slots.admit(now))

  plainIt("admits one slot per interval up to the longest wait, so no second sees more than the limit", () => {
    const slots = new ProviderSlots(10, 2_000, 1_000)
    const answers = admitAll(slots, 50, 1_000_000)
    const admitted = answers.filter((answer) => answer._tag === "Admitted")
    // one every 100 ms while the wait stays within 2 s: 21
    expect(admitted.map((answer) => answer.waitMs)).toEqual(Array.from({ length: 21 }, (_, i) => i * 100))
    expect(answers[21]).toEqual({ _tag: "Refused", waitMs: 2_100, why: "rate" })
    // a retry of an admitted call takes its turn however far
    expect(slots.admit(1_000_000, false)).toEqual({ _tag: "Admitted", waitMs: 2_100 })
    // once the reserved time has passed, calls go at once again
    expect(slots.admit(1_010_000)).toEqual({ _tag: "Admitted", waitMs: 0 })
  })

  plainIt("without a rate limit, bounds the calls waiting for a connection", () => {
    const slots = new ProviderSlots(undefined, 2_000, 3)
    expect(admitAll(slots, 4, 0).map((answer) => answer._tag)).toEqual(["Admitted", "Admitted", "Admitted", "Refused"])
    slots.leave()
    expect(slots.admit(0)._tag).toBe("Admitted")
  })
})
