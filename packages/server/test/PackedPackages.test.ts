import { SANDBOX_PORT_VARIABLES } from "@switchyard/sandbox"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type ChildProcess, spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { exited, launch, serveOnFreePort, waitFor } from "./support/ServerProcess.js"

/*
 * The packages as an outsider gets them: api, client and server packed with `pnpm pack` (which
 * builds each first, through its prepack script), installed with npm from their tarballs into
 * a fresh project in the system's temporary directory (outside the workspace, so nothing
 * resolves to its sources or its node_modules), a consumer program typechecked there with the installed TypeScript under
 * moduleResolution bundler and node16, and run against a server started by the installed
 * `switchyard start` binary. The npm registry is reached for the public dependencies
 * (effect, @effect/platform, PGlite, TypeScript); npm's cache is shared between runs in the
 * temporary directory, but the install is a real one (no offline preference).
 */

const serverDir = Path.resolve(import.meta.dirname, "..")
const workspaceDir = Path.resolve(serverDir, "../..")
const KEY = "swy_packed_packages_bootstrap_key_0123456789"
const minutes = (n: number) => n * 60_000

/** Every environment variable but the test runner's and pnpm's (NODE_OPTIONS, npm_*), and no database URL. */
const outsiderEnvironment = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const rest = Object.fromEntries(
    Object.entries(process.env).filter(([name]) =>
      name !== "DATABASE_URL" && name !== "NODE_OPTIONS" && !name.toLowerCase().startsWith("npm_")
    )
  )
  return { ...rest, ...extra }
}

/** Runs `command` to its end: exit code and everything it wrote. */
const run = (command: string, args: ReadonlyArray<string>, cwd: string, environment = outsiderEnvironment()) =>
  new Promise<{ code: number | null; stdout: string; output: string }>((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: environment })
    let stdout = ""
    let output = ""
    child.stdout.on("data", (chunk) => {
      stdout += chunk
      output += chunk
    })
    child.stderr.on("data", (chunk) => (output += chunk))
    child.once("error", reject)
    child.once("close", (code) => resolve({ code, stdout, output }))
  })

/** Like `run`, failing with the command's output unless it exits 0. */
const succeed = async (command: string, args: ReadonlyArray<string>, cwd: string, environment?: NodeJS.ProcessEnv) => {
  const result = await run(command, args, cwd, environment)
  if (result.code !== 0) throw new Error(`${command} ${args.join(" ")} exited ${result.code}:\n${result.output}`)
  return result
}

const readJson = (file: string) => JSON.parse(Fs.readFileSync(file, "utf8"))

/** Every file under `dir`, relative to it. */
const filesUnder = (dir: string): Array<string> =>
  Fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())
    .map((entry) => Path.relative(dir, Path.join(entry.parentPath, entry.name)))

