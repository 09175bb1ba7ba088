import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { builtinConnectorSources } from "@switchyard/connectors"
import { Effect, Layer } from "effect"
import { register } from "prom-client"
import { enableMetrics } from "../src/platform/metrics/ServerMetrics.js"
import { freshProject } from "./support/Fixtures.js"
import { SandboxLive, SandboxProviders, sandboxGreenhouseAccount } from "./support/SandboxLayer.js"
import { TestServer } from "./support/TestServer.js"
import { json, send, withKey } from "./support/Wire.js"

/*
 * The provider metrics of calls that meet their account's rate limit: every refusal counted
 * once with its reason, as a rate_limited call; waits never more than the calls admitted.
 * Counts only, never times.
 */

const Server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive(43))

/** Greenhouse limited to one request per second per account. */
const slowGreenhouse = builtinConnectorSources()
  .find((source) => source.file.endsWith("greenhouse/1.1.0.yaml"))!
  .yaml.replace("key: greenhouse", "key: greenhouse_metered")
  .replace("mainRatelimit: 10", "mainRatelimit: 1")

const CALLS = 12

enableMetrics()

/** The sum of `name`'s samples whose labels include `labels`, in this process's registry. */
const counted = (name: string, labels: Record<string, string>) =>
  Effect.promise(async () => {
    const metric = await register.getSingleMetric(name)!.get()
    return metric.values
      .filter((value) => Object.entries(labels).every(([key, wanted]) => value.labels[key] === wanted))
      .reduce((sum, value) => sum + value.value, 0)
  })

layer(Server, { excludeTestServices: true })("provider metrics", (it) => {
  it.effect("rate-limit refusals and waits, and calls by connector, action and outcome", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxProviders
      const project = yield* freshProject
      expect((yield* send(HttpClientRequest.post("/v2/connectors").pipe(json({ yaml: slowGreenhouse }), withKey(project.key)))).status)
        .toBe(201)
      const account = yield* project.client.accounts.create_account({
        payload: sandboxGreenhouseAccount(sandbox, { connector_key: "greenhouse_metered" })
      })
      const call = send(
        HttpClientRequest.post("/actions/rpc").pipe(
          json({ action: "ats_list_applications", query: { page_size: 1 } }),
          HttpClientRequest.setHeader("x-account-id", account.id),
          withKey(project.key)
        )
      )
      const answers = yield* Effect.all(Array.from({ length: CALLS }, () => call), { concurrency: "unbounded" })
      const admitted = answers.filter((answer) => answer.status === 200).length
      const refused = answers.filter((answer) => answer.status === 429).length
      expect(admitted + refused).toBe(CALLS)

      const connector = { connector: "greenhouse_metered" }
      expect(yield* counted("switchyard_provider_rate_limit_refusals_total", { ...connector, reason: "rate" })).toBe(refused)
      expect(yield* counted("switchyard_provider_calls_total", { ...connector, action: "ats_list_applications", outcome: "rate_limited" }))
        .toBe(refused)
      expect(yield* counted("switchyard_provider_calls_total", { ...connector, action: "ats_list_applications", outcome: "success" }))
        .toBe(admitted)
      const waits = yield* counted("switchyard_provider_rate_limit_waits_total", connector)
      expect(waits).toBeLessThanOrEqual(admitted)
      expect(yield* counted("switchyard_provider_rate_limit_wait_seconds_total", connector)).toBeGreaterThanOrEqual(waits > 0 ? 0.001 : 0)
      expect(yield* counted("switchyard_provider_retries_total", connector)).toBe(0)
    }))
})
