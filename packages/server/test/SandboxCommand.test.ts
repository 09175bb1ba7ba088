import { describe, expect, it } from "@effect/vitest"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { freePort, runCli, serverEnv, start, startServing, waitFor } from "./support/ServerProcess.js"

/*
 * `switchyard sandbox <provider>`: a mock of a built-in connector's provider from its own
 * document, and the account body that links the connector to it, printed ready to send. Run as
 * a user runs it: the CLI process, then a server process that allows the mock's address, the
 * printed account linked and a unified call answered from the mock.
 */

const KEY = "swy_sandbox_cmd_key_0123456789abcdef01234"

describe("switchyard sandbox <provider>", () => {
  it("serves the provider's mock and prints the account that links the connector to it", async () => {
    const mockPort = await freePort()
    const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-sandbox-cmd-"))
    const mock = start("src/cli.ts", ["sandbox", "rippling", "--port", String(mockPort), "--seed", "3"], process.env)
    const { base, server } = await startServing("src/main.ts", [], (port) =>
      serverEnv(dataDir, port, { SWITCHYARD_BOOTSTRAP_API_KEY: KEY, SWITCHYARD_OUTBOUND_ALLOWLIST: `127.0.0.1:${mockPort}` }))
    try {
      // the printed account: the line after `-d '`, as a reader copies it
      await waitFor(() => /-d '(\{.*\})'/.test(mock.output()), "the printed account")
      expect(mock.output()).toContain(`SWITCHYARD_OUTBOUND_ALLOWLIST=127.0.0.1:${mockPort}`)
      const account = JSON.parse(/-d '(\{.*\})'/.exec(mock.output())![1]!) as Record<string, any>
      expect(account).toMatchObject({ connector_key: "rippling", settings: { base_url: `http://127.0.0.1:${mockPort}/full-3` } })
      const auth = { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}`, "content-type": "application/json" }
      const linked = await fetch(`${base}/v2/accounts`, { method: "POST", headers: auth, body: JSON.stringify(account) })
      expect(linked.status, await linked.clone().text()).toBe(201)
      const { id } = await linked.json() as { id: string }
      const employees = await fetch(`${base}/unified/hris/employees?page_size=5`, { headers: { ...auth, "x-account-id": id } })
      const body = await employees.json() as { data: Array<Record<string, unknown>> }
      expect(employees.status, JSON.stringify(body)).toBe(200)
      expect(body.data.length).toBeGreaterThan(0)
      // the mock printed the connector's requests, and none broke the document
      await waitFor(() => /✓ GET \/employees/.test(mock.output()), "the mock's record of the request")
      expect(mock.output()).not.toMatch(/✗ (GET|POST|PATCH|PUT|DELETE) /)

      const unknown = await runCli(["sandbox", "nowhere"], process.env)
      expect(unknown.code).toBe(1)
      expect(unknown.output).toContain("no built-in connector nowhere is checked against a provider document; these are:")
    } finally {
      mock.child.kill("SIGTERM")
      server.child.kill("SIGTERM")
      Fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
