/*
 * Builds the server to JavaScript, `pnpm --filter @switchyard/server build` (and the first
 * step of `pnpm start` and `pnpm switchyard`): tsc --build of tsconfig.build.json, which
 * compiles the workspace packages the server runs on (api, connectors, engine) and then the
 * server, each into its own dist/; then the files the server reads at run time beside its
 * modules are copied next to the compiled ones (the connect page's script and style).
 *
 * Incremental: tsc --build rebuilds only what changed. When no input of any project in the
 * build is newer than that project's last build (tsc's own up-to-date test: its sources,
 * the directories holding them, its configs and package.json), TypeScript is not even
 * loaded, which is most of a no-op build's time. Nothing is written to stdout, so the CLI
 * run after it keeps stdout for its answers: errors go to stderr and end with exit code 1.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"

const serverDir = Path.resolve(import.meta.dirname, "..")
const rootConfig = Path.join(serverDir, "tsconfig.build.json")

/** Run-time files that are not modules: copied from src/ to the same place under dist/. */
const assets = ["ConnectPage/assets"]

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
    const built = Fs.statSync(Path.join(dir, "dist/tsconfig.build.tsbuildinfo"), { throwIfNoEntry: false })
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

if (outOfDate() && !(await compile())) {
  process.stderr.write("switchyard: the build failed (TypeScript errors above)\n")
  process.exit(1)
}

for (const asset of assets) {
  const target = Path.join(serverDir, "dist", asset)
  Fs.rmSync(target, { recursive: true, force: true })
  Fs.cpSync(Path.join(serverDir, "src", asset), target, { recursive: true })
}
