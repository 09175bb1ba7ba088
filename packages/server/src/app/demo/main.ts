import { startSandbox, optionsFromEnv, type Sandbox } from "@switchyard/sandbox"
import type { ChildProcess } from "node:child_process"
import * as Path from "node:path"
import { demoApi, DemoApiError } from "./DemoApi.js"
import { curlOf, demoCalls, runCall } from "./demoCalls.js"
import { demoKey } from "./demoKey.js"
import { DEMO_OWNER, linkSandbox } from "./linkSandbox.js"
import { startServer } from "./startServer.js"

/*
 * `pnpm demo` (`switchyard demo`): the server on its embedded database with the sandbox
 * providers, one account linked per provider, and calls to paste. Its data directory is its
 * own (.switchyard-demo where it was started, or SWITCHYARD_DATA_DIR), so the demo never
 * touches the data of a real server; a second run on it finds what the first one made.
 * Environment: PORT and HOST of the server, the sandbox's SANDBOX_* (see optionsFromEnv; 0 is a
 * free port).
 */

// pnpm runs the script in packages/server; INIT_CWD is where the user typed the command.
const startedIn = process.env["INIT_CWD"] ?? process.cwd()
const dataDir = Path.resolve(startedIn, process.env["SWITCHYARD_DATA_DIR"] || ".switchyard-demo")
const port = process.env["PORT"] || "4000"
const host = process.env["HOST"] || "127.0.0.1"
const base = `http://${host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host}:${port}`

let sandbox: Sandbox | undefined
let server: ChildProcess | undefined
let stopping = false

/** Stops the server (SIGTERM: it drains and stops its database) and then the sandbox. */
const stop = async (code: number) => {
  if (stopping) return
  stopping = true
  if (server !== undefined && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server!.once("exit", resolve))
    server.kill("SIGTERM")
    await exited
  }
  await sandbox?.close()
  process.exit(code)
}
process.on("SIGINT", () => void stop(0))
process.on("SIGTERM", () => void stop(0))

const run = async () => {
  sandbox = await startSandbox(optionsFromEnv())
  const key = demoKey(dataDir)
  const sandboxUrls = [sandbox.ats.url, sandbox.hris.url, sandbox.lms.url, sandbox.mcp.origin, sandbox.oauth.url]
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env
  server = await startServer(base, {
    ...inherited,
    SWITCHYARD_DATA_DIR: Path.join(dataDir, "database"),
    // the sandbox's addresses (loopback), for this server only: no other process is told to call them
    SWITCHYARD_OUTBOUND_ALLOWLIST: [inherited["SWITCHYARD_OUTBOUND_ALLOWLIST"], ...sandboxUrls.map((url) => new URL(url).host)]
      .filter(Boolean).join(","),
    SWITCHYARD_BOOTSTRAP_API_KEY: key,
    LOG_LEVEL: inherited["LOG_LEVEL"] || "WARN"
  })
  server.once("exit", (code) => {
    if (!stopping) {
      process.stderr.write(`switchyard demo: the server stopped (exit ${code}); stopping the sandbox\n`)
      void stop(1)
    }
  })

  const api = demoApi(base, key)
  const linked = await linkSandbox(api, sandbox)
  const accountOf = (connector: string) => linked.find((provider) => provider.connector_key === connector)?.accountId ?? ""
  const calls = await demoCalls(sandbox, {
    greenhouse: accountOf("greenhouse"),
    bamboohr: accountOf("bamboohr"),
    talentlms: accountOf("talentlms"),
    lever: accountOf("lever")
  })
  const tried = []
  for (const call of calls) tried.push({ call, shows: await runCall(api, call) })
  const session = await api.call("POST", "/connect_sessions", {
    origin_owner_id: "demo-customer",
    origin_owner_name: "Demo customer",
    expires_in: 86_400
  })

  const lines = [
    "",
    `Switchyard demo: the server at ${base} (data in ${dataDir}), the sandbox providers at`,
    `  ${sandboxUrls.join(" ")}`,
    "",
    `API key (Full Access; kept in ${Path.join(dataDir, "api-key")}):`,
    "",
    `KEY=${key}`,
    "",
    `Accounts linked to the sandbox (owner_id ${DEMO_OWNER}), each through a connector profile pointing at it:`,
    ...linked.map((provider) => `  ${provider.connector_key.padEnd(11)} ${provider.accountId}`),
    "",
    "Connect link (what an end user sees; credentials are checked with the sandbox), valid 24 hours:",
    `  ${session.auth_link_url}`,
    `  sandbox credentials: Greenhouse API key ${sandbox.ats.apiKey}; BambooHR subdomain ${sandbox.hris.companyDomain}, ` +
    `API key ${sandbox.hris.apiKey}; TalentLMS domain ${sandbox.hris.companyDomain}, API key ${sandbox.lms.apiKey}`,
    "",
    "Calls to paste after the KEY= line (each was just made and answered):",
    ...tried.flatMap(({ call, shows }) => ["", `# ${call.title} → ${shows}`, curlOf(base, call)]),
    "",
    "Switchyard demo is ready. Ctrl-C stops the server and the sandbox.",
    ""
  ]
  process.stdout.write(lines.join("\n"))
}

/** What to do about the failures a user can fix. */
const hint = (error: unknown): string => {
  if (error instanceof DemoApiError && error.status === 401) {
    return `\n  The demo's key (${Path.join(dataDir, "api-key")}) was refused: revoked? Delete that file and run the demo again.`
  }
  if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
    return "\n  Another process listens there: stop it, or choose other ports with SANDBOX_ATS_PORT, SANDBOX_HRIS_PORT, " +
      "SANDBOX_LMS_PORT, SANDBOX_MCP_PORT, SANDBOX_OAUTH_PORT and the look-alikes' SANDBOX_<PROVIDER>_PORT (0 picks a free one)."
  }
  return ""
}

run().catch((error: unknown) => {
  process.stderr.write(`switchyard demo: ${error instanceof Error ? error.message : String(error)}${hint(error)}\n`)
  void stop(1)
})
