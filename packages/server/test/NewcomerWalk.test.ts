import { SANDBOX_PORT_VARIABLES } from "@switchyard/sandbox"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { type Launched, serveOnFreePort, waitFor } from "./support/ServerProcess.js"

/*
 * The README's two ways in, walked as a newcomer walks them: a fresh clone of this commit, its
 * install, the quick start's start command, the key it prints and a first call; then the
 * sandbox quick start's command, its linked accounts and the calls it prints, pasted into a
 * shell. The commands are read from the README, so that they stay true; only ports and data
 * directories come from the environment (PORT, SWITCHYARD_DATA_DIR, SANDBOX_*_PORT).
 *
 * Slow (about 6 minutes on a busy 2-core machine, over the ~90 s one would like): the clone is
 * installed (offline, from the pnpm store the workspace was installed from, ~20 s) and the
 * server built from scratch by the start command (tsc --build of four packages and the bundle,
 * most of the time), as a newcomer's would be; the demo reuses that build and runs twice. The waits are bounded generously and poll
 * for what they wait for; nothing here depends on how long a step takes.
 */

const minutes = (n: number) => n * 60_000
const repoRoot = Path.resolve(import.meta.dirname, "../../..")
const readme = Fs.readFileSync(Path.join(repoRoot, "README.md"), "utf8")

/** The README's shell line that ends with `npx --yes pnpm@9.15.9 <script>`, as its `&&`-joined commands. */
const readmeCommands = (script: string): Array<string> => {
  const line = readme.split("\n").find((candidate) => candidate.startsWith("npx ") && candidate.endsWith(` ${script}`))
  if (line === undefined) throw new Error(`the README has no command line ending in "${script}"`)
  return line.split("&&").map((command) => command.trim())
}

/**
 * A newcomer's shell environment: no test runner's or package manager's variables (this test
 * may run under pnpm, which sets INIT_CWD and npm_config_*), no database URL.
 */
const newcomerEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(npm_|PNPM_|INIT_CWD$|NODE_OPTIONS$|DATABASE_URL$|REDIS_URL$|VITEST|SWITCHYARD_)/.test(name)) env[name] = value
  }
  return { ...env, ...extra }
}

/** A shell command in its own process group (as a terminal runs it), keeping its output. */
const shell = (command: string, cwd: string, env: NodeJS.ProcessEnv): Launched => {
  const child = spawn("sh", ["-c", command], { cwd, env, detached: true })
  let output = ""
  child.stdout!.on("data", (chunk) => (output += chunk))
  child.stderr!.on("data", (chunk) => (output += chunk))
  return { child, output: () => output }
}

const ended = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve()
    else child.once("exit", () => resolve())
  })

/** Sends `signal` to the command's whole process group (a terminal's Ctrl-C is SIGINT to the group); resolves once the shell ended. */
const signalGroup = async (launched: Launched, signal: NodeJS.Signals) => {
  const done = ended(launched.child)
  try {
    process.kill(-launched.child.pid!, signal)
  } catch {
    // the group is gone already
  }
  await done
}

/** Runs a shell command to its end: exit code and output. */
const runShell = (command: string, cwd: string, env: NodeJS.ProcessEnv) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    const launched = shell(command, cwd, env)
    launched.child.once("close", (code) => resolve({ code, output: launched.output() }))
  })

/** Waits until nothing listens at `url` any more (a stopped process may still be closing its sockets). */
const gone = (url: string, what: string) => waitFor(() => fetch(url).then(() => false, () => true), what, minutes(2))

const auth = (key: string) => ({ authorization: `Basic ${Buffer.from(`${key}:`).toString("base64")}` })

/** The calls the demo printed: each `# title` line and the curl command under it (its lines joined). */
const printedCalls = (output: string) => {
  const calls: Array<{ title: string; curl: string }> = []
  const lines = output.split("\n")
  lines.forEach((line, i) => {
    if (!line.startsWith("curl ") || !lines[i - 1]?.startsWith("# ")) return
    let curl = line
    for (let next = i; lines[next]!.endsWith("\\"); next++) curl = `${curl.slice(0, -1)} ${lines[next + 1]!.trim()}`
    calls.push({ title: lines[i - 1]!.slice(2), curl })
  })
  return calls
}

