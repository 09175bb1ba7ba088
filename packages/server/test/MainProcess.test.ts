import { describe, expect, it } from "@effect/vitest"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { exited, freePort, runCli, serverEnv, serving, start, startServing, waitFor } from "./support/ServerProcess.js"

describe("the server process", () => {
  it("starts on the embedded default, prints a usable key once, shares its database with the CLI and stops on SIGTERM", async () => {
    const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-main-"))
    const { server, base, environment } = await startServing("src/main.ts", [], (port) => serverEnv(dataDir, port))
    await waitFor(() => /swy_[A-Za-z0-9_-]{43}/.test(server.output()), "the printed key")
    const key = server.output().match(/swy_[A-Za-z0-9_-]{43}/)![0]

    const auth = { authorization: `Basic ${Buffer.from(`${key}:`).toString("base64")}` }
    const listed = await fetch(`${base}/v2/accounts`, { headers: auth, signal: AbortSignal.timeout(60_000) })
    expect(listed.status).toBe(200)
    expect(await listed.json()).toEqual([])
    // /mcp sits beside the HttpApi on the router: mounted in the real server too.
    const mcp = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: "{}",
      signal: AbortSignal.timeout(60_000)
    })
    expect(mcp.status).toBe(400)
    expect(((await mcp.json()) as { message: string }).message).toContain("x-account-id")

    // The CLI reaches the running server's embedded database.
    const projects = await runCli(["projects", "list"], environment)
    expect(projects.code).toBe(0)
    expect(projects.output).toContain("Default project")
    const projectId = projects.output.match(/^([0-9a-f-]{36})/m)![1]!
    const created = await runCli(["keys", "create", "--project", projectId, "--scope", "read_only"], environment)
    expect(created.code).toBe(0)
    const readOnlyKey = created.output.match(/swy_[A-Za-z0-9_-]{43}/)![0]
    const readOnly = { authorization: `Basic ${Buffer.from(`${readOnlyKey}:`).toString("base64")}` }
    expect((await fetch(`${base}/v2/accounts`, { headers: readOnly, signal: AbortSignal.timeout(60_000) })).status).toBe(200)
    expect((await fetch(`${base}/v2/accounts/x`, { method: "DELETE", headers: readOnly, signal: AbortSignal.timeout(60_000) })).status).toBe(403)
    const keyId = created.output.match(/key ([0-9a-f-]{36}) for project/)![1]!
    expect((await runCli(["keys", "revoke", keyId], environment)).code).toBe(0)
    const bad = await runCli(["keys", "create", "--project", "nope"], environment)
    expect(bad.code).toBe(1)
    expect(bad.output).toContain("no project has id nope")

    const stopped = exited(server.child)
    server.child.kill("SIGTERM")
    expect(await stopped).toBe(0)
    expect(Fs.existsSync(Path.join(dataDir, "server.lock"))).toBe(false)

    // A restart keeps the data and prints no new key; the revoked key stays revoked.
    const again = start("src/main.ts", [], environment)
    await serving(again, base, "healthz after restart")
    expect((await fetch(`${base}/v2/accounts`, { headers: auth, signal: AbortSignal.timeout(60_000) })).status).toBe(200)
    expect((await fetch(`${base}/v2/accounts`, { headers: readOnly, signal: AbortSignal.timeout(60_000) })).status).toBe(401)
    expect(again.output()).not.toMatch(/swy_/)
    const stoppedAgain = exited(again.child)
    again.child.kill("SIGINT")
    expect(await stoppedAgain).toBe(0)
  }, 600_000)

  it("refuses to start on PostgreSQL without SWITCHYARD_ENCRYPTION_KEY or with a malformed one, saying which, with a failing exit code", async () => {
    // Nothing listens on port 1: the key is checked before the database is opened.
    const base = serverEnv(Os.tmpdir(), await freePort(), { DATABASE_URL: "postgres://postgres@127.0.0.1:1/none" })
    for (
      const [extra, says] of [
        [{}, "SWITCHYARD_ENCRYPTION_KEY is required with DATABASE_URL"],
        [{ SWITCHYARD_ENCRYPTION_KEY: "abcd" }, "SWITCHYARD_ENCRYPTION_KEY must hold 32-byte keys"],
        [{ SWITCHYARD_ENCRYPTION_KEY: "ab".repeat(32), SWITCHYARD_PREVIOUS_ENCRYPTION_KEYS: "short" }, "SWITCHYARD_PREVIOUS_ENCRYPTION_KEYS must hold 32-byte keys"]
      ] as const
    ) {
      const server = start("src/main.ts", [], { ...base, ...extra, LOG_LEVEL: "INFO" })
      const code = await exited(server.child)
      expect({ code, says: server.output().includes(says) }).toEqual({ code: 1, says: true })
    }
  }, 600_000)
})
