/*
 * Builds the server to JavaScript, `pnpm --filter @switchyard/server build` (and the first
 * step of `pnpm start` and `pnpm switchyard`), in two steps:
 * 1. tsc --build of tsconfig.build.json, which typechecks and compiles the workspace packages
 *    the server runs on (api, connectors, engine, each into its dist/) and then the server
 *    (into build/).
 * 2. esbuild bundles the server's entry points (main, cli and the modules its worker threads
 *    and child processes start) from build/ into dist/, one directory with their shared
 *    chunks, and copies the files read at run time beside them (the connect page's script
 *    and style in dist/assets/). The bundle keeps only the modules the server uses: with
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

const serverDir = Path.resolve(import.meta.dirname, "..")
const rootConfig = Path.join(serverDir, "tsconfig.build.json")

const distDir = Path.join(serverDir, "dist")

/** Modules run as processes or threads, compiled in build/: each is one file in dist/. */
const entryPoints = [
  "main.js",
  "cli.js",
  "Connectors/ConnectorParseWorker.js",
  "Database/EmbeddedPostgresWorker.js",
  "Database/EmbeddedPostgresInit.js"
]

/** Run-time files that are not modules, from src/ to dist/ (beside the bundle, as beside their module in src/). */
const assets = { "ConnectPage/assets": "assets" }

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

/** The newest modification time under `dir`, directories included (removing a file changes its directory). */
const newestUnder = (dir) =>
  Fs.readdirSync(dir, { withFileTypes: true }).reduce((newest, entry) => {
    const path = Path.join(dir, entry.name)
    return Math.max(newest, entry.isDirectory() ? newestUnder(path) : Fs.statSync(path).mtimeMs)
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
 * One ES module per entry point in dist/, shared code in chunks beside them: every module
 * of the server resolves its neighbours (`new URL("./X.js", import.meta.url)`) in that one
 * directory.
 */
const bundle = async () => {
  const esbuild = await import("esbuild")
  Fs.rmSync(distDir, { recursive: true, force: true })
  await esbuild.build({
    absWorkingDir: serverDir,
    entryPoints: entryPoints.map((entry) => Path.join("build", entry)),
    outdir: "dist",
    entryNames: "[name]",
    chunkNames: "[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // PGlite loads its WebAssembly and data files from beside its module.
    external: ["@electric-sql/pglite", "pg-native"],
    plugins: [apiReferenceOnDemand],
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
}

const stale = outOfDate()
if (stale && !(await compile())) {
  process.stderr.write("switchyard: the build failed (TypeScript errors above)\n")
  process.exit(1)
}
if (stale || !entryPoints.every((entry) => Fs.existsSync(Path.join(distDir, Path.basename(entry))))) {
  await bundle().catch((error) => {
    process.stderr.write(`switchyard: bundling failed: ${error.message}\n`)
    process.exit(1)
  })
}
