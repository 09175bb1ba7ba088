/*
 * Builds the server to JavaScript, `pnpm --filter @switchyard/server build` (and the first
 * step of `pnpm start` and `pnpm switchyard`), in two steps:
 * 1. tsc --build of tsconfig.build.json, which typechecks and compiles the workspace packages
 *    the server runs on (api, connectors, engine, each into its dist/) and then the server
 *    (into build/).
 * 2. esbuild bundles the server's entry points (bin, the installed package's `switchyard`
 *    binary; main, cli and the modules its worker threads and child processes start) from
 *    build/ and the sandbox's providers from its sources into dist/, one directory with their
 *    shared chunks, and copies the files read at run time beside them (the connect page's
 *    script and style in dist/assets/, the built-in connectors' YAML in dist/connectors/).
 * 3. The dashboard's own build (packages/dashboard, a browser bundle), copied to dist/dashboard/.
 *    dist/ is self-contained: the published package depends only on what the bundle leaves
 *    external (PGlite, which loads its WebAssembly from beside its own module). The bundle keeps only the modules the server uses: with
 *    whole packages loaded through their index (effect, @effect/platform with its two API
 *    reference UIs), the idle server held about 35 MB more.
 *
 * Incremental: tsc --build rebuilds only what changed. When no input of any project in the
 * build is newer than that project's last build (tsc's own up-to-date test: its sources,
 * the directories holding them, its configs and package.json), TypeScript is not even
 * loaded and the bundle is kept, which is most of a no-op build's time. Nothing is written
 * to stdout, so the CLI run after it keeps stdout for its answers: errors go to stderr and
 * end with exit code 1.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import { spawnSync } from "node:child_process"

const serverDir = Path.resolve(import.meta.dirname, "..")
const rootConfig = Path.join(serverDir, "tsconfig.build.json")

const distDir = Path.join(serverDir, "dist")

/** Modules run as processes or threads, compiled in build/: each is one file in dist/. */
const entryPoints = [
  "bin.js",
  "main.js",
  "cli.js",
  "features/connectors/ConnectorParseWorker.js",
  "platform/database/EmbeddedPostgresWorker.js",
  "platform/database/EmbeddedPostgresInit.js"
]

/**
 * The sandbox's providers (`switchyard sandbox`), bundled from the sandbox package's sources
 * (esbuild strips their types; `pnpm typecheck` checks them) into dist/sandbox.js, so the
 * installed package runs them without tsx.
 */
const sandboxDir = Path.resolve(serverDir, "../sandbox")
const sandboxEntry = { in: Path.join(sandboxDir, "src/main.ts"), out: "sandbox" }

/**
 * `switchyard demo` (src/app/demo/): it starts the sandbox in its own process, so like the sandbox
 * it is bundled from its sources into dist/demo.js, outside the tsc build (tsconfig.build.json
 * excludes it: the sandbox has no build of its own to compile against).
 */
const demoDir = Path.join(serverDir, "src/app/demo")
const demoEntry = { in: Path.join(demoDir, "main.ts"), out: "demo" }

/**
 * The built-in connectors' YAML, copied to dist/connectors/: the installed server has no
 * @switchyard/connectors package to find it in (see builtinConnectorsBeside below).
 */
const connectorsDir = Path.resolve(serverDir, "../connectors/connectors")

/** Run-time files that are not modules, from src/ to dist/ (beside the bundle, as beside their module in src/). */
const assets = { "edge/connectPage/assets": "assets" }

/** A tsconfig's JSON: these configs have whole-line comments only. */
const readConfig = (file) => JSON.parse(Fs.readFileSync(file, "utf8").replace(/^\s*\/\/.*$/gm, ""))

/** tsconfig.build.json and the projects it references, each once. */
const buildProjects = (config, seen = new Set()) => {
  if (seen.has(config)) return seen
  seen.add(config)
  for (const reference of readConfig(config).references ?? []) {
    buildProjects(Path.resolve(Path.dirname(config), reference.path), seen)
  }
  return seen
}

/**
 * The newest modification time under `dir`, directories included (removing a file changes its
 * directory), except under `skip` (the demo, which tsc does not build: a change there must not
 * make the build look out of date forever).
 */
const newestUnder = (dir, skip = demoDir) =>
  Fs.readdirSync(dir, { withFileTypes: true }).reduce((newest, entry) => {
    const path = Path.join(dir, entry.name)
    if (path === skip) return newest
    return Math.max(newest, entry.isDirectory() ? newestUnder(path, skip) : Fs.statSync(path).mtimeMs)
  }, Fs.statSync(dir).mtimeMs)

