/*
 * Real mapped pages for the wire benchmarks: the shipped connectors' list actions against
 * the sandbox, run through a Switchyard server in this process, read back over RPC (the
 * action's records before the unified envelope's encoding).
 */
import { builtinConnectorSources } from "@switchyard/connectors"
import { startSandbox } from "@switchyard/sandbox"
import { ConfigProvider, Effect, Fiber, Layer, Logger, LogLevel } from "effect"
import * as Net from "node:net"
import { ServerLive } from "../../src/app/Server.js"

const KEY = "swy_bench_bootstrap_key_0123456789abcdef"

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = Net.createServer().listen(0, "127.0.0.1", () => {
      const port = (server.address() as Net.AddressInfo).port
      server.close(() => resolve(port))
    })
  })

export interface RealPages {
  /** Records of each list action, by action id (up to 100 each). */
  readonly records: Record<string, ReadonlyArray<unknown>>
  /** `GET <path>` on the running server, as the client receives it. */
  readonly unified: (path: string) => Promise<{ readonly status: number; readonly body: any }>
  readonly close: () => Promise<void>
}

export const realPages = async (actions: ReadonlyArray<string>): Promise<RealPages> => {
  const sandbox = await startSandbox({ seed: 1 })
  const port = await freePort()
  const config = ConfigProvider.fromMap(new Map([
    ["PORT", String(port)],
    ["SWITCHYARD_DATA_DIR", ":memory:"],
    ["SWITCHYARD_BOOTSTRAP_API_KEY", KEY],
    ["SWITCHYARD_OUTBOUND_ALLOWLIST", "127.0.0.1"],
    ["LOG_LEVEL", "WARN"]
  ]))
  const server = Effect.runFork(
    Layer.launch(ServerLive).pipe(Effect.provide(Layer.setConfigProvider(config)), Logger.withMinimumLogLevel(LogLevel.Warning))
  )
  const base = `http://127.0.0.1:${port}`
  for (let i = 0; i < 200; i++) {
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) break
    await new Promise((r) => setTimeout(r, 100))
  }
  const auth = { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}`, "content-type": "application/json" }
  const newest = builtinConnectorSources().filter((s) => s.file.includes("/greenhouse/")).map((s) => s.file)
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true })).at(-1)
  const greenhouse = builtinConnectorSources().find((s) => s.file === newest)!
  const unlimited = greenhouse.yaml.replace("key: greenhouse", "key: greenhouse_bench").replace(/mainRatelimit: \d+/, "mainRatelimit: 1000000")
  const registered = await fetch(`${base}/v2/connectors`, { method: "POST", headers: auth, body: JSON.stringify({ yaml: unlimited }) })
  if (registered.status !== 201) throw new Error(`registering the bench connector answered ${registered.status}`)
  const account = await fetch(`${base}/v2/accounts`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({
      connector_key: "greenhouse_bench",
      name: "Bench",
      owner_id: "bench",
      credentials: { apiKey: sandbox.ats.apiKey },
      settings: { base_url: sandbox.ats.baseUrl }
    })
  }).then((r) => r.json() as Promise<{ id: string }>)
  const records: Record<string, ReadonlyArray<unknown>> = {}
  for (const action of actions) {
    const response = await fetch(`${base}/actions/rpc`, {
      method: "POST",
      headers: { ...auth, "x-account-id": account.id },
      body: JSON.stringify({ action, query: { page_size: 100 } })
    })
    const body = await response.json() as { data: ReadonlyArray<unknown> }
    if (response.status !== 200) throw new Error(`${action} answered ${response.status}: ${JSON.stringify(body)}`)
    records[action] = body.data
  }
  return {
    records,
    unified: async (path) => {
      const response = await fetch(`${base}${path}`, { headers: { ...auth, "x-account-id": account.id } })
      return { status: response.status, body: await response.json() }
    },
    close: async () => {
      await Effect.runPromise(Fiber.interrupt(server))
      await sandbox.close()
    }
  }
}