/** An import, export-from or require of a path through a `src/` directory (the workspace's sources). */
const importOfSrc = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)["'][^"']*\bsrc\//m

describe("the packed packages, installed outside the workspace", () => {
  let work = ""
  let consumer = ""
  let typechecks: Record<"bundler" | "node16", { code: number | null; stdout: string; output: string }> | undefined
  let server: ChildProcess | undefined
  let base = ""
  let dataDir = ""
  /** The installed bin's environment: this node first on PATH, for its `#!/usr/bin/env node`. */
  const binEnvironment = (extra: Record<string, string> = {}) =>
    outsiderEnvironment({
      PATH: `${Path.dirname(process.execPath)}${Path.delimiter}${process.env["PATH"] ?? ""}`,
      ...extra
    })

  beforeAll(async () => {
    work = Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-packed-"))
    const packs = Path.join(work, "packs")
    consumer = Path.join(work, "consumer")
    Fs.mkdirSync(packs)
    Fs.mkdirSync(Path.join(consumer, "src"), { recursive: true })

    // No build first: each package's prepack builds it, so a pack after a clone (or after the
    // quick start, which builds the server but not the client) has dist/. The client's dist/
    // is removed to show it: nothing but its prepack makes it again (no other test reads it).
    Fs.rmSync(Path.join(workspaceDir, "packages/client/dist"), { recursive: true, force: true })

    // pnpm pack, as a release does: publishConfig and workspace: versions are applied by it.
    for (const name of ["api", "client", "server"]) {
      await succeed("npx", ["--yes", "pnpm@9.15.9", "pack", "--pack-destination", packs], Path.join(workspaceDir, "packages", name))
    }
    const tarballs = Fs.readdirSync(packs).filter((file) => file.endsWith(".tgz")).map((file) => Path.join(packs, file))
    expect(tarballs.map((file) => Path.basename(file)).sort()).toEqual([
      "switchyard-api-0.1.0.tgz",
      "switchyard-client-0.1.0.tgz",
      "switchyard-server-0.1.0.tgz"
    ])
    for (const tarball of tarballs) {
      const entries = (await succeed("tar", ["-tzf", tarball], packs)).stdout.split("\n")
      const entry = Path.basename(tarball).includes("server") ? "package/dist/bin.js" : "package/dist/index.js"
      expect({ tarball: Path.basename(tarball), built: entries.includes(entry) })
        .toEqual({ tarball: Path.basename(tarball), built: true })
    }

    // The consumer: its own package.json, the program and two tsconfigs, one per module resolution.
    Fs.writeFileSync(Path.join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }))
    Fs.copyFileSync(Path.join(serverDir, "test/packed/consumer.ts"), Path.join(consumer, "src/consumer.ts"))
    const strict = { target: "ES2022", strict: true, exactOptionalPropertyTypes: true, types: ["node"] }
    Fs.writeFileSync(
      Path.join(consumer, "tsconfig.bundler.json"),
      JSON.stringify({ compilerOptions: { ...strict, module: "ESNext", moduleResolution: "bundler", noEmit: true }, include: ["src"] })
    )
    Fs.writeFileSync(
      Path.join(consumer, "tsconfig.node16.json"),
      JSON.stringify({ compilerOptions: { ...strict, module: "node16", moduleResolution: "node16", outDir: "out" }, include: ["src"] })
    )

    // npm install of the tarballs with the peers and tools at the workspace's versions.
    const api = readJson(Path.join(workspaceDir, "packages/api/package.json"))
    const root = readJson(Path.join(workspaceDir, "package.json"))
    await succeed("npm", [
      "install",
      "--no-audit",
      "--no-fund",
      "--save-exact",
      ...tarballs,
      `effect@${api.devDependencies["effect"]}`,
      `@effect/platform@${api.devDependencies["@effect/platform"]}`,
      `typescript@${root.devDependencies["typescript"]}`,
      `@types/node@${root.devDependencies["@types/node"]}`
    ], consumer, outsiderEnvironment({ npm_config_cache: Path.join(Os.tmpdir(), "switchyard-packed-npm-cache") }))

    // Typecheck under both resolutions with the installed TypeScript (node16 also emits the
    // program to run), while the server from the installed binary starts on the embedded
    // database in a temporary directory: none of the three waits for another.
    const installedTsc = Path.join(consumer, "node_modules/typescript/bin/tsc")
    dataDir = Path.join(work, "data")
    const [bundler, node16, served] = await Promise.all([
      run(process.execPath, [installedTsc, "-p", "tsconfig.bundler.json"], consumer),
      run(process.execPath, [installedTsc, "-p", "tsconfig.node16.json"], consumer),
      serveOnFreePort((port) =>
        launch(Path.join(consumer, "node_modules/.bin/switchyard"), ["start"], consumer, binEnvironment({
          SWITCHYARD_DATA_DIR: dataDir,
          PORT: String(port),
          SWITCHYARD_BOOTSTRAP_API_KEY: KEY,
          LOG_LEVEL: "WARN"
        })), { what: "healthz of switchyard start", timeoutMs: minutes(5) })
    ])
    typechecks = { bundler, node16 }
    server = served.server.child
    base = served.base
  }, minutes(20))

  afterAll(async () => {
    if (server !== undefined && server.exitCode === null) {
      const stopped = exited(server)
      server.kill("SIGTERM")
      expect(await stopped).toBe(0)
    }
    if (work !== "") Fs.rmSync(work, { recursive: true, force: true })
  }, minutes(5))

  it("packs the client and the api without the workspace: no workspace: versions, no switchyard-source, no src/", () => {
    for (const name of ["api", "client"]) {
      const dir = Path.join(consumer, "node_modules/@switchyard", name)
      const manifest = Fs.readFileSync(Path.join(dir, "package.json"), "utf8")
      expect({ name, workspace: manifest.includes("workspace:"), source: manifest.includes("switchyard-source") })
        .toEqual({ name, workspace: false, source: false })
      expect(readJson(Path.join(dir, "package.json")).exports).toEqual({
        ".": { types: "./dist/index.d.ts", import: "./dist/index.js" }
      })
      const files = filesUnder(dir)
      expect(files.filter((file) => !file.startsWith("dist/") && file !== "package.json" && file !== "README.md"))
        .toEqual([])
      for (const file of files.filter((file) => file.endsWith(".js") || file.endsWith(".d.ts"))) {
        const text = Fs.readFileSync(Path.join(dir, file), "utf8")
        expect({ file, workspace: text.includes("workspace:"), source: text.includes("switchyard-source") })
          .toEqual({ file, workspace: false, source: false })
        expect({ file, importsSrc: importOfSrc.test(text) }).toEqual({ file, importsSrc: false })
      }
      // Source maps name their sources as ../src/X.ts, a path only: each carries its source
      // text (inlineSources), so a debugger shows it though src/ is not in the package.
      for (const file of files.filter((file) => file.endsWith(".js.map"))) {
        const map = readJson(Path.join(dir, file)) as { sources: Array<string>; sourcesContent?: Array<unknown> }
        expect({ file, contents: map.sourcesContent?.length, allText: map.sourcesContent?.every((c) => typeof c === "string") })
          .toEqual({ file, contents: map.sources.length, allText: true })
      }
    }
    const client = readJson(Path.join(consumer, "node_modules/@switchyard/client/package.json"))
    expect(client.dependencies).toEqual({ "@switchyard/api": "^0.1.0" })
    expect(Object.keys(client.peerDependencies).sort()).toEqual(["@effect/platform", "effect"])
    // The server's bundle leaves only PGlite external: its one dependency.
    const server = readJson(Path.join(consumer, "node_modules/@switchyard/server/package.json"))
    expect(server.dependencies).toEqual({ "@electric-sql/pglite": expect.any(String) })
    expect(server.bin).toEqual({ switchyard: "dist/bin.js" })
  })

  it("typechecks a consumer with the installed TypeScript under moduleResolution bundler and node16", () => {
    expect(typechecks?.bundler).toEqual({ code: 0, stdout: "", output: "" })
    expect(typechecks?.node16).toEqual({ code: 0, stdout: "", output: "" })
  })

  it("runs the consumer's Effect client and Promise client against the server of `switchyard start`", async () => {
    const result = await succeed(
      process.execPath,
      ["out/consumer.js"],
      consumer,
      outsiderEnvironment({ SWITCHYARD_BASE_URL: base, SWITCHYARD_API_KEY: KEY })
    )
    const seen = JSON.parse(result.stdout) as {
      effect: { ids: Array<string>; refused: string }
      promise: { ids: Array<string>; rejected: string }
    }
    expect(seen.effect.ids).toContain("greenhouse@1.4.0~builtin")
    expect(seen.promise.ids).toEqual(seen.effect.ids)
    expect(seen.effect.refused).toBe("Unauthorized")
    expect(seen.promise.rejected).toBe("Unauthorized")
  })

  it("serves the dashboard from the installed package: its page and the two assets its build put beside the bundle", async () => {
    const page = await fetch(`${base}/dashboard`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain(`src="dashboard/assets/dashboard.js"`)
    for (const file of ["dashboard.js", "dashboard.css"]) {
      const asset = await fetch(`${base}/dashboard/assets/${file}`)
      expect({ file, status: asset.status, bytes: (await asset.arrayBuffer()).byteLength > 1000 })
        .toEqual({ file, status: 200, bytes: true })
    }
  })

  it("runs the admin CLI from the installed binary on the server's embedded database", async () => {
    const version = await succeed(Path.join(consumer, "node_modules/.bin/switchyard"), ["--version"], consumer, binEnvironment())
    expect(version.stdout.trim()).toBe(readJson(Path.join(serverDir, "package.json")).version)
    const projects = await succeed(
      Path.join(consumer, "node_modules/.bin/switchyard"),
      ["projects", "list"],
      consumer,
      binEnvironment({ SWITCHYARD_DATA_DIR: dataDir })
    )
    expect(projects.stdout).toContain("Default project")
  })

  it("runs the sandbox's providers from the installed binary", async () => {
    const ports = Object.fromEntries(SANDBOX_PORT_VARIABLES.map((name) => [name, "0"]))
    const sandbox = spawn(Path.join(consumer, "node_modules/.bin/switchyard"), ["sandbox"], {
      cwd: consumer,
      env: binEnvironment(ports)
    })
    let output = ""
    sandbox.stdout.on("data", (chunk) => (output += chunk))
    sandbox.stderr.on("data", (chunk) => (output += chunk))
    try {
      let ats = ""
      await waitFor(() => {
        if (sandbox.exitCode !== null) throw new Error(`switchyard sandbox exited with ${sandbox.exitCode}:\n${output}`)
        ats = /ATS .*?(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1] ?? ""
        return ats !== ""
      }, "the sandbox's addresses", minutes(3))
      const admin = await fetch(`${ats}/_sandbox`, { signal: AbortSignal.timeout(60_000) })
      expect(admin.status).toBe(200)
    } finally {
      const stopped = exited(sandbox)
      sandbox.kill("SIGTERM")
      expect(await stopped).toBe(0)
    }
  })
})
