/*
 * `pnpm bench`: prints, in one run,
 *  1. requests/s and p50/p99 latency of an RPC list action and of the unified list
 *     (100 Greenhouse applications, mapped) through Switchyard against the sandbox, at 1, 20
 *     and 50 concurrent clients;
 *  2. the same for calling the sandbox directly (what Switchyard adds is the difference);
 *  3. the mapping engine's records/s against a hand-written TypeScript mapper of the same fields.
 * Everything runs on this machine over loopback; figures are for comparison, not absolutes.
 */
import { builtinConnectorSources } from "@switchyard/connectors"
import { applyMapping, compileFields, ContextScope, type FieldConfig, parseConnector } from "@switchyard/engine"
import { startSandbox } from "@switchyard/sandbox"
import { ConfigProvider, Effect, Either, Fiber, Layer, Logger, LogLevel } from "effect"
import * as Net from "node:net"
import { ServerLive } from "../src/Server.js"

const KEY = "swy_bench_bootstrap_key_0123456789abcdef"
const REQUESTS = 400
const WARMUP = 40

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = Net.createServer().listen(0, "127.0.0.1", () => {
      const port = (server.address() as Net.AddressInfo).port
      server.close(() => resolve(port))
    })
  })

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!

const measure = async (label: string, concurrency: number, call: () => Promise<void>) => {
  for (let i = 0; i < WARMUP; i++) await call()
  const latencies: Array<number> = []
  let next = 0
  const started = performance.now()
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < REQUESTS) {
      next++
      const t0 = performance.now()
      await call()
      latencies.push(performance.now() - t0)
    }
  }))
  const seconds = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  const row = {
    label,
    concurrency,
    "req/s": Math.round(latencies.length / seconds),
    "p50 ms": Number(percentile(latencies, 0.5).toFixed(2)),
    "p99 ms": Number(percentile(latencies, 0.99).toFixed(2))
  }
  console.log(`${label.padEnd(34)} c=${String(concurrency).padStart(2)}  ${String(row["req/s"]).padStart(6)} req/s  p50 ${row["p50 ms"].toFixed(2).padStart(7)} ms  p99 ${row["p99 ms"].toFixed(2).padStart(7)} ms`)
  return row
}

