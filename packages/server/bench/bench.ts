/*
 * `pnpm bench`: Switchyard against the proxy a user would write by hand, measured from outside.
 *
 * Each in its own process: a provider stand-in (the sandbox's Greenhouse look-alike), a
 * hand-written proxy (handWrittenProxy.mjs: fetch, map, answer), the same proxy on Effect HttpApi
 * (effectProxy.ts: the framework anchor) and Switchyard started as users
 * start it, on the embedded default and, when DATABASE_URL is set, on a fresh PostgreSQL database
 * (one after the other, so they never compete for CPU). autocannon, also in its own process,
 * loads each at 1 and 50 connections; within each Switchyard run the provider and the
 * proxies are measured again right before the Switchyard rows they are compared with.
 * Prints one table (req/s, p50, p99, and each row against the hand-written proxy and against the
 * Effect proxy), the RSS of Switchyard and both proxies, the goals of issues 13 and 32 as met or MISSED, with DATABASE_URL the unified list from a fleet
 * (SWITCHYARD_WORKERS 1 and one per core) and how req/s scales, and the cost of a rate-limit reservation per store
 * (bench/rateLimitStores.ts: memory, PostgreSQL with DATABASE_URL, Redis with REDIS_URL).
 *
 * Environment: BENCH_DURATION (seconds per row, default 8), BENCH_SOAK_REQUESTS (unified list
 * requests before the last RSS reading, default 100000), DATABASE_URL (a PostgreSQL server on
 * which the benchmark may create and drop a database), BENCH_FLEET_WORKERS (the fleet row's
 * workers, default one per core).
 * Everything runs on this machine over loopback: the load generator, the provider and the proxy
 * under test share its cores, so figures are for comparison within one run, not absolutes.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import * as Os from "node:os"
import { join } from "node:path"
import { isDeepStrictEqual } from "node:util"
import { type Load, type LoadResult, runAutocannon } from "./autocannon.js"
import { checkGoals, EFFECT_GET, EFFECT_LIST, formatGoals, RPC_LIST, type ServerMemory, UNIFIED_GET, UNIFIED_LIST } from "./goals.js"
import type { MappingRates } from "./mappingBench.js"
import { createBenchDatabase, printableUrl } from "./postgres.js"
import { atCleanup, completed, freePort, installCleanup, interrupted, sleep, spawnChild, stopAll, waitFor } from "./processes.js"
import { formatMb, rssMb, settledRssMb } from "./rss.js"
import { basicAuth, BENCH_KEY, repoDir, serverCommand, serverDir, setUpAccount, shippedGreenhouse, SOURCE_FLAGS, startSwitchyard } from "./switchyard.js"
import { startProviderStandIn } from "./providerStandIn.js"
import { formatTable, resultsTable, type Row } from "./table.js"

const envInt = (name: string, fallback: number) => {
  const raw = process.env[name]
  if (raw === undefined || raw === "") return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, is ${raw}`)
  return n
}

const DURATION = envInt("BENCH_DURATION", 8)
const SOAK_REQUESTS = envInt("BENCH_SOAK_REQUESTS", 100_000)
// Not counted: connections opened, code paths compiled by the JIT, caches filled.
const WARMUP_SECONDS = Math.min(2, DURATION)
const CLIENTS = [1, 50] as const
const FIRST_REQUESTS = 1_000
/** A server idle this long has had V8's memory reducer run, which gives back start-up garbage. */
const IDLE_LATER_SECONDS = envInt("BENCH_IDLE_SECONDS", 60)
const ADMIN_DATABASE_URL = process.env["DATABASE_URL"] || undefined
/** Workers of the fleet row: one per core unless BENCH_FLEET_WORKERS says otherwise. */
const FLEET_WORKERS = envInt("BENCH_FLEET_WORKERS", Os.availableParallelism())

type Page = { readonly data: ReadonlyArray<Record<string, unknown>> }

const log = (line = "") => console.log(line)

const commitOf = () => {
  const head = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: repoDir, encoding: "utf8" })
  if (head.status !== 0) return "unknown"
  const dirty = spawnSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: repoDir, encoding: "utf8" }).stdout.trim() !== ""
  return `${head.stdout.trim()}${dirty ? " (with uncommitted changes)" : ""}`
}

