import { describe, expect, it } from "@effect/vitest"
import { startSandbox } from "@switchyard/sandbox"
import { Effect } from "effect"
import { type Process, stopAll } from "./support/FleetSupport.js"
import { gatedProvider } from "./support/GatedProvider.js"
import { sandboxBambooAccount } from "./support/SandboxLayer.js"
import { postJson, sharedDatabaseEnv, startServing, waitFor } from "./support/ServerProcess.js"
import { freshDatabaseUrl } from "./support/TestServer.js"

/*
 * A process that stalls (here: SIGSTOP) past three missed heartbeats while it runs a keyed
 * write has its claim taken over by another process, which runs the write when the client
 * retries there. When the stalled process wakes up, its run must not go on to write too: it
 * stops before its next provider request and answers 409. BambooHR 1.1.0's employee update
 * with a job title reads the employee's job (GET) before it writes (POST): the GET is held at
 * the provider while the process is stopped, so the writes are still ahead when it wakes up.
 */

const KEY = "swy_test_takeover_key_0123456789abcdef"
const postgres = process.env.DATABASE_URL !== undefined && process.env.DATABASE_URL.length > 0

describe.skipIf(!postgres)("idempotency when a process stalls", () => {
  it.scoped("a run whose claim was taken over during a stall stops before its provider write: the write runs once", () =>
    Effect.gen(function*() {
      const databaseUrl = (yield* freshDatabaseUrl)!
      const sandbox = yield* Effect.acquireRelease(
        Effect.promise(() => startSandbox({ seed: 11 })),
        (sandbox) => Effect.promise(() => sandbox.close())
      )
      const provider = yield* gatedProvider(sandbox.hris.url)
      yield* Effect.promise(async () => {
        const environmentFor = sharedDatabaseEnv(databaseUrl, KEY, { SWITCHYARD_INSTANCE_HEARTBEAT_SECONDS: "1" })
        const servers: Array<Process> = []
        const serve = () => startServing("src/main.ts", [], environmentFor, { inProcess: true, started: (server) => servers.push(server) })
        try {
          // one after the other: the first migrates the database
          const stalling = await serve()
          const other = await serve()
          const linked = await postJson(stalling.base, "/v2/accounts", {
            ...sandboxBambooAccount(sandbox, { connector_version: "1.1.0" }),
            settings: { base_url: `${provider.url}/api/gateway.php/${sandbox.hris.companyDomain}/v1` }
          }, KEY)
          expect(linked.status).toBe(201)
          const write = (base: string) =>
            postJson(base, "/actions/rpc", {
              action: "hris_update_employee",
              path: { id: "101" },
              // a new job title: the connector reads the current job before it writes
              body: { first_name: "Once", job_title: "Staff Engineer" }
            }, KEY, { "x-account-id": linked.json.id, "idempotency-key": "stall-1" })
          const writes = () => sandbox.requests().filter((request) => request.method === "POST").length

          // the stalling process claims the key and reads the employee; the provider holds the read
          provider.gate.hold(1)
          const stalled = write(stalling.base)
          await waitFor(() => provider.gate.waiting() === 1, "the held read at the provider")
          stalling.server.child.kill("SIGSTOP")

          // three missed heartbeats later the other process takes the claim over and writes
          let answer = await write(other.base)
          await waitFor(async () => {
            if (answer.status !== 409) return true
            expect(answer.json.message).toBe("A request with Idempotency-Key stall-1 is still running")
            answer = await write(other.base)
            return false
          }, "the other process to take the run over")
          expect({ status: answer.status, body: answer.json }).toMatchObject({ status: 200 })
          const written = writes()
          expect(written).toBeGreaterThan(0)

          // the stalled process wakes up and gets the employee it read: its write must not follow
          stalling.server.child.kill("SIGCONT")
          provider.gate.release()
          const woken = await stalled
          expect({ status: woken.status, message: woken.json.message, retryAfter: woken.headers.get("retry-after") }).toEqual({
            status: 409,
            message: "The run of Idempotency-Key stall-1 was taken over by another server process " +
              "(this one missed its heartbeats) and was stopped before its next provider request; retry for its result",
            retryAfter: "1"
          })
          expect(writes()).toBe(written)

          // a retry on either process replays the one write's result; the woken process serves on
          for (const base of [stalling.base, other.base]) {
            const replay = await write(base)
            expect({ status: replay.status, body: replay.json }).toEqual({ status: 200, body: answer.json })
          }
          expect(writes()).toBe(written)
        } finally {
          for (const server of servers) server.child.kill("SIGCONT")
          provider.gate.release()
          await stopAll(servers)
        }
      })
    }), 600_000)
})
