import { type ChildProcess, spawn } from "node:child_process"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"

/*
 * The server (or CLI) as a real child process, for tests of what only a process shows:
 * start-up, signals, a kill and a restart on the same data. The server's entry points run
 * from the build the global setup made for this run (buildServerOnce.ts): a process loads one
 * bundle in well under a second, where tsx compiled and loaded every source module again.
 */

const serverDir = Path.resolve(import.meta.dirname, "../..")
const tsxCli = createRequire(import.meta.url).resolve("tsx/cli")

export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = Net.createServer().listen(0, "127.0.0.1", () => {
      const port = (server.address() as Net.AddressInfo).port
      server.close(() => resolve(port))
    })
  })

/**
 * The test's environment for a server on `port` over `dataDir`: embedded and with the default
 * rate limit store unless `extra` gives DATABASE_URL or REDIS_URL (CI sets both for the tests
 * that ask for them).
 */
export const serverEnv = (dataDir: string, port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...rest } = process.env
  return { ...rest, SWITCHYARD_DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "WARN", ...extra }
}

/** A child process and everything it wrote so far (stdout and stderr together). */
export interface Launched {
  readonly child: ChildProcess
  readonly output: () => string
}

/** Spawns `command`, keeping its output. */
export const launch = (command: string, args: ReadonlyArray<string>, cwd: string, environment: NodeJS.ProcessEnv): Launched => {
  const child = spawn(command, args, { cwd, env: environment })
  let output = ""
  child.stdout!.on("data", (chunk) => (output += chunk))
  child.stderr!.on("data", (chunk) => (output += chunk))
  return { child, output: () => output }
}

/** The server's entry points by their source, as built into dist/ for this run (buildServerOnce.ts). */
const builtEntryPoints: Readonly<Record<string, string>> = { "src/main.ts": "dist/main.js", "src/cli.ts": "dist/cli.js" }

/**
 * Runs `script`: a server entry point as node on its build (a SIGKILL reaches the server
 * itself), any other script (a test's own) through tsx's CLI, or with `inProcess` as node
 * itself with tsx's loader, so that a SIGKILL reaches the script's process (tsx's CLI is a
 * parent that cannot relay it).
 */
export const start = (
  script: string,
  args: ReadonlyArray<string>,
  environment: NodeJS.ProcessEnv,
  options: { readonly inProcess?: boolean } = {}
): Launched => {
  const built = builtEntryPoints[script]
  if (built !== undefined) return launch(process.execPath, [built, ...args], serverDir, environment)
  const runner = options.inProcess === true ? ["--import", "tsx"] : [tsxCli]
  return launch(process.execPath, [...runner, script, ...args], serverDir, environment)
}

export const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode)
    else child.once("exit", (code) => resolve(code))
  })

/** Runs the CLI to its end: its exit code and everything it wrote (stdout and stderr). */
export const runCli = async (args: ReadonlyArray<string>, environment: NodeJS.ProcessEnv) => {
  const cli = start("src/cli.ts", args, environment)
  const code = await exited(cli.child)
  return { code, output: cli.output() }
}

export const waitFor = async (check: () => Promise<boolean> | boolean, what: string, timeoutMs = 180_000) => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/**
 * Polls health while the server starts: a refused connection means "not yet"; a connection
 * accepted but never answered is a failure (the socket must not open before the app is ready).
 */
export const healthy = (base: string) =>
  fetch(`${base}/healthz`, { signal: AbortSignal.timeout(60_000) }).then(
    (r) => r.ok,
    (error: Error) => {
      if (error.name === "TimeoutError") throw new Error("a request during start-up was never answered")
      return false
    }
  )

/** A server process that exited before it answered health, with everything it wrote. */
export class ExitedBeforeServing extends Error {
  constructor(readonly output: string) {
    super(`the server exited before it served:\n${output}`)
  }
}

/**
 * Waits until `server` answers health at `base`; a server that exits first fails at once with
 * its output (rather than after the wait's timeout, with nothing to go on).
 */
export const serving = (server: Launched, base: string, what = "healthz", timeoutMs?: number) =>
  waitFor(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) return healthy(base)
    throw new ExitedBeforeServing(server.output())
  }, what, timeoutMs)

/**
 * Launches a server on a free port and waits until it answers health. A port found free can
 * be taken by a parallel test before the server binds it: a server that exits on EADDRINUSE
 * is launched again on another port; one that exits otherwise fails at once with its output.
 */
export const serveOnFreePort = async (
  launchOn: (port: number) => Launched,
  options: { readonly what?: string; readonly timeoutMs?: number } = {}
) => {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const server = launchOn(port)
    const base = `http://127.0.0.1:${port}`
    try {
      await serving(server, base, options.what, options.timeoutMs)
      return { server, base, port }
    } catch (error) {
      const lostPort = error instanceof ExitedBeforeServing && /EADDRINUSE/.test(error.output) && attempt < 3
      if (!lostPort) throw error
    }
  }
}

/** `serveOnFreePort` for a script of this package, run as `start` runs it. */
export const startServing = async (
  script: string,
  args: ReadonlyArray<string>,
  environmentFor: (port: number) => NodeJS.ProcessEnv,
  options: {
    readonly inProcess?: boolean
    /** Told of each process started, e.g. to stop it in a test's `finally` even if it never served. */
    readonly started?: (server: Launched) => void
  } = {}
) => {
  let environment: NodeJS.ProcessEnv = {}
  const served = await serveOnFreePort((port) => {
    environment = environmentFor(port)
    const server = start(script, args, environment, options)
    options.started?.(server)
    return server
  })
  return { ...served, environment }
}

/** POSTs JSON to a server process with an API key (Basic auth): its status, headers and JSON answer. */
export const postJson = async (
  base: string,
  path: string,
  body: unknown,
  apiKey: string,
  headers: Record<string, string> = {}
) => {
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`,
      "content-type": "application/json",
      ...headers
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(300_000)
  })
  return { status: response.status, headers: response.headers, json: (await response.json()) as Record<string, any> }
}

/**
 * The environment of one of several server processes on one PostgreSQL database, by port: a
 * data directory of its own, the API key to bootstrap, one encryption key for all of them
 * (each reads what another stored), and outbound calls allowed to loopback (the sandbox).
 */
export const sharedDatabaseEnv = (databaseUrl: string, apiKey: string, extra: Record<string, string> = {}) => {
  const encryptionKey = Crypto.randomBytes(32).toString("hex")
  return (port: number) =>
    serverEnv(Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-shared-")), port, {
      DATABASE_URL: databaseUrl,
      SWITCHYARD_BOOTSTRAP_API_KEY: apiKey,
      SWITCHYARD_ENCRYPTION_KEY: encryptionKey,
      SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1",
      ...extra
    })
}
