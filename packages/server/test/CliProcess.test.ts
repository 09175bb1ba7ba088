import { describe, expect, it } from "@effect/vitest"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { exited, freePort, healthy, runCli, serverEnv, start, waitFor } from "./support/ServerProcess.js"

/*
 * The CLI as an operator runs it (a child process next to a running server on the embedded
 * database): defaults, both forms of `projects create`, and the usage after every error.
 */

const KEY = /swy_[A-Za-z0-9_-]{43}/

describe("the CLI", () => {
  it("defaults keys create to the only project, takes projects create --name, and prints the usage on every error", async () => {
    const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-cli-"))
    const port = await freePort()
    const environment = serverEnv(dataDir, port)
    const server = start("src/main.ts", [], environment)
    const base = `http://127.0.0.1:${port}`
    await waitFor(() => healthy(base), "healthz")
    try {
      const listed = await runCli(["projects", "list"], environment)
      const [, defaultId] = listed.output.match(/^([0-9a-f-]{36})\s.*Default project/m)!

      // one project: keys create needs no --project, and says which project it used
      const created = await runCli(["keys", "create", "--scope", "read_only"], environment)
      expect({ code: created.code, output: created.output }).toMatchObject({ code: 0 })
      expect(created.output).toContain(`using the only project, ${defaultId} (Default project)`)
      expect(created.output).toContain(`for project ${defaultId}`)
      const key = created.output.match(KEY)![0]
      const auth = { authorization: `Basic ${Buffer.from(`${key}:`).toString("base64")}` }
      expect((await fetch(`${base}/v2/accounts`, { headers: auth, signal: AbortSignal.timeout(60_000) })).status).toBe(200)

      // projects create takes --name, and the positional form still works
      const staging = await runCli(["projects", "create", "--name", "Staging"], environment)
      expect({ code: staging.code, output: staging.output }).toMatchObject({ code: 0 })
      expect(staging.output).toMatch(/created project [0-9a-f-]{36} \(Staging\)/)
      const positional = await runCli(["projects", "create", "Old", "Style"], environment)
      expect({ code: positional.code, output: positional.output }).toMatchObject({ code: 0 })
      expect(positional.output).toMatch(/created project [0-9a-f-]{36} \(Old Style\)/)
      const all = await runCli(["projects", "list"], environment)
      expect(all.output).toMatch(/\sStaging\s/)
      expect(all.output).toMatch(/\sOld Style\s/)

      // every error: a message, the usage, a non-zero exit code, and no key made
      for (
        const [args, says] of [
          [["keys", "create"], "--project <project-id> is required: there are 3 projects"],
          [["keys", "create", "--project", "nope"], "no project has id nope"],
          [["projects", "create"], "projects create needs a name"],
          [["projects", "create", "--name", "A", "B"], "give the project name once"],
          [["projects", "create", "--colour", "red"], "Unknown option '--colour'"],
          [["teleport"], "unknown command \"teleport\""]
        ] as const
      ) {
        const failed = await runCli(args, environment)
        expect({ args, code: failed.code }).toEqual({ args, code: 1 })
        expect(failed.output).toContain(`switchyard: ${says}`)
        expect(failed.output).toContain("Usage: pnpm switchyard <command>")
        expect(failed.output).not.toMatch(KEY)
      }
    } finally {
      const stopped = exited(server.child)
      server.child.kill("SIGTERM")
      expect(await stopped).toBe(0)
    }
  }, 600_000)
})