describe("a newcomer following the README", () => {
  const temp = Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-newcomer-"))
  const clone = Path.join(temp, "switchyard")
  const running: Array<Launched> = []

  beforeAll(async () => {
    // The clone is of this worktree's HEAD: only committed work is walked.
    execFileSync("git", ["clone", "--quiet", repoRoot, clone])
    const [install] = readmeCommands("start")
    // The store holds every package already: offline, the install needs no network.
    const installed = await runShell(`${install} --offline`, clone, newcomerEnv({}))
    expect(installed.code, installed.output).toBe(0)
  }, minutes(10))

  afterAll(async () => {
    for (const launched of running) await signalGroup(launched, "SIGTERM")
    Fs.rmSync(temp, { recursive: true, force: true })
  }, minutes(2))

  it("starts the server with the quick start's command, prints a key that makes the first call", async () => {
    const [, start] = readmeCommands("start")
    const dataDir = Path.join(temp, "quick-start-data")
    const { server, base } = await serveOnFreePort((port) => {
      const launched = shell(start!, clone, newcomerEnv({ PORT: String(port), SWITCHYARD_DATA_DIR: dataDir }))
      running.push(launched)
      return launched
    }, { what: "healthz of the quick start's server", timeoutMs: minutes(15) })

    const key = server.output().match(/swy_[A-Za-z0-9_-]{43}/)?.[0]
    expect(key, server.output()).toBeDefined()
    const accounts = await fetch(`${base}/v2/accounts`, { headers: auth(key!) })
    expect(accounts.status).toBe(200)
    expect(await accounts.json()).toEqual([])

    await signalGroup(server, "SIGINT")
    await gone(`${base}/healthz`, "the quick start's server to stop")
  }, minutes(20))

  it("starts the sandbox quick start with the demo's command: linked accounts and calls that answer, stopped by Ctrl-C", async () => {
    const demoCommand = readmeCommands("demo").at(-1)!
    const dataDir = Path.join(temp, "demo-data")
    const environment = (port: number) =>
      newcomerEnv({
        PORT: String(port),
        SWITCHYARD_DATA_DIR: dataDir,
        // free ports, chosen by the sandbox as it listens: no other process can take them first
        ...Object.fromEntries(SANDBOX_PORT_VARIABLES.map((name) => [name, "0"]))
      })

    /** One run of the demo, up to its "ready" line: its key, base URL, output. */
    const runDemo = async () => {
      const { server: demo, base } = await serveOnFreePort((port) => {
        const launched = shell(demoCommand, clone, environment(port))
        running.push(launched)
        return launched
      }, { what: "healthz of the demo's server", timeoutMs: minutes(15) })
      await waitFor(() => {
        if (demo.child.exitCode !== null) throw new Error(`the demo exited before it was ready:\n${demo.output()}`)
        return demo.output().includes("Switchyard demo is ready.")
      }, "the demo's ready line", minutes(5))
      const key = demo.output().match(/^KEY=(swy_[A-Za-z0-9_-]{43})$/m)?.[1]
      expect(key, demo.output()).toBeDefined()
      return { demo, base, key: key!, output: demo.output() }
    }

    /** Pastes each printed call into a shell after the printed KEY= line: its status and answer. */
    const pasteCalls = async (run: { key: string; output: string }) => {
      const calls = printedCalls(run.output)
      expect(calls.map((call) => call.title.split(/[ :]/)[0])).toEqual(["ATS", "ATS", "LMS", "HRIS", "MCP"])
      for (const call of calls) {
        const pasted = await runShell(`KEY=${run.key}\n${call.curl} -sS -w '\\n%{http_code}'`, temp, newcomerEnv({}))
        const status = Number(pasted.output.trim().split("\n").at(-1))
        const answer = JSON.parse(pasted.output.trim().split("\n").slice(0, -1).join("\n"))
        expect({ call: call.title, status }).toEqual({ call: call.title, status: 200 })
        // a unified list per category (and Lever's), with data; the MCP server's tools
        const found = call.title.startsWith("MCP") ? answer.result.tools : answer.data
        expect({ call: call.title, found: found.length > 0 }).toEqual({ call: call.title, found: true })
      }
    }

    const first = await runDemo()
    const linked = await fetch(`${first.base}/v2/accounts?owner_id=switchyard-demo`, { headers: auth(first.key) })
    expect(linked.status).toBe(200)
    const accounts = (await linked.json()) as Array<any>
    expect(accounts.map((account) => [account.connector_key, account.status]).sort()).toEqual([
      ["bamboohr", "active"],
      ["greenhouse", "active"],
      ["lever", "active"],
      ["talentlms", "active"]
    ])
    // each linked to the sandbox (on loopback), through a profile of its own
    for (const account of accounts) {
      expect(new URL(account.settings.base_url).hostname).toBe("127.0.0.1")
      expect(account.connector_profile_id).not.toBeNull()
    }
    const connectLink = first.output.match(/^ {2}(http:\/\/\S+\/connect\?token=\S+)$/m)?.[1]
    expect(connectLink, first.output).toBeDefined()
    expect((await fetch(connectLink!)).status).toBe(200)
    await pasteCalls(first)

    // Ctrl-C: the demo's server and the sandbox stop with it
    const sandboxUrl = first.output.match(/sandbox providers at\n {2}(http:\/\/\S+)/)?.[1]
    expect(sandboxUrl, first.output).toBeDefined()
    await signalGroup(first.demo, "SIGINT")
    await gone(`${first.base}/healthz`, "the demo's server to stop")
    await gone(`${sandboxUrl}/_sandbox`, "the sandbox to stop")

    // Again on the same data: the same key, the profiles and accounts found, not made twice
    const second = await runDemo()
    expect(second.key).toBe(first.key)
    const profiles = await fetch(`${second.base}/v2/connector_profiles?page_size=100`, { headers: auth(second.key) })
    expect(((await profiles.json()) as any).data.map((profile: any) => profile.connector_key).sort()).toEqual([
      "bamboohr",
      "greenhouse",
      "lever",
      "talentlms"
    ])
    const relinked = (await (await fetch(`${second.base}/v2/accounts?owner_id=switchyard-demo`, { headers: auth(second.key) })).json()) as Array<any>
    expect(relinked.map((account) => account.connector_key).sort()).toEqual(["bamboohr", "greenhouse", "lever", "talentlms"])
    await pasteCalls(second)
    await signalGroup(second.demo, "SIGINT")
    await gone(`${second.base}/healthz`, "the second demo's server to stop")
  }, minutes(20))
})
