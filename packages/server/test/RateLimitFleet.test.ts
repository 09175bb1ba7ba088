import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { type Process, startSandboxProcess, stopAll } from "./support/FleetSupport.js"
import { serverEnv, startServing } from "./support/ServerProcess.js"
import { freshDatabaseUrl } from "./support/TestServer.js"

/*
 * A provider's per-account rate limit holds across a fleet: three server processes on one
 * PostgreSQL database (and, with REDIS_URL, counting in Redis), fifty clients calling one
 * Greenhouse account (10 requests per second) through all three at once. The sandbox runs as
 * its own process and stamps each request as it arrives.
 *
 * What is asserted holds however slow the machine: slots are 100 ms apart on one schedule
 * for the whole fleet, none before the load starts, and a request arrives after its slot. So
 * by any time t the provider has seen at most one request per 100 ms since the start (+10%),
 * and a delay only moves arrivals later. (Counting arrivals per sliding second would not be:
 * a process stalled by a busy machine sends the calls whose slots passed meanwhile together,
 * which on this 2-core machine put up to 18 arrivals into one second while the run averaged 9
 * a second. The same run with SWITCHYARD_RATE_LIMIT_STORE=memory, each process limiting on its
 * own, fails it.)
 */

const KEY = "swy_test_fleet_key_0123456789abcdef"
const auth = { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` }
const REQUEST_TIMEOUT = 120_000
const LIMIT = 10
const CLIENTS = 50
const CALLS_PER_CLIENT = 8
const PROCESSES = 3

const call = async (base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...auth, "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT)
  })
  return { status: response.status, headers: response.headers, json: (await response.json()) as Record<string, any> }
}

/**
 * Arrivals beyond the limit since `start`: the k-th (from 0) may not come before k slots of
 * 1/LIMIT s have passed, with 10% tolerance; the ones that came too early.
 */
const aheadOfTheLimit = (arrivals: ReadonlyArray<number>, start: number) =>
  [...arrivals].sort((a, b) => a - b).flatMap((at, k) => {
    const allowed = 1.1 * (1 + ((at - start) * LIMIT) / 1000)
    return k + 1 > allowed ? [{ k, afterMs: at - start }] : []
  })

const fleetScenario = async (databaseUrl: string, store: Record<string, string>) => {
  const processes: Array<Process> = []
  try {
    const sandbox = await startSandboxProcess(processes)
    const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-fleet-"))
    const encryptionKey = Crypto.randomBytes(32).toString("hex")
    const { REDIS_URL: _ignored, ...inherited } = serverEnv(dataDir, 0)
    const startServer = async () => {
      const { base } = await startServing("src/main.ts", [], (port) => ({
        ...inherited,
        PORT: String(port),
        DATABASE_URL: databaseUrl,
        SWITCHYARD_BOOTSTRAP_API_KEY: KEY,
        SWITCHYARD_ENCRYPTION_KEY: encryptionKey,
        SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1",
        ...store
      }), { inProcess: true, started: (server) => processes.push(server) })
      return base
    }
    // the first migrates the database, the others join it
    const bases = [await startServer()]
    bases.push(...await Promise.all(Array.from({ length: PROCESSES - 1 }, startServer)))

    const account = await call(bases[0]!, "POST", "/v2/accounts", {
      connector_key: "greenhouse",
      name: "Fleet",
      owner_id: "owner-fleet",
      credentials: { apiKey: sandbox.ats.apiKey },
      settings: { base_url: sandbox.ats.baseUrl, onBehalfOf: String(sandbox.ats.onBehalfOf) }
    })
    expect(account.status).toBe(201)
    await fetch(`${sandbox.origin}/_sandbox/requests`, { method: "DELETE" })

    const loadStarted = Date.now()
    const answers = await Promise.all(Array.from({ length: CLIENTS }, async (_, client) => {
      const mine: Array<{ status: number; retryAfter: string | null; message: unknown }> = []
      for (let n = 0; n < CALLS_PER_CLIENT; n++) {
        const answer = await call(
          bases[(client + n) % bases.length]!,
          "POST",
          "/actions/rpc",
          { action: "ats_list_applications", query: { page_size: 1 } },
          { "x-account-id": account.json.id }
        )
        mine.push({ status: answer.status, retryAfter: answer.headers.get("retry-after"), message: answer.json.message })
      }
      return mine
    })).then((all) => all.flat())

    const seen = (await (await fetch(`${sandbox.origin}/_sandbox/requests?provider=ats`)).json()) as Array<{ path: string; at: string }>
    const arrivals = seen.filter((request) => request.path === "/v1/applications").map((request) => Date.parse(request.at))
    const admitted = answers.filter((answer) => answer.status === 200)
    const refused = answers.filter((answer) => answer.status !== 200)

    // every call was sent once or refused before it was sent
    expect(arrivals).toHaveLength(admitted.length)
    expect(admitted.length).toBeGreaterThan(LIMIT)
    for (const answer of refused) {
      expect(answer.status).toBe(429)
      expect(answer.retryAfter).toMatch(/^[1-9]\d*$/)
      expect(answer.message).toContain("too many calls to greenhouse")
    }
    // the limit, for the fleet, at every moment the provider saw
    expect(aheadOfTheLimit(arrivals, loadStarted)).toEqual([])
  } finally {
    await stopAll(processes)
  }
}

const withPostgres = process.env.DATABASE_URL !== undefined && process.env.DATABASE_URL !== ""

describe("provider rate limits across a fleet", () => {
  it.scoped.skipIf(!withPostgres)("three processes on one PostgreSQL keep one account's limit", () =>
    Effect.gen(function*() {
      const databaseUrl = yield* freshDatabaseUrl
      yield* Effect.promise(() => fleetScenario(databaseUrl!, { SWITCHYARD_RATE_LIMIT_STORE: "postgres" }))
    }), 900_000)

  it.scoped.skipIf(!withPostgres || process.env.REDIS_URL === undefined)(
    "three processes counting in Redis keep one account's limit",
    () =>
      Effect.gen(function*() {
        const databaseUrl = yield* freshDatabaseUrl
        yield* Effect.promise(() =>
          fleetScenario(databaseUrl!, {
            REDIS_URL: process.env.REDIS_URL!,
            SWITCHYARD_RATE_LIMIT_STORE: "redis",
            // a prefix of this run's own: parallel runs never share counters
            SWITCHYARD_REDIS_KEY_PREFIX: `switchyard-test:${Crypto.randomBytes(6).toString("hex")}:`
          })
        )
      }),
    900_000
  )
})