const getJson = async <A>(url: string, headers: Record<string, string>, init: RequestInit = {}): Promise<A> => {
  const response = await fetch(url, { ...init, headers })
  const text = await response.text()
  if (!response.ok) throw new Error(`${init.method ?? "GET"} ${url} answered ${response.status}: ${text.slice(0, 600)}`)
  return JSON.parse(text) as A
}

/**
 * Both proxies answer the same records? The engine leaves out a field whose expression yields
 * null where the hand-written mapper writes null, so a missing field counts as null here.
 */
const sameRecords = (a: ReadonlyArray<Record<string, unknown>>, b: ReadonlyArray<Record<string, unknown>>): string | undefined => {
  const withNulls = (record: Record<string, unknown>, keys: ReadonlyArray<string>) =>
    Object.fromEntries(keys.map((key) => [key, record[key] ?? null]))
  if (a.length !== b.length) return `${a.length} records vs ${b.length}`
  for (let i = 0; i < a.length; i++) {
    const keys = [...new Set([...Object.keys(a[i]!), ...Object.keys(b[i]!)])]
    const [x, y] = [withNulls(a[i]!, keys), withNulls(b[i]!, keys)]
    if (!isDeepStrictEqual(x, y)) {
      const key = keys.find((k) => !isDeepStrictEqual(x[k], y[k]))!
      return `record ${i}, field ${key}: ${JSON.stringify(x[key])} vs ${JSON.stringify(y[key])}`
    }
  }
  return undefined
}

