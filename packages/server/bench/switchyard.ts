/*
 * Switchyard as users start it, in its own process (started with `node` directly, not through
 * pnpm, so that its pid is the server's and its RSS is the server's alone), then set up over HTTP
 * as a user would: a Greenhouse connector and one account on the provider stand-in.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { atCleanup, type Child, freePort, spawnChild, waitFor } from "./processes.js"

export const serverDir = resolve(fileURLToPath(import.meta.url), "../..")
export const repoDir = resolve(serverDir, "../..")

export const BENCH_KEY = "swy_bench_bootstrap_key_0123456789abcdef"
/** 32 bytes as hex; only for the throwaway benchmark database. */
const BENCH_ENCRYPTION_KEY = "be".repeat(32)
export const basicAuth = (user: string) => `Basic ${Buffer.from(`${user}:`).toString("base64")}`

/**
 * Node flags that run TypeScript entries with workspace packages read from their sources (the
 * `switchyard-source` export condition; harmless where a package exports its source only).
 */
export const SOURCE_FLAGS = ["--conditions=switchyard-source", "--import", "tsx"] as const

/**
 * How a user starts the server: the built `dist/main.js` with plain node when the package has a
 * `build` script, else the TypeScript entry through tsx's loader (`tsx src/main.ts` starts this
 * same command in a child process). `prepare` builds (incrementally: fast when nothing changed).
 */
export const serverCommand = (): { readonly args: ReadonlyArray<string>; readonly how: string; prepare(): void } => {
  const pkg = JSON.parse(readFileSync(join(serverDir, "package.json"), "utf8")) as { scripts?: Record<string, string> }
  if (pkg.scripts?.["build"] !== undefined) {
    return {
      args: ["dist/main.js"],
      how: "node dist/main.js (built with pnpm build before each start)",
      prepare: () => {
        // Its output only matters when it fails (pnpm's banner would sit in the middle of the report).
        const built = spawnSync("npx", ["--yes", "pnpm@9.15.9", "--filter", "@switchyard/server", "build"], { cwd: repoDir, encoding: "utf8" })
        if (built.status !== 0) throw new Error(`building the server failed (${built.status ?? built.signal}):\n${built.stdout}${built.stderr}`)
      }
    }
  }
  return { args: [...SOURCE_FLAGS, "src/main.ts"], how: `node ${SOURCE_FLAGS.join(" ")} src/main.ts (no build script)`, prepare: () => {} }
}

export interface Switchyard {
  readonly child: Child
  readonly baseUrl: string
  /** Stops the server and removes its data directory. */
  stop(): Promise<void>
}

/**
 * Starts a server on a free port with a fresh data directory (the embedded default as a first
 * start meets it) or `databaseUrl`; everything else at its default. Resolves once /healthz is 200.
 */
export const startSwitchyard = async (
  command: ReturnType<typeof serverCommand>,
  databaseUrl?: string,
  extraEnv: Readonly<Record<string, string>> = {}
): Promise<Switchyard> => {
  // Built right before each start, not once: the checkout's dist/ may be rebuilt (or cleaned)
  // by other work between two runs of a long benchmark.
  command.prepare()
  const port = await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), "switchyard-bench-"))
  const { DATABASE_URL: _ignored, ...inherited } = process.env
  const child = spawnChild(databaseUrl === undefined ? "switchyard (embedded)" : "switchyard (postgres)", process.execPath, command.args, {
    cwd: serverDir,
    keepStdout: false,
    env: {
      ...inherited,
      PORT: String(port),
      HOST: "127.0.0.1",
      SWITCHYARD_DATA_DIR: dataDir,
      SWITCHYARD_BOOTSTRAP_API_KEY: BENCH_KEY,
      // The provider stand-in listens on loopback, which the SSRF guard refuses unless allowed.
      SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1",
      // PostgreSQL needs an explicit credential key (the embedded default generates one in its data directory).
      ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl, SWITCHYARD_ENCRYPTION_KEY: BENCH_ENCRYPTION_KEY }),
      ...extraEnv
    }
  })
  const baseUrl = `http://127.0.0.1:${port}`
  const stop = async () => {
    forget()
    await child.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
  const forget = atCleanup(stop)
  try {
    await waitFor("GET /healthz to answer 200", () => fetch(`${baseUrl}/healthz`).then((r) => (r.ok ? true : undefined), () => undefined), {
      timeoutMs: 120_000,
      child
    })
  } catch (error) {
    await stop()
    throw error
  }
  return { child, baseUrl, stop }
}

const call = async (baseUrl: string, method: string, path: string, body: unknown, expected: number) => {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: basicAuth(BENCH_KEY), "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  const text = await response.text()
  if (response.status !== expected) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 600)}`)
  return JSON.parse(text) as Record<string, unknown>
}

/**
 * The newest shipped Greenhouse connector: what `connector_key: "greenhouse"` gives a user. Read
 * from its file, not through @switchyard/connectors, so this process loads no workspace package
 * (they resolve to built output or to source depending on how the package is built).
 */
export const shippedGreenhouse = (): { readonly file: string; readonly yaml: string } => {
  const dir = join(repoDir, "packages/connectors/connectors/greenhouse")
  const version = (name: string) => name.replace(/\.yaml$/, "").split(".").map(Number)
  const newest = readdirSync(dir)
    .filter((name) => /^\d+\.\d+\.\d+\.yaml$/.test(name))
    .sort((a, b) => {
      const [x, y] = [version(a), version(b)]
      for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!
      return 0
    })
    .pop()
  if (newest === undefined) throw new Error(`no shipped Greenhouse connector in ${dir}`)
  const file = join(dir, newest)
  return { file, yaml: readFileSync(file, "utf8") }
}

/**
 * Registers a copy of the shipped Greenhouse connector without its rate limit and links one
 * account to the provider stand-in; answers the account id. The shipped connector allows 10
 * requests/s per account (Greenhouse's own limit), which would be all a benchmark measured.
 */
export const setUpAccount = async (baseUrl: string, provider: { readonly baseUrl: string; readonly apiKey: string }): Promise<string> => {
  const shipped = shippedGreenhouse()
  const unlimited = shipped.yaml.replace(/^(\s*)key: greenhouse$/m, "$1key: greenhouse_bench").replace(/mainRatelimit: \d+/, "mainRatelimit: 1000000")
  if (!unlimited.includes("key: greenhouse_bench") || !unlimited.includes("mainRatelimit: 1000000")) {
    throw new Error(`${shipped.file} no longer has the key / mainRatelimit lines the benchmark rewrites`)
  }
  await call(baseUrl, "POST", "/v2/connectors", { yaml: unlimited }, 201)
  const account = await call(baseUrl, "POST", "/v2/accounts", {
    connector_key: "greenhouse_bench",
    name: "Bench",
    owner_id: "bench",
    credentials: { apiKey: provider.apiKey },
    settings: { base_url: provider.baseUrl }
  }, 201)
  if (typeof account["id"] !== "string") throw new Error(`POST /v2/accounts answered no id: ${JSON.stringify(account).slice(0, 300)}`)
  return account["id"]
}
