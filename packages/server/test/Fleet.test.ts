import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import {
  isRunning,
  request,
  type ServerHandle,
  startedWorkers,
  waitForWorkers,
  workerExited
} from "./support/FleetSupport.js"
import { exited, freePort, serverEnv, start, startServing, waitFor } from "./support/ServerProcess.js"
import { emptyDatabaseUrl } from "./support/TestServer.js"

/*
 * SWITCHYARD_WORKERS: server processes on one port (Node's cluster) over one PostgreSQL
 * database. Needs DATABASE_URL, except the embedded default's refusal to run more than one.
 */

const KEY = "swy_test_fleet_key_0123456789abcdef0123"
const auth = { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` }
const postgres = process.env.DATABASE_URL !== undefined && process.env.DATABASE_URL.length > 0

const clusterEnv = (databaseUrl: string | undefined, port: number, extra: Record<string, string>) =>
  serverEnv(Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-fleet-")), port, {
    SWITCHYARD_BOOTSTRAP_API_KEY: KEY,
    SWITCHYARD_ENCRYPTION_KEY: Crypto.randomBytes(32).toString("hex"),
    SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1",
    LOG_LEVEL: "INFO",
    ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
    ...extra
  })

/** Workers that answered `path` (each answer's log line names its worker and the route). */
const workersThatAnswered = (server: ServerHandle, path: string) =>
  new Set(
    server.output().split("\n")
      .filter((line) => line.includes("Sent HTTP response") && line.includes(`http.route=${path}`))
      .map((line) => line.match(/ worker=(\d+)/)?.[1])
      .filter((id) => id !== undefined)
  )

/** Asks `path` on new connections until `count` different workers have answered it. */
const untilWorkersAnswer = (server: ServerHandle, base: string, path: string, count: number) =>
  waitFor(async () => {
    await Promise.all(Array.from({ length: count }, () => request(`${base}${path}`).catch(() => undefined)))
    return workersThatAnswered(server, path).size >= count
  }, `${count} workers answering ${path}`)

const stop = async (server: ServerHandle) => {
  const stopped = exited(server.child)
  server.child.kill("SIGTERM")
  return stopped
}

describe("a fleet on the embedded default", () => {
  it("the embedded default runs one process when asked for two, saying why", async () => {
    const { base, server } = await startServing(
      "src/main.ts",
      [],
      (port) => clusterEnv(undefined, port, { SWITCHYARD_WORKERS: "2" }),
      { inProcess: true }
    )
    try {
      expect(server.output()).toContain("SWITCHYARD_WORKERS=2 needs DATABASE_URL (PostgreSQL)")
      expect(startedWorkers(server)).toEqual([])
      expect((await request(`${base}/readyz`)).status).toBe(200)
    } finally {
      expect(await stop(server)).toBe(0)
    }
  }, 600_000)

})

describe.skipIf(!postgres)("a fleet of server processes on PostgreSQL", () => {
  it.scoped("two workers serve one port, a killed worker is replaced, SIGTERM stops all with exit code 0", () =>
    Effect.gen(function*() {
      // empty: the two workers start together and migrate it once (the migrations' lock)
      const databaseUrl = yield* emptyDatabaseUrl
      yield* Effect.promise(async () => {
        const port = await freePort()
        const base = `http://127.0.0.1:${port}`
        const server = start("src/main.ts", [], clusterEnv(databaseUrl, port, { SWITCHYARD_WORKERS: "2" }), { inProcess: true })
        let code: number | null = null
        try {
          await waitForWorkers(server, 2)
          await untilWorkersAnswer(server, base, "/readyz", 2)
          const [first, second] = startedWorkers(server)
          expect(first!.pid).not.toBe(second!.pid)

          process.kill(first!.pid, "SIGKILL")
          await waitFor(() => workerExited(server, first!.id), "the killed worker's exit")
          expect(server.output()).toMatch(new RegExp(`worker ${first!.id} exited on SIGKILL; a new one starts`))
          await waitForWorkers(server, 3)
          const replacement = startedWorkers(server)[2]!
          await waitFor(async () => {
            await request(`${base}/readyz`).catch(() => undefined)
            return workersThatAnswered(server, "/readyz").has(String(replacement.id))
          }, "the replacement answering")
          expect((await request(`${base}/v2/accounts`, { headers: auth })).status).toBe(200)
        } finally {
          code = await stop(server)
        }
        expect(code).toBe(0)
        for (const worker of startedWorkers(server)) expect(isRunning(worker.pid)).toBe(false)
      })
    }), 600_000)

})