/** Whether some project never built, or its sources or configuration changed since its last build. */
const outOfDate = () =>
  [...buildProjects(rootConfig)].some((config) => {
    const dir = Path.dirname(config)
    const buildInfo = readConfig(config).compilerOptions?.tsBuildInfoFile ?? "dist/tsconfig.build.tsbuildinfo"
    const built = Fs.statSync(Path.join(dir, buildInfo), { throwIfNoEntry: false })
    if (built === undefined) return true
    const configs = [config, Path.join(dir, "package.json"), Path.resolve(dir, "../../tsconfig.base.json")]
    return Math.max(newestUnder(Path.join(dir, "src")), ...configs.map((file) => Fs.statSync(file).mtimeMs)) >=
      built.mtimeMs
  })

const compile = async () => {
  const { default: ts } = await import("typescript")
  const formatHost = {
    getCanonicalFileName: (fileName) => fileName,
    getCurrentDirectory: () => process.cwd(),
    getNewLine: () => "\n"
  }
  const reportDiagnostic = (diagnostic) =>
    process.stderr.write(
      process.stderr.isTTY
        ? ts.formatDiagnosticsWithColorAndContext([diagnostic], formatHost)
        : ts.formatDiagnostic(diagnostic, formatHost)
    )
  // No progress reports (what tsc --build --verbose would print): silent unless something is wrong.
  const host = ts.createSolutionBuilderHost(ts.sys, undefined, reportDiagnostic, () => {}, () => {})
  return ts.createSolutionBuilder(host, [rootConfig], {}).build() === ts.ExitStatus.Success
}

/**
 * The API reference page's module (Scalar's 6 MB script) is imported on the first request
 * for it (ApiDocsLive.ts), but @effect/platform's index also re-exports it (and the unused
 * Swagger UI), and esbuild keeps what the index reaches in the chunks loaded at start. The
 * index is read without those two re-exports: nothing here imports them through it.
 */
const apiReferenceOnDemand = {
  name: "api-reference-on-demand",
  setup(build) {
    build.onLoad({ filter: /[\\/]@effect[\\/]platform[\\/]dist[\\/]esm[\\/]index\.js$/ }, (args) => ({
      contents: Fs.readFileSync(args.path, "utf8").replace(/^export \* as HttpApi(Scalar|Swagger) from .*$/gm, ""),
      loader: "js"
    }))
  }
}

/**
 * @switchyard/connectors finds its YAML through its own package.json (resolved from the
 * importing module), which an installed server does not have: its bundle is self-contained.
 * In the bundle the YAML is read from dist/connectors/, beside the chunk that holds the
 * connectors module (every chunk is at dist/'s top level). The exact expression is replaced;
 * when it is not there (the module changed), the build fails rather than ship a server
 * without its connectors.
 */
const builtinConnectorsBeside = {
  name: "builtin-connectors-beside",
  setup(build) {
    const lookup = 'createRequire(import.meta.url).resolve("@switchyard/connectors/package.json")'
    // The sources through tsconfig.json's paths (as esbuild resolves them from build/), or the build in dist/.
    build.onLoad({ filter: /[\\/]connectors[\\/](src|dist)[\\/]builtinConnectorSources\.(ts|js)$/ }, (args) => {
      const contents = Fs.readFileSync(args.path, "utf8")
      if (!contents.includes(lookup)) throw new Error(`${args.path} no longer finds its YAML through ${lookup}`)
      // A file in dist/: its directory joined with "connectors" is dist/connectors.
      return { contents: contents.replace(lookup, "fileURLToPath(import.meta.url)") +
        "\nimport { fileURLToPath } from \"node:url\"\n", loader: args.path.endsWith(".ts") ? "ts" : "js" }
    })
  }
}

/**
 * One ES module per entry point in dist/, shared code in chunks beside them: every module
 * of the server resolves its neighbours (`new URL("./X.js", import.meta.url)`) in that one
 * directory.
 */
const bundle = async () => {
  const esbuild = await import("esbuild")
  Fs.rmSync(distDir, { recursive: true, force: true })
  await esbuild.build({
    absWorkingDir: serverDir,
    entryPoints: [
      ...entryPoints.map((entry) => ({ in: Path.join("build", entry), out: Path.basename(entry, ".js") })),
      sandboxEntry,
      demoEntry
    ],
    outdir: "dist",
    chunkNames: "[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // PGlite loads its WebAssembly and data files from beside its module.
    external: ["@electric-sql/pglite", "pg-native"],
    plugins: [apiReferenceOnDemand, builtinConnectorsBeside],
    // CommonJS dependencies inside an ES module still call `require`.
    banner: { js: "import { createRequire as __createRequire } from \"node:module\"; const require = __createRequire(import.meta.url);" },
    minifySyntax: true,
    minifyWhitespace: true,
    logLevel: "error"
  })
  for (const [from, to] of Object.entries(assets)) {
    Fs.cpSync(Path.join(serverDir, "src", from), Path.join(distDir, to), { recursive: true })
    // build/ runs too, unbundled: `pnpm bench:profile` reads its functions where they are.
    Fs.rmSync(Path.join(serverDir, "build", from), { recursive: true, force: true })
    Fs.cpSync(Path.join(serverDir, "src", from), Path.join(serverDir, "build", from), { recursive: true })
  }
  Fs.cpSync(connectorsDir, Path.join(distDir, "connectors"), { recursive: true })
  // The binary: executable for a clone too (npm sets the mode of an installed package's bin).
  Fs.chmodSync(Path.join(distDir, "bin.js"), 0o755)
}

