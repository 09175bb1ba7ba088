import { describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { exited, runCli, serverEnv, startServing } from "./support/ServerProcess.js"

/*
 * The CLI as an operator runs it (a child process next to a running server on the embedded
 * database): defaults, both forms of `projects create`, and the usage after every error. Then,
 * with no database to reach, what @effect/cli answers itself: help, version, completions and
 * refusals of a wrong command line.
 */

const KEY = /swy_[A-Za-z0-9_-]{43}/
const USAGE = "Usage: switchyard <command>"
const workspaceDir = Path.resolve(import.meta.dirname, "../../..")
const serverVersion = (JSON.parse(Fs.readFileSync(Path.join(import.meta.dirname, "../package.json"), "utf8")) as {
  readonly version: string
}).version

describe("the CLI", () => {
  it("defaults keys create to the only project, takes projects create --name, and prints the usage on every error", async () => {
    const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-cli-"))
    const { server, base, environment } = await startServing("src/main.ts", [], (port) => serverEnv(dataDir, port))
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

      // every command keeps its output: a scope in a looser spelling, listing, revoking, versioning
      const second = await runCli(
        ["keys", "create", "--project", defaultId!, "--scope", "Read-Only", "--name", "second"],
        environment
      )
      expect({ code: second.code, output: second.output }).toMatchObject({ code: 0 })
      expect(second.output).toMatch(/^created read_only key [0-9a-f-]{36} for project /m)
      const [, secondId] = second.output.match(/key ([0-9a-f-]{36}) for project/)!
      const keys = await runCli(["keys", "list", "--project", defaultId!], environment)
      expect(keys.output).toMatch(/^id\s+project\s+name\s+scope\s+prefix\s+created\s+revoked$/m)
      expect(keys.output).toMatch(new RegExp(`^${secondId}\\s+${defaultId}\\s+second\\s+read_only\\s`, "m"))
      const revoked = await runCli(["keys", "revoke", secondId!], environment)
      expect({ code: revoked.code, output: revoked.output.trim() }).toEqual({ code: 0, output: `revoked key ${secondId}` })
      const versioning = await runCli(["projects", "immutable-versioning", defaultId!, "off"], environment)
      expect({ code: versioning.code, output: versioning.output.trim() }).toEqual({
        code: 0,
        output: `immutable connector versioning is off for project ${defaultId} ` +
          "(force may now replace a registered version's content)"
      })
      const bodies = await runCli(["projects", "request-log-bodies", defaultId!, "on"], environment)
      expect({ code: bodies.code, output: bodies.output.trim() }).toEqual({
        code: 0,
        output: `request log bodies are on for project ${defaultId} ` +
          "(provider bodies are kept redacted, up to 16,384 characters each, from the next runs on)"
      })
      expect((await runCli(["projects", "list"], environment)).output).toMatch(new RegExp(`^${defaultId}\\s.*\\son\\s+[0-9T:.-]+Z\\s*$`, "m"))

      // every error: a message, the usage, a non-zero exit code, and no key made
      for (
        const [args, says] of [
          [["keys", "create"], "switchyard: --project <project-id> is required: there are 3 projects"],
          [["keys", "create", "--project", "nope"], "switchyard: no project has id nope"],
          [["keys", "revoke", "nope"], "switchyard: no active key has id nope"],
          [["projects", "create"], "switchyard: projects create needs a name"],
          [["projects", "create", "--name", "A", "B"], "switchyard: give the project name once"],
          // what the command line parser (@effect/cli) says, before the database is opened
          [["projects", "create", "--colour", "red"], "Unknown option '--colour'"],
          [["teleport"], "Invalid subcommand for switchyard - use one of 'projects', 'keys', 'connectors'"]
        ] as const
      ) {
        const failed = await runCli(args, environment)
        expect({ args, code: failed.code }).toEqual({ args, code: 1 })
        expect(failed.output).toContain(says)
        expect(failed.output).toContain(USAGE)
        expect(failed.output).not.toMatch(KEY)
      }
    } finally {
      const stopped = exited(server.child)
      server.child.kill("SIGTERM")
      expect(await stopped).toBe(0)
    }
  }, 600_000)

  it("runs as the README's `switchyard` in a clone: the root script, in the repository's root, and pnpm --silent adds nothing after an error", async () => {
    const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-root-cli-"))
    // A relative data directory, taken from where the root script runs the CLI: the
    // repository's root, not the caller's directory (the temporary one) nor packages/server.
    const { NODE_OPTIONS: _nodeOptions, ...environment } = serverEnv(Path.relative(workspaceDir, dataDir), 1)
    const outsidePnpm = Object.fromEntries(Object.entries(environment).filter(([name]) => !/^npm_/i.test(name)))
    const cli = spawn("npx", ["--yes", "pnpm@9.15.9", "--silent", "--dir", workspaceDir, "switchyard", "keys", "revoke", "nope"], {
      cwd: Os.tmpdir(),
      env: outsidePnpm
    })
    let output = ""
    cli.stdout.on("data", (chunk) => (output += chunk))
    cli.stderr.on("data", (chunk) => (output += chunk))
    const code = await exited(cli)
    // The build before the CLI is silent, and so is pnpm: the output is the CLI's alone.
    expect({ code, output: output.trim() }).toEqual({ code: 1, output: `switchyard: no active key has id nope\n\n${USAGE}   (switchyard --help lists the commands; add --help after a command for its options)` })
    expect(Fs.readdirSync(dataDir)).toContain("pgdata")
    Fs.rmSync(dataDir, { recursive: true, force: true })
  }, 600_000)

  // DATABASE_URL names a port nobody listens on: anything that opened the database would fail
  const noDatabase = serverEnv(Os.tmpdir(), 1, { DATABASE_URL: "postgres://postgres@127.0.0.1:1/none" })

  it("answers --help, --version and --completions without opening the database, as plain text off a terminal", async () => {
    for (const args of [[], ["--help"]]) {
      const help = await runCli(args, noDatabase)
      expect({ args, code: help.code }).toEqual({ args, code: 0 })
      expect(help.output).not.toContain("\u001b[")
      expect(help.output).toContain(`switchyard ${serverVersion}`)
      for (
        const command of [
          "projects list",
          "projects create [--name name] [--organization organization-id] <name>...",
          "projects immutable-versioning <project-id> <setting>",
          "projects request-log-bodies <project-id> <setting>",
          "keys list [--project project-id]",
          "keys create [--project project-id] [--scope full_access|read_only|accounts|actions] [--name name]",
          "keys revoke <key-id>",
          "connectors draft --openapi file [--category hris | ats | lms] [--key key] [--out file] [--rpc all | reads | none]"
        ]
      ) expect(help.output).toContain(command)
    }

    const keysCreate = await runCli(["keys", "create", "--help"], noDatabase)
    expect(keysCreate.code).toBe(0)
    expect(keysCreate.output).toContain("--scope full_access|read_only|accounts|actions")
    expect(keysCreate.output).toContain("may be left out while there is only one project")

    const version = await runCli(["--version"], noDatabase)
    expect({ code: version.code, output: version.output.trim() }).toEqual({ code: 0, output: serverVersion })

    for (
      const [shell, says] of [
        ["bash", "switchyard,keys,revoke)"],
        ["zsh", "#compdef switchyard"],
        ["fish", "complete -c switchyard -n \"__fish_seen_subcommand_from keys"]
      ] as const
    ) {
      const completions = await runCli(["--completions", shell], noDatabase)
      expect({ shell, code: completions.code }).toEqual({ shell, code: 0 })
      expect(completions.output).toContain(says)
    }
  }, 300_000)

  it("refuses a wrong command, option or value with what was wrong, the usage and exit code 1", async () => {
    for (
      const [args, says] of [
        [["teleport"], "Invalid subcommand for switchyard - use one of 'projects', 'keys', 'connectors'"],
        [["keys", "teleport"], "Invalid subcommand for keys - use one of 'create', 'list', 'revoke'"],
        [["keys", "list", "--colour", "red"], "Received unknown argument: '--colour'"],
        [["projects", "create", "--colour", "red"], "Unknown option '--colour'"],
        [["keys", "create", "--scope", "root"], "unknown scope \"root\": use full_access, read_only, accounts or actions"],
        [["keys", "revoke"], "Missing argument <key-id>"],
        [["projects", "immutable-versioning", "some-project", "maybe"], "Expected one of the following cases: on, off"],
        [["projects", "request-log-bodies", "some-project", "maybe"], "Expected one of the following cases: on, off"]
      ] as const
    ) {
      const failed = await runCli(args, noDatabase)
      expect({ args, code: failed.code }).toEqual({ args, code: 1 })
      expect(failed.output).toContain(says)
      expect(failed.output).toContain(USAGE)
      expect(failed.output).not.toContain("PgClient")
    }
  }, 300_000)
})
