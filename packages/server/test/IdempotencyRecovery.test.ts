import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { type Sandbox, startSandbox } from "@switchyard/sandbox"
import { Effect, Fiber, Layer } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { freshProject } from "./support/Fixtures.js"
import { SandboxLive, SandboxProviders, sandboxBambooAccount } from "./support/SandboxLayer.js"
import { exited, serverEnv, type start, startServing, waitFor } from "./support/ServerProcess.js"
import { freshDatabaseUrl, TestServer } from "./support/TestServer.js"
import { expectErrorBody, json, send, withKey } from "./support/Wire.js"

/*
 * An Idempotency-Key whose write was in flight when its server was killed is not locked
 * for a day: after a restart the client's retry runs the write, once. Embedded by default;
 * on a fresh PostgreSQL database when DATABASE_URL is set.
 */

const KEY = "swy_test_recovery_key_0123456789abcdef"
const auth = { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` }
const REQUEST_TIMEOUT = 60_000

const hrisAccount = (sandbox: Sandbox) =>
  sandboxBambooAccount(sandbox, { connector_version: "1.0.0" })

const employeePath = (sandbox: Sandbox) => `/api/gateway.php/${sandbox.hris.companyDomain}/v1/employees/101`
const updateEmployee = { action: "hris_update_employee", path: { id: "101" }, body: { first_name: "Recovered" } }

const scenario = async (sandbox: Sandbox, databaseUrl: string | undefined) => {
  const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-recovery-"))
  const encryptionKey = Crypto.randomBytes(32).toString("hex")
  const environmentFor = (port: number) => serverEnv(dataDir, port, {
    SWITCHYARD_BOOTSTRAP_API_KEY: KEY,
    SWITCHYARD_ENCRYPTION_KEY: encryptionKey,
    SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1",
    SWITCHYARD_INSTANCE_HEARTBEAT_SECONDS: "1",
    ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl })
  })
  const servers: Array<ReturnType<typeof start>> = []
  // the restart may land on another port: what it must keep is the data (and the claim in it)
  let base = ""
  const startServer = async () => {
    const started = await startServing("src/main.ts", [], environmentFor, {
      inProcess: true,
      started: (server) => servers.push(server)
    })
    base = started.base
    return started.server
  }
  try {
    const first = await startServer()
    const linked = await fetch(`${base}/v2/accounts`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify(hrisAccount(sandbox)),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT)
    })
    expect(linked.status).toBe(201)
    const account = (await linked.json()) as { id: string }

    const path = employeePath(sandbox)
    const posts = () => sandbox.requests().filter((request) => request.method === "POST" && request.path === path)
    const write = () =>
      fetch(`${base}/actions/rpc`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json", "x-account-id": account.id, "idempotency-key": "crash-1" },
        body: JSON.stringify(updateEmployee),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT)
      })

    // the provider holds the first write; the server is killed while it waits
    sandbox.faults.add({ match: { method: "POST", path }, fault: "timeout", times: 1 })
    const held = write().then(async (response) => `${response.status} ${await response.text()}`, () => "no answer")
    await waitFor(() => posts().length === 1, "the held write at the provider")
    const killed = exited(first.child)
    first.child.kill("SIGKILL")
    await killed
    expect(await held).toBe("no answer")

    await startServer()
    // the claim of the killed process is taken over; until then a retry is told when to come back
    let answer = await write()
    await waitFor(async () => {
      if (answer.status !== 409) return true
      expect(answer.headers.get("retry-after")).toMatch(/^[1-9]\d*$/)
      answer = await write()
      return false
    }, "the retry to run", 120_000)
    expect(answer.status).toBe(200)
    const result = await answer.json()
    expect(posts().map((request) => request.faults)).toEqual([[expect.stringContaining("timeout")], []])

    // the key now replays the first result without another provider call
    const again = await write()
    expect(again.status).toBe(200)
    expect(await again.json()).toEqual(result)
    expect(posts()).toHaveLength(2)
  } finally {
    for (const server of servers) {
      const stopped = exited(server.child)
      server.child.kill("SIGTERM")
      await stopped
    }
  }
}

describe("idempotency across a crash", () => {
  it.scoped("a write held when the server is killed runs once when the client retries after a restart", () =>
    Effect.gen(function*() {
      const databaseUrl = yield* freshDatabaseUrl
      const sandbox = yield* Effect.acquireRelease(
        Effect.promise(() => startSandbox({ seed: 7 })),
        (sandbox) => Effect.promise(() => sandbox.close())
      )
      yield* Effect.promise(() => scenario(sandbox, databaseUrl))
    }), 600_000)
})

layer(Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive()), { excludeTestServices: true })(
  "idempotency while the first run lives",
  (it) => {
    it.effect("a retry while the keyed write is still running answers 409 with Retry-After and sends nothing", () =>
      Effect.gen(function*() {
        const sandbox = yield* SandboxProviders
        const project = yield* freshProject
        const account = yield* project.client.accounts.create_account({ payload: hrisAccount(sandbox) })
        sandbox.clearRequests()
        const path = employeePath(sandbox)
        const posts = () => sandbox.requests().filter((request) => request.method === "POST" && request.path === path)
        const write = send(
          HttpClientRequest.post("/actions/rpc").pipe(
            json(updateEmployee),
            HttpClientRequest.setHeader("x-account-id", account.id),
            HttpClientRequest.setHeader("idempotency-key", "live-1"),
            withKey(project.key)
          )
        )
        // the provider holds the first write for as long as the test needs
        sandbox.faults.add({ match: { method: "POST", path }, fault: "timeout", times: 1 })
        const first = yield* Effect.fork(write)
        yield* Effect.promise(() => waitFor(() => posts().length === 1, "the held write at the provider"))

        const retry = yield* write
        expectErrorBody(retry, 409)
        expect(retry.headers["retry-after"]).toMatch(/^[1-9]\d*$/)
        expect(posts()).toHaveLength(1)
        yield* Fiber.interrupt(first)
      }))
  }
)