/** Whether the bundle is older than what it holds beside the compiled server: the sandbox's and demo's sources, the connectors' YAML. */
const bundleOutOfDate = () => {
  const bundled = ["sandbox.js", "demo.js"].map((file) => Fs.statSync(Path.join(distDir, file), { throwIfNoEntry: false }))
  return bundled.some((stat) => stat === undefined) ||
    Math.max(newestUnder(Path.join(sandboxDir, "src")), newestUnder(demoDir, null), newestUnder(connectorsDir)) >=
      Math.min(...bundled.map((stat) => stat.mtimeMs))
}

/**
 * One build at a time: test files that build (CompiledBuild, PackedPackages) run in parallel,
 * and a second bundle would delete dist/ under a server the first one started. The lock is a
 * directory holding its owner's pid; a lock whose owner is gone (a build killed midway) is
 * taken over. Waiting polls the lock: the holder's build is as long as it is.
 */
const lockDir = Path.join(serverDir, ".build-lock")
const ownerAlive = () => {
  try {
    process.kill(Number(Fs.readFileSync(Path.join(lockDir, "pid"), "utf8")), 0)
    return true
  } catch (error) {
    // EPERM: alive but another user's; ENOENT: released meanwhile, try again.
    return error.code === "EPERM" || error.code === "ENOENT"
  }
}
/** Takes the lock: a directory made with its pid file inside and renamed into place at once. */
const lock = () => {
  for (;;) {
    const claim = Fs.mkdtempSync(`${lockDir}-`)
    Fs.writeFileSync(Path.join(claim, "pid"), String(process.pid))
    try {
      Fs.renameSync(claim, lockDir)
      return
    } catch (error) {
      Fs.rmSync(claim, { recursive: true, force: true })
      if (error.code !== "EEXIST" && error.code !== "ENOTEMPTY") throw error
      if (!ownerAlive()) Fs.rmSync(lockDir, { recursive: true, force: true })
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100)
    }
  }
}
lock()
process.on("exit", () => Fs.rmSync(lockDir, { recursive: true, force: true }))

/** Each project's build info file, the mark `outOfDate` compares its inputs with. */
const buildInfoFiles = () =>
  [...buildProjects(rootConfig)].map((config) =>
    Path.join(Path.dirname(config), readConfig(config).compilerOptions?.tsBuildInfoFile ?? "dist/tsconfig.build.tsbuildinfo")
  )

const stale = outOfDate()
if (stale && !(await compile())) {
  process.stderr.write("switchyard: the build failed (TypeScript errors above)\n")
  process.exit(1)
}
if (stale) {
  // tsc leaves a project's build info untouched when it finds nothing to emit (a file added and
  // removed again changes only its directory): mark every project built now, or each later build
  // would find it stale once more and bundle dist/ again under servers running from it
  const now = new Date()
  for (const file of buildInfoFiles()) if (Fs.existsSync(file)) Fs.utimesSync(file, now, now)
}
if (stale || !entryPoints.every((entry) => Fs.existsSync(Path.join(distDir, Path.basename(entry)))) || bundleOutOfDate()) {
  await bundle().catch((error) => {
    process.stderr.write(`switchyard: bundling failed: ${error.message}\n`)
    process.exit(1)
  })
}

/**
 * The dashboard (packages/dashboard): its own build, incremental, then its two files copied
 * to dist/dashboard/ whenever they are newer there than here, where the server reads them
 * beside its bundle (edge/dashboard/dashboardAssets.ts). Its size report goes to stderr:
 * stdout stays the CLI's.
 */
const dashboardDir = Path.resolve(serverDir, "../dashboard")
const dashboardBuild = spawnSync(process.execPath, [Path.join(dashboardDir, "scripts/build.mjs")], {
  stdio: ["ignore", "ignore", "inherit"]
})
if (dashboardBuild.status !== 0) {
  process.stderr.write("switchyard: the dashboard's build failed (errors above)\n")
  process.exit(1)
}
const builtDashboard = Path.join(dashboardDir, "dist")
const servedDashboard = Path.join(distDir, "dashboard")
for (const file of Fs.readdirSync(builtDashboard)) {
  const from = Path.join(builtDashboard, file)
  const to = Path.join(servedDashboard, file)
  const copied = Fs.statSync(to, { throwIfNoEntry: false })
  if (copied === undefined || copied.mtimeMs < Fs.statSync(from).mtimeMs) {
    Fs.mkdirSync(servedDashboard, { recursive: true })
    Fs.copyFileSync(from, to)
  }
}
