import { describe, expect, it } from "@effect/vitest"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { exited, runCli, serverEnv, startServing } from "./support/ServerProcess.js"

/*
 * An operator lets an application embed the connect page: `projects update` with the CLI next
 * to a running server (embedded database), then the page's CSP frame-ancestors says so.
 */

const KEY = "swy_frame_origins_test_key_0123456789abcdef"
const USAGE = "Usage: switchyard <command>"

describe("the connect page's frame origins", () => {
  it("are set, shown, refused when not origins, and cleared with the CLI; /connect's CSP follows them", async () => {
    const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-frame-origins-"))
    const { server, base, environment } = await startServing(
      "src/main.ts",
      [],
      (port) => serverEnv(dataDir, port, { SWITCHYARD_BOOTSTRAP_API_KEY: KEY })
    )
    const frameAncestors = async () => {
      const created = await fetch(`${base}/connect_sessions`, {
        method: "POST",
        headers: { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}`, "content-type": "application/json" },
        body: JSON.stringify({ origin_owner_id: "customer-1", origin_owner_name: "Acme Inc" }),
        signal: AbortSignal.timeout(60_000)
      })
      expect(created.status).toBe(201)
      const { auth_link_url } = await created.json() as { auth_link_url: string }
      const page = await fetch(auth_link_url, { signal: AbortSignal.timeout(60_000) })
      expect(page.status).toBe(200)
      return /frame-ancestors ([^;]*)$/.exec(page.headers.get("content-security-policy") ?? "")?.[1]
    }
    try {
      const listed = await runCli(["projects", "list"], environment)
      expect(listed.output).toMatch(/^id\s+organization\s+name\s+immutable\s+connect_frame_origins\s+log_bodies\s+created$/m)
      const [, projectId] = listed.output.match(/^([0-9a-f-]{36})\s.*Default project\s+on\s+none\s/m)!
      expect(await frameAncestors()).toBe("'none'")

      const set = await runCli([
        "projects",
        "update",
        projectId!,
        "--connect-frame-origin",
        "https://App.Example.com:443/",
        "--connect-frame-origin",
        "http://localhost:3000",
        "--connect-frame-origin",
        "https://app.example.com"
      ], environment)
      expect({ code: set.code, output: set.output.trim() }).toEqual({
        code: 0,
        output: `the connect page of project ${projectId} may be framed by https://app.example.com, http://localhost:3000`
      })
      expect((await runCli(["projects", "list"], environment)).output).toMatch(
        new RegExp(`^${projectId}\\s.*\\son\\s+https://app\\.example\\.com,http://localhost:3000\\s`, "m")
      )
      expect(await frameAncestors()).toBe("https://app.example.com http://localhost:3000")

      for (
        const [args, says] of [
          [["--connect-frame-origin", "https://app.example.com/embed"], "it may not have a path"],
          [["--connect-frame-origin", "https://*.example.com"], "wildcards are not allowed"],
          [["--connect-frame-origin", "app.example.com"], "write scheme, host and optional port"],
          [["--connect-frame-origin", "https://a.example", "--clear-connect-frame-origins"], "not both"],
          [[], "nothing to update"]
        ] as const
      ) {
        const refused = await runCli(["projects", "update", projectId!, ...args], environment)
        expect({ args, code: refused.code }).toEqual({ args, code: 1 })
        expect(refused.output).toContain(says)
        expect(refused.output).toContain(USAGE)
      }
      const unknown = await runCli(["projects", "update", "nope", "--clear-connect-frame-origins"], environment)
      expect({ code: unknown.code, output: unknown.output }).toMatchObject({ code: 1 })
      expect(unknown.output).toContain("switchyard: no project has id nope")
      // nothing refused changed the list
      expect(await frameAncestors()).toBe("https://app.example.com http://localhost:3000")

      const cleared = await runCli(["projects", "update", projectId!, "--clear-connect-frame-origins"], environment)
      expect({ code: cleared.code, output: cleared.output.trim() }).toEqual({
        code: 0,
        output: `no origin may frame the connect page of project ${projectId}`
      })
      expect(await frameAncestors()).toBe("'none'")
    } finally {
      const stopped = exited(server.child)
      server.child.kill("SIGTERM")
      expect(await stopped).toBe(0)
    }
  }, 600_000)
})
