import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { execFile } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { RequestLog } from "../src/features/requestLogs/RequestLog.js"
import { connectorYaml } from "./support/ConnectorYaml.js"
import { accountBody, freshProject } from "./support/Fixtures.js"
import { instrumented, readmeCurlExamples, statusesIn, variablesOf } from "./support/ReadmeExamples.js"
import { SandboxLive, SandboxProviders, sandboxGreenhouseAccount } from "./support/SandboxLayer.js"
import { TestServer } from "./support/TestServer.js"
import { serverPort } from "./support/Wire.js"

/*
 * Every curl example of the root README runs against a started server, so the examples cannot
 * rot: each must answer a 2xx, unless a `# readme-test: expect <status> <reason>` comment right
 * above it in the README says otherwise. The origin `http://127.0.0.1:4000` is the only thing
 * rewritten; the variables the examples read are the fixtures below, and an example reading
 * one that is not among them fails by name.
 */

const README = Path.resolve(__dirname, "../../../README.md")
const README_ORIGIN = "http://127.0.0.1:4000"
const METRICS_TOKEN = "readme-metrics-token-0123456789"

const TestLayer = Layer.merge(
  TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1", SWITCHYARD_METRICS_TOKEN: METRICS_TOKEN }),
  SandboxLive()
)

interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

const runBash = (script: string, env: Readonly<Record<string, string>>, cwd: string) =>
  Effect.async<Ran>((resume) => {
    execFile("bash", ["-c", script], { env, cwd, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resume(Effect.succeed({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr }))
    })
  })

/** The values of the README's variables: a started server's key and records it created for them. */
const fixtures = Effect.gen(function*() {
  const sandbox = yield* SandboxProviders
  const { client, key } = yield* freshProject
  const linked = yield* client.accounts.create_account({ payload: sandboxGreenhouseAccount(sandbox) })
  const spare = yield* client.accounts.create_account({ payload: accountBody({ name: "To suspend and delete" }) })
  yield* client.actions.rpc_action({
    headers: { "x-account-id": linked.id },
    payload: { action: "ats_list_applications", query: { page_size: 2 } }
  })
  yield* (yield* RequestLog).flush
  const logs = yield* client.request_logs.list_request_logs({ urlParams: { account_ids: [linked.id] } })
  // a loopback endpoint the allowlist lets the server save (deliveries to it fail: nothing listens there)
  const webhookUrl = `${sandbox.ats.baseUrl}/readme-webhook`
  const webhook = yield* client.webhooks.create_webhook({ payload: { url: webhookUrl, events: ["account.deleted"] } })
  const spareKey = yield* client.api_keys.create_api_key({ payload: { name: "to revoke" } })
  return {
    KEY: key,
    ACCOUNT_ID: linked.id,
    ID: spare.id,
    REQUEST_ID: logs.data[0]!.request_id,
    WEBHOOK_ID: webhook.id,
    KEY_ID: spareKey.id,
    WEBHOOK_URL: webhookUrl,
    MCP_SERVER_URL: sandbox.mcp.url,
    SWITCHYARD_METRICS_TOKEN: METRICS_TOKEN
  }
})

layer(TestLayer, { excludeTestServices: true, timeout: 600_000 })("README examples", (it) => {
  it.effect("finds the README's curl examples, continuations joined", () =>
    Effect.sync(() => {
      const examples = readmeCurlExamples(Fs.readFileSync(README, "utf8"))
    expect(examples.length).toBeGreaterThan(10)
    expect(examples.every((example) => !example.command.includes("\\\n"))).toBe(true)
      expect(examples.some((example) => example.command.includes("/v2/accounts") && example.command.includes("-d"))).toBe(true)
    }))

  it.effect("every curl example answers as the README says, against a started server", () =>
    Effect.gen(function*() {
      const variables = yield* fixtures
      const origin = `http://127.0.0.1:${yield* serverPort}`
      // what a reader has beside the examples: the connector file the registration example uploads
      const cwd = Fs.mkdtempSync(Path.join(Os.tmpdir(), "readme-examples-"))
      Fs.writeFileSync(Path.join(cwd, "my-connector.yaml"), connectorYaml({ key: "my_connector", version: "1.0.0" }))
      const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, ...variables }
      const failures: Array<string> = []
      for (const example of readmeCurlExamples(Fs.readFileSync(README, "utf8"))) {
        const where = `README.md:${example.line} \`${example.command}\``
        const unset = variablesOf(example.command).filter((name) => !(name in variables))
        if (unset.length > 0) {
          failures.push(`${where} reads ${unset.map((name) => `$${name}`).join(", ")}, which this test does not set`)
          continue
        }
        const ran = yield* runBash(instrumented(example.command.split(README_ORIGIN).join(origin)), env, cwd)
        const statuses = statusesIn(ran.stderr)
        const fits = (status: number) => example.expected === undefined ? status >= 200 && status < 300 : status === example.expected
        if (ran.code !== 0 || statuses.length === 0 || !statuses.every(fits)) {
          failures.push(
            `${where} answered ${statuses.join(", ") || "nothing"} (exit ${ran.code}, expected ${
              example.expected ?? "2xx"
            }): ${ran.stdout.slice(0, 500)} ${ran.stderr.replace(/readme-test-status:\d+/g, "").trim().slice(0, 500)}`
          )
        }
      }
      Fs.rmSync(cwd, { recursive: true, force: true })
      expect(failures).toEqual([])
    }))
})
