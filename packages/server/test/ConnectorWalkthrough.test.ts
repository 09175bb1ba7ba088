import { describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { freePort, serverEnv, startServing } from "./support/ServerProcess.js"

/*
 * The connectors README's walkthrough, run as it stands: its shell block is taken from the
 * README and run by bash in a directory laid out like a clone, with `switchyard` the built CLI,
 * a server process started as the walkthrough says (the mock's address allowed), and the
 * README's ports (4000, 4010) swapped for free ones. Draft, the hand-finished file, check,
 * registration, the mock, linking and a call: if any step stops working, so does this test.
 */

const ROOT = Path.resolve(import.meta.dirname, "../../..")
const README = Path.join(ROOT, "packages/connectors/README.md")
const CLI = Path.join(ROOT, "packages/server/dist/cli.js")
const KEY = "swy_walkthrough_key_0123456789abcdef0123"

/** The first `sh` block under the walkthrough's heading. */
const walkthroughScript = () => {
  const markdown = Fs.readFileSync(README, "utf8")
  const section = markdown.slice(markdown.indexOf("## Walkthrough: a connector from a provider's document"))
  const block = /```sh\n([\s\S]*?)```/.exec(section)
  if (block === null) throw new Error("the connectors README has no walkthrough block")
  return block[1]!
}

/**
 * Runs the script in a process group of its own and ends when bash does, then stops what it
 * left in the background (the mock, which holds the output pipe open).
 */
const runBash = (script: string, cwd: string, env: NodeJS.ProcessEnv) =>
  new Promise<{ code: number; output: string }>((resolve) => {
    const child = spawn("bash", ["-c", script], { cwd, env, detached: true })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (output += chunk))
    child.on("exit", (code) => {
      try {
        process.kill(-child.pid!, "SIGTERM")
      } catch {
        // nothing was left running
      }
      // what was written before the exit is still in the pipe: read it to the end
      setImmediate(() => resolve({ code: code ?? 1, output }))
    })
  })

describe("the connectors README's walkthrough", () => {
  it("drafts, checks, registers, links to the mock and calls, as written", async () => {
    const mockPort = await freePort()
    const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-walkthrough-data-"))
    const { base, server } = await startServing("src/main.ts", [], (port) =>
      serverEnv(dataDir, port, {
        SWITCHYARD_BOOTSTRAP_API_KEY: KEY,
        SWITCHYARD_OUTBOUND_ALLOWLIST: `127.0.0.1:${mockPort}`
      }))
    // a reader's clone: the walkthrough reads packages/... and writes my-rippling.yaml beside it
    const cwd = Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-walkthrough-"))
    Fs.symlinkSync(Path.join(ROOT, "packages"), Path.join(cwd, "packages"))
    try {
      const script = [
        "set -e",
        `switchyard() { node ${JSON.stringify(CLI)} "$@"; }`,
        walkthroughScript().split("http://127.0.0.1:4000").join(base).split("4010").join(String(mockPort))
      ].join("\n")
      const { DATABASE_URL: _database, ...environment } = process.env
      const ran = await runBash(script, cwd, { ...environment, KEY, SWITCHYARD_DATA_DIR: Path.join(dataDir, "cli") })
      expect({ code: ran.code, output: ran.output.slice(-4000) }).toMatchObject({ code: 0 })
      // the draft marked what it guessed, the finished file passed, and the call answered unified employees
      expect(ran.output).toMatch(/^\d+$/m)
      expect(ran.output).toContain("my-rippling@1.0.0: passed")
      const lines = ran.output.split("\n")
      // registered as a custom connector (which the server cannot vouch for: community)
      expect(lines).toContain(`{"id":"my-rippling@1.0.0~custom","verification":{"level":"community","document":null,"documents":[],"document_url":null,"sources":[]}}`)
      const employees = lines.filter((line) => line.startsWith(`{"id":`) && line.includes(`"employment_status"`))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
      expect(employees.length).toBeGreaterThan(0)
      expect(employees.every((employee) => typeof employee.id === "string")).toBe(true)
      // the mock printed the request the call made, and it broke nothing
      expect(ran.output).toMatch(/✓ GET \/employees/)
      expect(ran.output).not.toMatch(/✗ (GET|POST|PATCH|PUT|DELETE) /)
    } finally {
      server.child.kill("SIGTERM")
      Fs.rmSync(cwd, { recursive: true, force: true })
    }
  })
})
