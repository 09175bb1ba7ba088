import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { CLUSTER_JOB_DEFAULT_SECONDS } from "../src/platform/jobs/ClusterJobPeriods.js"
import { type Process, startSandboxProcess, stopAll } from "./support/FleetSupport.js"
import { exited, serverEnv, startServing, waitFor } from "./support/ServerProcess.js"
import { freshDatabaseUrl } from "./support/TestServer.js"

/*
 * Three server processes on one PostgreSQL database under fifty clients, one of them killed
 * with SIGKILL mid-load. Each client links an account, then makes idempotent writes (an
 * Idempotency-Key each), sending every write to two processes at once, as a client does that
 * gave up waiting and retried elsewhere. A client retries a write only as a client would:
 * on another process after a network failure, after Retry-After on a 409 or 429, always with
 * the write's own key.
 *
 * Asserted, however slow the machine:
 * - every write is answered, both of its sends with the same result;
 * - the provider saw each write once, or (for writes that were in flight on the killed process)
 *   at most once more per send that met the crash;
 * - nothing acknowledged is lost: every linked account is there, and every key, also the ones
 *   the killed process answered, replays its result on the survivors without another provider call;
 * - each fleet-wide job ran at most once per period (period starts on the database's clock are
 *   at least a period apart, whichever process ran them).
 */