const main = async () => {
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
    Layer.launch(ServerLive).pipe(
      Effect.provide(Layer.setConfigProvider(config)),
      Logger.withMinimumLogLevel(LogLevel.Warning)
    )
  )
  const base = `http://127.0.0.1:${port}`
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(`${base}/healthz`).then((r) => r.ok, () => false)
    if (ok) break
    await new Promise((r) => setTimeout(r, 100))
  }
  const auth = { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}`, "content-type": "application/json" }
  // The shipped Greenhouse connector allows 10 requests/s per account (Greenhouse's own limit),
  // which would be all this measures: a custom copy without that limit isolates our overhead.
  const greenhouse = builtinConnectorSources().find((s) => s.file.endsWith("greenhouse/1.1.0.yaml"))!
  const unlimited = greenhouse.yaml
    .replace("key: greenhouse", "key: greenhouse_bench")
    .replace("mainRatelimit: 10", "mainRatelimit: 1000000")
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

  const rpcBody = JSON.stringify({ action: "ats_list_applications", query: { page_size: 100 } })
  const rpc = async () => {
    const response = await fetch(`${base}/actions/rpc`, { method: "POST", headers: { ...auth, "x-account-id": account.id }, body: rpcBody })
    const body = await response.json() as { data: Array<unknown> }
    if (response.status !== 200 || body.data.length !== 100) throw new Error(`RPC answered ${response.status}`)
  }
  const sandboxAuth = { authorization: `Basic ${Buffer.from(`${sandbox.ats.apiKey}:`).toString("base64")}` }
  const direct = async () => {
    const response = await fetch(`${sandbox.ats.baseUrl}/applications?per_page=100`, { headers: sandboxAuth })
    const body = await response.json() as Array<unknown>
    if (response.status !== 200 || body.length !== 100) throw new Error(`sandbox answered ${response.status}`)
  }

  const unified = async () => {
    const response = await fetch(`${base}/unified/ats/applications?page_size=100`, { headers: { ...auth, "x-account-id": account.id } })
    const body = await response.json() as { data: Array<unknown> }
    if (response.status !== 200 || body.data.length !== 100) throw new Error(`unified list answered ${response.status}`)
  }

  console.log(`\nSwitchyard vs the sandbox directly: ${REQUESTS} requests per row, 100 records each\n`)
  for (const concurrency of [1, 20, 50]) {
    const directly = await measure("sandbox GET /v1/applications", concurrency, direct)
    for (const [label, call] of [["RPC ats_list_applications", rpc], ["GET /unified/ats/applications", unified]] as const) {
      const viaSwitchyard = await measure(label, concurrency, call)
      console.log(`${"  added by Switchyard".padEnd(34)} c=${String(concurrency).padStart(2)}  p50 +${(viaSwitchyard["p50 ms"] - directly["p50 ms"]).toFixed(2)} ms  p99 +${(viaSwitchyard["p99 ms"] - directly["p99 ms"]).toFixed(2)} ms`)
    }
    console.log("")
  }

  // Mapping: the shipped Greenhouse field configs over 100 real sandbox records.
  const records = await fetch(`${sandbox.ats.baseUrl}/applications?per_page=100`, { headers: sandboxAuth }).then((r) => r.json() as Promise<Array<Record<string, any>>>)
  const parsed = parseConnector(greenhouse.yaml)
  if (Either.isLeft(parsed)) throw new Error(parsed.left.message)
  const stepIndex = 1
  const path = `actions[0].steps[${stepIndex}].stepFunction.parameters.fields`
  const fields = (parsed.right.definition.actions[0]!.steps[stepIndex]!.stepFunction.parameters as { fields: ReadonlyArray<FieldConfig> }).fields
  const plan = { fields: compileFields(fields, path, parsed.right.compiled), aliases: ["fetch_applications"] }
  const scope = new ContextScope({ inputs: {}, credentials: {}, steps: {} })
  const statusOf = (status: string) =>
    status === "active" || status === "rejected" || status === "hired" ? status : "unmapped_value"
  const iso = (value: unknown) => (typeof value === "string" ? new Date(value).toISOString() : null)
  const handWritten = (list: ReadonlyArray<Record<string, any>>) =>
    list.map((r) => ({
      id: String(r.id),
      remote_id: String(r.id),
      candidate_id: String(r.candidate_id),
      status: { value: statusOf(r.status), source_value: r.status },
      created_at: iso(r.applied_at),
      updated_at: iso(r.last_activity_at)
    }))
  const rate = (fn: () => unknown) => {
    for (let i = 0; i < 200; i++) fn()
    let runs = 0
    const started = performance.now()
    while (performance.now() - started < 1500) {
      fn()
      runs++
    }
    return Math.round((runs * records.length) / ((performance.now() - started) / 1000))
  }
  const engineRate = rate(() => applyMapping(plan, records, scope))
  const handRate = rate(() => handWritten(records))
  console.log(`Mapping ${fields.length} fields (Greenhouse applications, 100 records per call)`)
  console.log(`${"  engine (compiled field plan)".padEnd(34)} ${engineRate.toLocaleString("en-US").padStart(12)} records/s`)
  console.log(`${"  hand-written TypeScript".padEnd(34)} ${handRate.toLocaleString("en-US").padStart(12)} records/s`)
  console.log(`${"  engine / hand-written".padEnd(34)} ${(engineRate / handRate).toFixed(2)}x\n`)

  await Effect.runPromise(Fiber.interrupt(server))
  await sandbox.close()
  process.exit(0)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
