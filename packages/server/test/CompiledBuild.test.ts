import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { builtinConnectorSources } from "@switchyard/connectors"
import { type ChildProcess, spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { exited, launch, serveOnFreePort } from "./support/ServerProcess.js"

/*
 * The server as `pnpm start` runs it: built to JavaScript (scripts/build.mjs: tsc --build of
 * the server and the workspace packages it runs on, then the server bundled into dist/) and
 * started with plain `node dist/main.js`, no TypeScript loader. Every other test runs the
 * sources; this one builds first, so it never reads a stale dist/, and checks what only the
 * bundled layout can get wrong: the files read at run time (connect page assets, built-in
 * connectors' YAML) found from there, and the worker threads' and child process's modules.
 */

const serverDir = Path.resolve(import.meta.dirname, "..")
const KEY = "swy_compiled_build_bootstrap_key_0123456789"
const auth = { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` }

/** A process outside the test runner's tooling: no loader or condition in NODE_OPTIONS, no database URL. */
const plainEnvironment = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const { DATABASE_URL: _database, NODE_OPTIONS: _nodeOptions, ...rest } = process.env
  return { ...rest, ...extra }
}

/** Runs node on `args` in the server's directory to its end: exit code, stdout and stderr. */
const runNode = (args: ReadonlyArray<string>, environment: NodeJS.ProcessEnv) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: serverDir, env: environment })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += chunk))
    child.stderr.on("data", (chunk) => (stderr += chunk))
    child.once("error", reject)
    child.once("close", (code) => resolve({ code, stdout, stderr }))
  })

describe("the compiled server", () => {
  let server: ChildProcess | undefined
  let base = ""

  beforeAll(async () => {
    const build = await runNode(["scripts/build.mjs"], plainEnvironment())
    // Nothing on stdout: `pnpm switchyard` builds before the CLI and keeps stdout for its answers.
    expect(build).toEqual({ code: 0, stdout: "", stderr: "" })

    const served = await serveOnFreePort((port) =>
      launch(process.execPath, ["dist/main.js"], serverDir, plainEnvironment({
        SWITCHYARD_DATA_DIR: ":memory:",
        PORT: String(port),
        SWITCHYARD_BOOTSTRAP_API_KEY: KEY,
        LOG_LEVEL: "WARN"
      })), { what: "healthz of node dist/main.js" })
    server = served.server.child
    base = served.base
  })

  afterAll(async () => {
    if (server === undefined || server.exitCode !== null) return
    const stopped = exited(server)
    server.kill("SIGTERM")
    expect(await stopped).toBe(0)
  })

  it("built every module it runs and the files it reads beside them", () => {
    for (
      const file of [
        "../api/dist/index.js",
        "../connectors/dist/index.js",
        "../engine/dist/index.js",
        "dist/main.js",
        "dist/cli.js",
        "dist/ConnectorParseWorker.js",
        "dist/EmbeddedPostgresWorker.js",
        "dist/EmbeddedPostgresInit.js",
        "dist/assets/connect.js",
        "dist/assets/connect.css"
      ]
    ) expect({ file, built: Fs.existsSync(Path.join(serverDir, file)) }).toEqual({ file, built: true })
  })

  it("serves the API reference from the module the bundle loads on demand, kept out of the modules loaded at start", async () => {
    const scalar = "@scalar/api-reference"
    const holdingScalar = Fs.readdirSync(Path.join(serverDir, "dist")).filter((file) => file.endsWith(".js"))
      .filter((file) => Fs.readFileSync(Path.join(serverDir, "dist", file), "utf8").includes(scalar))
    expect(holdingScalar).toEqual([expect.stringMatching(/^HttpApiScalar-[A-Z0-9]+\.js$/)])
    const answer = await fetch(`${base}/docs`, { signal: AbortSignal.timeout(60_000) })
    expect(answer.status).toBe(200)
    const html = await answer.text()
    expect(html).toContain("list_accounts")
    expect(html).toContain(scalar)
  })

  it("answers /healthz and serves the connect page's script and style as they are in the sources", async () => {
    expect((await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(60_000) })).status).toBe(200)
    for (const [name, type] of [["connect.js", "text/javascript"], ["connect.css", "text/css"]] as const) {
      const answer = await fetch(`${base}/connect/assets/${name}`, { signal: AbortSignal.timeout(60_000) })
      expect({ name, status: answer.status }).toEqual({ name, status: 200 })
      expect(answer.headers.get("content-type")).toContain(type)
      expect(Buffer.from(await answer.arrayBuffer()))
        .toEqual(Fs.readFileSync(Path.join(serverDir, "src/edge/connectPage/assets", name)))
    }
  })

  it("installed the built-in connectors read from the connectors package's YAML", async () => {
    const answer = await fetch(`${base}/v2/connectors`, { headers: auth, signal: AbortSignal.timeout(60_000) })
    expect(answer.status).toBe(200)
    const body = (await answer.json()) as
      | ReadonlyArray<{ readonly id: string }>
      | { readonly data: ReadonlyArray<{ readonly id: string }> }
    const ids = (Array.isArray(body) ? body : (body as { data: ReadonlyArray<{ id: string }> }).data).map((c) => c.id)
    expect(ids).toContain("greenhouse@1.4.0~builtin")
    const shipped = new Set(builtinConnectorSources().map((source) => Path.basename(Path.dirname(source.file))))
    expect(new Set(ids.filter((id) => id.endsWith("~builtin")).map((id) => id.split("@")[0]))).toEqual(shipped)
  })

  it("reads an uploaded connector on its worker thread, started from the compiled module", async () => {
    const greenhouse = builtinConnectorSources().find((source) => source.file.endsWith("greenhouse/1.3.0.yaml"))!
    const yaml = greenhouse.yaml.replace("  key: greenhouse\n  version: 1.3.0\n", "  key: compiled-check\n  version: 0.1.0\n")
    expect(yaml).not.toBe(greenhouse.yaml)
    const upload = (body: unknown) =>
      fetch(`${base}/v2/connectors`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(60_000)
      })
    const created = await upload({ yaml })
    expect({ status: created.status, body: await created.text() }).toMatchObject({ status: 201 })
    // refused by the worker's YAML reader (a worker that cannot start answers 500)
    const refused = await upload({ yaml: "a: 1\na: 2\n" })
    expect({ status: refused.status, body: await refused.text() }).toMatchObject({ status: 422 })
  })

  it("runs the compiled CLI, and both it and the OpenAPI document give the package's version", async () => {
    const version = (JSON.parse(Fs.readFileSync(Path.join(serverDir, "package.json"), "utf8")) as { version: string })
      .version
    const cli = await runNode(["dist/cli.js", "--version"], plainEnvironment())
    expect(cli.code).toBe(0)
    expect(cli.stdout).toContain(version)
    // package.json is read when the bundle is built (esbuild inlines the JSON import): the
    // installed package's version, whatever the directory it runs from.
    const document = await fetch(`${base}/openapi.json`, { signal: AbortSignal.timeout(60_000) })
    expect(((await document.json()) as { info: { version: string } }).info.version).toBe(version)
  })
})