const KEY = "swy_test_fleet_crash_key_0123456789abcd"
const auth = { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` }
const CLIENTS = 50
const WRITES_PER_CLIENT = 4
const JOB_PERIOD_SECONDS = 2
const CLUSTER_JOBS = Object.keys(CLUSTER_JOB_DEFAULT_SECONDS)
const REQUEST_TIMEOUT = 180_000

interface Answer {
  readonly status: number
  readonly retryAfter: string | null
  readonly body: string
}

/** One request; a network failure (refused, reset, the process gone) is `undefined`. */
const send = async (base: string, method: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
  try {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...auth, "content-type": "application/json", ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT)
    })
    return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.text() } as Answer
  } catch (error) {
    if (error instanceof Error && error.name === "TimeoutError") throw new Error(`${method} ${path} was never answered`)
    return undefined
  }
}

const waitSeconds = (retryAfter: string | null) =>
  new Promise((resolve) => setTimeout(resolve, 1000 * Number(retryAfter ?? "1")))

/** Period starts (µs since the epoch) of each cluster job, from the `cluster job ran` lines of `outputs`. */
const jobRuns = (outputs: ReadonlyArray<string>) => {
  const runs = new Map<string, Array<number>>()
  for (const output of outputs) {
    for (const match of output.matchAll(/message="cluster job ran" .*?job=(\w+).*? period_start=(\S+)/g)) {
      const [, job, startIso] = match
      const [seconds, fraction] = startIso!.replace("Z", "").split(".")
      const micros = Date.parse(`${seconds}Z`) * 1000 + Number(fraction)
      runs.set(job!, [...(runs.get(job!) ?? []), micros].sort((a, b) => a - b))
    }
  }
  return runs
}

const scenario = async (databaseUrl: string) => {
  const processes: Array<Process> = []
  try {
    const sandbox = await startSandboxProcess(processes)
    const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-fleet-crash-"))
    const environment = serverEnv(dataDir, 0, {
      DATABASE_URL: databaseUrl,
      SWITCHYARD_BOOTSTRAP_API_KEY: KEY,
      SWITCHYARD_ENCRYPTION_KEY: Crypto.randomBytes(32).toString("hex"),
      SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1",
      // claims of a killed process are taken over after three missed heartbeats (15 s)
      SWITCHYARD_INSTANCE_HEARTBEAT_SECONDS: "5",
      SWITCHYARD_JOB_PERIODS: CLUSTER_JOBS.map((job) => `${job}=${JOB_PERIOD_SECONDS}`).join(","),
      LOG_LEVEL: "INFO"
    })
    const startServer = async () => {
      const { base, server } = await startServing("src/main.ts", [], (port) => ({ ...environment, PORT: String(port) }), {
        inProcess: true,
        started: (server) => processes.push(server)
      })
      return { base, server }
    }
    // the first migrates the database, the others join it
    const servers = [await startServer()]
    servers.push(...await Promise.all([startServer(), startServer()]))
    const bases = servers.map((server) => server.base)
    const victim = servers[2]!
    const writePath = "/api/gateway.php/" + sandbox.hris.companyDomain + "/v1/employees/101"

    /**
     * Sends until answered, as a client would: the next process after a network failure,
     * the same one after Retry-After on 409 (the key's write still running) or 429.
     */
    const untilAnswered = async (first: number, path: string, body: unknown, headers: Record<string, string>) => {
      let target = first
      let networkFailures = 0
      for (;;) {
        const answer = await send(bases[target]!, "POST", path, body, headers)
        if (answer === undefined) {
          networkFailures++
          target = (target + 1) % bases.length
        } else if (answer.status === 409 || answer.status === 429) {
          await waitSeconds(answer.retryAfter)
        } else {
          return { answer, answeredBy: target, networkFailures }
        }
      }
    }

    let answered = 0
    let killed: Promise<number | null> | undefined
    const totalWrites = CLIENTS * WRITES_PER_CLIENT
    /** SIGKILL to the victim once a third of the writes are answered, while the rest are in flight. */
    const onAnswered = () => {
      answered++
      if (killed === undefined && answered >= totalWrites / 3) {
        killed = exited(victim.server.child)
        victim.server.child.kill("SIGKILL")
      }
    }

    const accounts: Array<string> = []
    const writes: Array<{ key: string; accountId: string; marker: string; results: Array<string>; networkFailures: number; answeredBy: Array<number> }> = []
    await Promise.all(Array.from({ length: CLIENTS }, async (_, client) => {
      const linked = await untilAnswered(client % bases.length, "/v2/accounts", {
        connector_key: "bamboohr",
        connector_version: "1.0.0",
        name: `Fleet ${client}`,
        owner_id: `owner-${client}`,
        credentials: { apiKey: sandbox.hris.apiKey, subdomain: sandbox.hris.companyDomain },
        settings: { base_url: sandbox.hris.baseUrl }
      }, {})
      expect(linked.answer.status, linked.answer.body).toBe(201)
      const accountId = (JSON.parse(linked.answer.body) as { id: string }).id
      accounts.push(accountId)
      for (let n = 0; n < WRITES_PER_CLIENT; n++) {
        const key = `fleet-${client}-${n}-${Crypto.randomBytes(4).toString("hex")}`
        const marker = `Writer${client}x${n}`
        const body = { action: "hris_update_employee", path: { id: "101" }, body: { first_name: marker } }
        const headers = { "x-account-id": accountId, "idempotency-key": key }
        const first = (client + n) % bases.length
        const sends = await Promise.all([first, (first + 1) % bases.length].map((target) =>
          untilAnswered(target, "/actions/rpc", body, headers)
        ))
        onAnswered()
        writes.push({
          key,
          accountId,
          marker,
          results: sends.map((sent) => `${sent.answer.status} ${sent.answer.body}`),
          networkFailures: sends.reduce((sum, sent) => sum + sent.networkFailures, 0),
          answeredBy: sends.map((sent) => sent.answeredBy)
        })
      }
    }))
    expect(killed).toBeDefined()
    expect(await killed).toBe(null)
    const survivors = bases.filter((base) => base !== victim.base)

    // every write answered, both sends alike
    expect(writes).toHaveLength(totalWrites)
    for (const write of writes) {
      expect(write.results[0], write.key).toMatch(/^200 /)
      expect(write.results[1], write.key).toBe(write.results[0])
    }
    // the crash met writes in flight, and the killed process had acknowledged some before it
    expect(writes.some((write) => write.networkFailures > 0)).toBe(true)
    expect(writes.some((write) => write.answeredBy.includes(2))).toBe(true)

    const seen = (await (await fetch(`${sandbox.origin}/_sandbox/requests?provider=hris`)).json()) as Array<
      { method: string; path: string; body?: string; at: string; faults: Array<string>; headers: Record<string, unknown> }
    >
    const sentFor = (marker: string) =>
      seen.filter((request) => request.method === "POST" && request.path === writePath && (request.body ?? "").includes(`"${marker}"`))
    for (const write of writes) {
      const sent = sentFor(write.marker)
      // when a write reaches the provider more often than its sends met the crash, the failure says when each
      // arrived and what the sends were answered, to tell a takeover from a retry
      const detail = `${write.key}: sent at ${sent.map((request) => `${request.at} (faults ${request.faults.join(",") || "none"})`).join(", ")}; ` +
        `answered by ${write.answeredBy.join(",")}: ${write.results.map((result) => result.slice(0, 120)).join(" | ")}`
      expect(sent.length, detail).toBeGreaterThanOrEqual(1)
      expect(sent.length, detail).toBeLessThanOrEqual(1 + write.networkFailures)
    }

    // nothing acknowledged is lost: accounts, and every key's result (replayed, not sent again)
    const providerCallsBefore = seen.length
    for (const [index, accountId] of accounts.entries()) {
      const response = await fetch(`${survivors[index % survivors.length]}/v2/accounts/${accountId}`, { headers: auth })
      expect(response.status, accountId).toBe(200)
    }
    for (const [index, write] of writes.entries()) {
      const replay = await send(
        survivors[index % survivors.length]!,
        "POST",
        "/actions/rpc",
        { action: "hris_update_employee", path: { id: "101" }, body: { first_name: write.marker } },
        { "idempotency-key": write.key, "x-account-id": write.accountId }
      )
      expect(`${replay?.status} ${replay?.body}`, write.key).toBe(write.results[0])
    }
    const after = (await (await fetch(`${sandbox.origin}/_sandbox/requests?provider=hris`)).json()) as Array<unknown>
    expect(after).toHaveLength(providerCallsBefore)

    // each fleet-wide job at most once per period, across all three processes' logs
    await waitFor(() => CLUSTER_JOBS.every((job) => (jobRuns(servers.map((s) => s.server.output())).get(job)?.length ?? 0) >= 3), "three runs of each cluster job")
    const runs = jobRuns(servers.map((s) => s.server.output()))
    for (const job of CLUSTER_JOBS) {
      const starts = runs.get(job)!
      const gaps = starts.slice(1).map((at, i) => at - starts[i]!)
      expect(gaps.filter((gap) => gap < JOB_PERIOD_SECONDS * 1_000_000), job).toEqual([])
    }
  } finally {
    await stopAll(processes.filter((process) => process.child.exitCode === null && process.child.signalCode === null))
  }
}

describe.skipIf(process.env.DATABASE_URL === undefined || process.env.DATABASE_URL === "")("a fleet that loses a process", () => {
  it.scoped("three processes, fifty clients, one killed mid-load: writes run once, nothing acknowledged is lost, jobs once per period", () =>
    Effect.gen(function*() {
      const databaseUrl = yield* freshDatabaseUrl
      yield* Effect.promise(() => scenario(databaseUrl!))
    }), 900_000)
})