const main = async () => {
  installCleanup()
  const cpus = Os.cpus()
  log(`Switchyard benchmark — ${new Date().toISOString()}`)
  log(`machine: ${cpus.length} × ${cpus[0]?.model.trim() ?? "unknown CPU"}, ${(Os.totalmem() / 2 ** 30).toFixed(1)} GB RAM, ` +
    `load average ${Os.loadavg().map((n) => n.toFixed(2)).join(" ")}; node ${process.version}; ${Os.platform()} ${Os.release()}`)
  log(`commit: ${commitOf()}`)
  log(`rows: ${WARMUP_SECONDS} s warm-up (not counted) + ${DURATION} s measured each (BENCH_DURATION); ` +
    `RSS soak: ${SOAK_REQUESTS.toLocaleString("en-US")} unified list requests (BENCH_SOAK_REQUESTS)`)
  log(`databases: embedded${ADMIN_DATABASE_URL === undefined ? " (set DATABASE_URL to add PostgreSQL)" : `, postgres on ${printableUrl(ADMIN_DATABASE_URL)}`}`)

  const scratch = mkdtempSync(join(Os.tmpdir(), "switchyard-bench-scratch-"))
  atCleanup(() => rmSync(scratch, { recursive: true, force: true }))
  const command = serverCommand()
  const connector = shippedGreenhouse()
  log(`Switchyard started as: ${command.how}`)
  log(`connector: a copy of ${connector.file.replace(`${repoDir}/`, "")} without its 10 requests/s rate limit`)
  log("")

  const { process: providerProcess, provider } = await startProviderStandIn()

  const proxyPort = await freePort()
  const proxyProcess = spawnChild("hand-written proxy", process.execPath, ["bench/handWrittenProxy.mjs", String(proxyPort), provider.baseUrl, provider.apiKey], {
    cwd: serverDir,
    env: process.env
  })
  await waitFor("the hand-written proxy to listen", () => (proxyProcess.stdout().includes("listening") ? true : undefined), { timeoutMs: 30_000, child: proxyProcess })
  const proxyUrl = `http://127.0.0.1:${proxyPort}`
  // Any non-empty Authorization passes the proxy's check; a real one would compare a key.
  const proxyHeaders = { authorization: basicAuth("bench-caller") }
  const providerHeaders = { authorization: basicAuth(provider.apiKey) }

  const handList = await getJson<Page>(`${proxyUrl}/applications?page_size=100`, proxyHeaders)
  if (handList.data.length !== 100) throw new Error(`the hand-written proxy answered ${handList.data.length} applications, not 100`)
  const applicationId = String(handList.data[10]!["id"])
  const handOne = await getJson<{ data: Record<string, unknown> }>(`${proxyUrl}/applications/${applicationId}`, proxyHeaders)
  const proxyIdle = await settledRssMb(proxyProcess.pid, 5)

  // The framework anchor: the same proxy on Effect HttpApi (effectProxy.ts), its own process.
  const effectPort = await freePort()
  const effectProcess = spawnChild("Effect proxy", process.execPath, [...SOURCE_FLAGS, "bench/effectProxy.ts", String(effectPort), provider.baseUrl, provider.apiKey], {
    cwd: serverDir,
    env: process.env
  })
  await waitFor("the Effect proxy to listen", () => (effectProcess.stdout().includes("listening") ? true : undefined), { timeoutMs: 60_000, child: effectProcess })
  const effectUrl = `http://127.0.0.1:${effectPort}`
  const effectList = await getJson<Page>(`${effectUrl}/applications?page_size=100`, proxyHeaders)
  const effectOne = await getJson<{ data: Record<string, unknown> }>(`${effectUrl}/applications/${applicationId}`, proxyHeaders)
  const effectDifference = sameRecords(effectList.data, handList.data) ?? sameRecords([effectOne.data], [handOne.data])
  const effectIdle = await settledRssMb(effectProcess.pid, 5)

  const rows: Array<Row> = []
  /** One table row: a warm-up run, then the measured run. Answers how many requests were sent in all. */
  const measure = async (row: Omit<Row, "result">, load: Omit<Load, "seconds" | "amount">): Promise<number> => {
    const warm = await runAutocannon({ ...load, seconds: WARMUP_SECONDS }, scratch)
    const result = await runAutocannon({ ...load, seconds: DURATION }, scratch)
    rows.push({ ...row, result })
    log(`  ${row.path} [${row.database}] c=${row.clients}: ${result.reqPerSec.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms` +
      (result.cpuMsPerRequest === undefined ? "" : `, ${result.cpuMsPerRequest.toFixed(2)} CPU ms/request`))
    return warm.requests + result.requests
  }

  const memory: Array<ServerMemory> = []
  const notes: Array<string> = []
  const databases = ADMIN_DATABASE_URL === undefined ? (["embedded"] as const) : (["embedded", "postgres"] as const)
  for (const database of databases) {
    log("")
    log(`starting Switchyard (${database})…`)
    const db = database === "postgres" ? await createBenchDatabase(ADMIN_DATABASE_URL!) : undefined
    const server = await startSwitchyard(command, db?.url)
    const idle = await settledRssMb(server.child.pid)
    log(`  up; idle RSS ${formatMb(idle)}; idle ${IDLE_LATER_SECONDS} s more…`)
    await sleep(IDLE_LATER_SECONDS * 1000)
    const idleLater = rssMb(server.child.pid)
    log(`  idle RSS ${IDLE_LATER_SECONDS} s later: ${formatMb(idleLater)}`)
    const accountId = await setUpAccount(server.baseUrl, provider)
    const headers = { authorization: basicAuth(BENCH_KEY), "x-account-id": accountId }

    // Same work on both sides: the same records, mapped the same way.
    const unified = await getJson<Page>(`${server.baseUrl}/unified/ats/applications?page_size=100`, headers)
    const unifiedOne = await getJson<{ data: Record<string, unknown> }>(`${server.baseUrl}/unified/ats/applications/${String(unified.data[10]?.["id"])}`, headers)
    const difference = sameRecords(unified.data, handList.data) ?? sameRecords([unifiedOne.data], [handOne.data])
    notes.push(`[${database}] Switchyard and the hand-written proxy answer the same records: ${difference === undefined ? "yes" : `NO (${difference})`}`)
    notes.push(`[${database}] the Effect proxy and the hand-written proxy answer the same records: ${effectDifference === undefined ? "yes" : `NO (${effectDifference})`}`)

    const behind = [server.child, providerProcess]
    const listLoad = { url: `${server.baseUrl}/unified/ats/applications?page_size=100`, headers, behind }
    let unifiedListRequests = (await runAutocannon({ ...listLoad, connections: 10, amount: FIRST_REQUESTS }, scratch)).requests + 1
    const afterFirst = await settledRssMb(server.child.pid, 5)
    log(`  RSS after the first ${FIRST_REQUESTS.toLocaleString("en-US")} unified list requests: ${formatMb(afterFirst)}`)

    // Each Switchyard row right after the hand-written row it is compared with (and the provider's,
    // the ceiling for both): on a shared machine, rows minutes apart would compare the load of
    // other tenants as much as the proxies.
    const run = database
    for (const clients of CLIENTS) {
      await measure(
        { path: "provider GET /v1/applications?per_page=100", kind: "list", run, database: "—", clients, handWritten: false },
        { url: `${provider.baseUrl}/applications?per_page=100`, connections: clients, headers: providerHeaders, behind: [providerProcess] }
      )
      await measure(
        { path: "hand-written GET /applications?page_size=100", kind: "list", run, database: "—", clients, handWritten: true },
        { url: `${proxyUrl}/applications?page_size=100`, connections: clients, headers: proxyHeaders, behind: [proxyProcess, providerProcess] }
      )
      await measure(
        { path: EFFECT_LIST, kind: "list", run, database: "—", clients, handWritten: false, effectProxy: true },
        { url: `${effectUrl}/applications?page_size=100`, connections: clients, headers: proxyHeaders, behind: [effectProcess, providerProcess] }
      )
      unifiedListRequests += await measure({ path: UNIFIED_LIST, kind: "list", run, database, clients, handWritten: false }, { ...listLoad, connections: clients })
      await measure({ path: RPC_LIST, kind: "list", run, database, clients, handWritten: false }, {
        url: `${server.baseUrl}/actions/rpc`,
        connections: clients,
        method: "POST",
        body: JSON.stringify({ action: "ats_list_applications", query: { page_size: 100 } }),
        headers: { ...headers, "content-type": "application/json" },
        behind
      })
    }
    for (const clients of CLIENTS) {
      await measure(
        { path: "hand-written GET /applications/:id", kind: "get", run, database: "—", clients, handWritten: true },
        { url: `${proxyUrl}/applications/${applicationId}`, connections: clients, headers: proxyHeaders, behind: [proxyProcess, providerProcess] }
      )
      await measure(
        { path: EFFECT_GET, kind: "get", run, database: "—", clients, handWritten: false, effectProxy: true },
        { url: `${effectUrl}/applications/${applicationId}`, connections: clients, headers: proxyHeaders, behind: [effectProcess, providerProcess] }
      )
      await measure(
        { path: UNIFIED_GET, kind: "get", run, database, clients, handWritten: false },
        { url: `${server.baseUrl}/unified/ats/applications/${applicationId}`, connections: clients, headers, behind }
      )
    }

    const remaining = SOAK_REQUESTS - unifiedListRequests
    if (remaining > 0) {
      const rate = rows.find((row) => row.path === UNIFIED_LIST && row.database === database && row.clients === 50)!.result.reqPerSec
      log(`  soak: ${remaining.toLocaleString("en-US")} more unified list requests at 50 clients ` +
        `(${unifiedListRequests.toLocaleString("en-US")} sent so far; at ${rate.toFixed(0)} req/s about ${Math.ceil(remaining / rate / 60)} min)…`)
      // autocannon needs at least as many requests as connections
      unifiedListRequests += (await runAutocannon({ ...listLoad, connections: Math.min(50, remaining), amount: remaining }, scratch)).requests
    }
    const afterAll = await settledRssMb(server.child.pid, 5)
    log(`  RSS after ${unifiedListRequests.toLocaleString("en-US")} unified list requests: ${formatMb(afterAll)}`)
    memory.push({ database, idle, idleLater, afterFirst, afterAll, unifiedListRequests })

    await server.stop()
    await db?.drop()
  }

  // A fleet on PostgreSQL: the same unified list at 50 clients from 1 and from one worker per
  // core (SWITCHYARD_WORKERS), to show how req/s scales with processes on this machine.
  const fleet: Array<{ readonly workers: number; readonly result: LoadResult }> = []
  if (ADMIN_DATABASE_URL !== undefined) {
    for (const workers of [...new Set([1, FLEET_WORKERS])]) {
      log("")
      log(`starting Switchyard (postgres, SWITCHYARD_WORKERS=${workers})…`)
      const db = await createBenchDatabase(ADMIN_DATABASE_URL)
      const server = await startSwitchyard(command, db.url, { SWITCHYARD_WORKERS: String(workers) })
      const accountId = await setUpAccount(server.baseUrl, provider)
      const load = {
        url: `${server.baseUrl}/unified/ats/applications?page_size=100`,
        headers: { authorization: basicAuth(BENCH_KEY), "x-account-id": accountId },
        connections: 50,
        behind: [server.child, providerProcess]
      }
      await runAutocannon({ ...load, seconds: WARMUP_SECONDS }, scratch)
      const result = await runAutocannon({ ...load, seconds: DURATION }, scratch)
      log(`  ${UNIFIED_LIST} [postgres ×${workers}] c=50: ${result.reqPerSec.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms`)
      fleet.push({ workers, result })
      await server.stop()
      await db.drop()
    }
  }

  const proxyAfter = rssMb(proxyProcess.pid)
  const effectAfter = rssMb(effectProcess.pid)
  // Mapping alone, in a process of its own, while the provider is still up to give it records.
  const rates = JSON.parse(await completed(spawnChild("mapping micro-benchmark", process.execPath, [
    ...SOURCE_FLAGS,
    "bench/mappingBench.ts",
    connector.file,
    provider.baseUrl,
    provider.apiKey
  ], { cwd: serverDir, env: process.env }))) as MappingRates
  await stopAll()
  // in its own process too, once the servers are gone (it measures CPU-bound admission)
  const rateLimitCost = await completed(spawnChild("rate-limit stores", process.execPath, [...SOURCE_FLAGS, "bench/rateLimitStores.ts"], {
    cwd: serverDir,
    env: process.env
  }))

  log("")
  log(`Results (autocannon ${DURATION} s per row after ${WARMUP_SECONDS} s warm-up; latency in whole milliseconds, as autocannon records it)`)
  log("")
  log(resultsTable(rows))
  log("")
  log(formatTable(
    ["RSS", "idle after start", `${IDLE_LATER_SECONDS} s later`, `after first ${FIRST_REQUESTS.toLocaleString("en-US")}`, "after soak", "unified list requests"],
    [
      ...memory.map((m) => [`Switchyard (${m.database})`, formatMb(m.idle), formatMb(m.idleLater), formatMb(m.afterFirst), formatMb(m.afterAll), m.unifiedListRequests.toLocaleString("en-US")]),
      ["hand-written proxy (reference)", formatMb(proxyIdle), "—", "—", `${formatMb(proxyAfter)} (after its rows)`, "—"],
      ["Effect proxy (reference)", formatMb(effectIdle), "—", "—", `${formatMb(effectAfter)} (after its rows)`, "—"]
    ],
    1
  ))
  if (fleet.length > 0) {
    const single = fleet[0]!.result.reqPerSec
    log("")
    log(`A fleet on PostgreSQL: ${UNIFIED_LIST}, 50 clients (CPU counts every process of the server; ${Os.availableParallelism()} cores, shared with the provider stand-in and autocannon)`)
    log(formatTable(
      ["SWITCHYARD_WORKERS", "req/s", "p50 ms", "p99 ms", "CPU ms/req", "req/s ÷ 1 worker"],
      fleet.map(({ result, workers }) => [
        String(workers),
        result.reqPerSec.toFixed(0),
        result.p50.toFixed(0),
        result.p99.toFixed(0),
        result.cpuMsPerRequest === undefined ? "—" : result.cpuMsPerRequest.toFixed(2),
        `${(result.reqPerSec / single).toFixed(2)}×`
      ]),
      1
    ))
  }
  log("")
  for (const note of notes) log(note)
  log("")
  log(`Goals (issue 13); load average now ${Os.loadavg().map((n) => n.toFixed(2)).join(" ")} (other work on this machine skews every row)`)
  log(formatGoals(checkGoals(rows, memory)))

  log("")
  log(`Mapping alone (${rates.fields} fields, 100 Greenhouse applications per call, no HTTP)`)
  log(`  engine (compiled field plan)  ${Math.round(rates.engine).toLocaleString("en-US").padStart(10)} records/s`)
  log(`  hand-written JavaScript       ${Math.round(rates.handWritten).toLocaleString("en-US").padStart(10)} records/s`)
  log(`  engine ÷ hand-written         ${(rates.engine / rates.handWritten).toFixed(2)}×`)
  log("")
  log(rateLimitCost.trimEnd())
}

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    if (interrupted() === undefined) console.error(`\nbench failed: ${error instanceof Error ? error.message : String(error)}`)
    await stopAll()
    process.exit(interrupted() === undefined ? 1 : 130)
  }
)
