/*
 * Builds the dashboard into dist/: one script (dashboard.js) and one style sheet
 * (dashboard.css), bundled by esbuild for browsers from src/main.tsx with the derived client,
 * Preact and uPlot inside. The server serves these two files at /dashboard/assets/ (its
 * build copies them into its own dist/), so nothing is loaded from anywhere else.
 *
 * Prints the script's and style's sizes, raw and gzipped (as the server sends them), and fails
 * when the gzipped script passes the budget: the dashboard's first load must stay under 300 KB
 * of compressed script.
 *
 * Incremental: nothing is done when dist/ is newer than every source it is built from (this
 * package's, the client's and the API definition's), so the server's build can run it each time.
 * `--force` builds anyway. Output goes to stdout unless `--quiet`, so the server's build,
 * which keeps stdout for the CLI, can run it silently but for errors.
 */
import * as Esbuild from "esbuild"
import * as Fs from "node:fs"
import * as Path from "node:path"
import * as Zlib from "node:zlib"

const dashboardDir = Path.resolve(import.meta.dirname, "..")
const distDir = Path.join(dashboardDir, "dist")
const outputs = ["dashboard.js", "dashboard.css"]
/** Compressed script a first load may fetch, in bytes. */
export const SCRIPT_BUDGET = 300 * 1024

const sources = [
  Path.join(dashboardDir, "src"),
  Path.join(dashboardDir, "package.json"),
  Path.join(dashboardDir, "scripts"),
  Path.resolve(dashboardDir, "../client/src"),
  Path.resolve(dashboardDir, "../api/src")
]

const newestUnder = (path) => {
  const stat = Fs.statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return Fs.readdirSync(path).reduce((newest, name) => Math.max(newest, newestUnder(Path.join(path, name))), stat.mtimeMs)
}

const upToDate = () => {
  const built = outputs.map((file) => Fs.statSync(Path.join(distDir, file), { throwIfNoEntry: false }))
  if (built.some((stat) => stat === undefined)) return false
  return Math.max(...sources.map(newestUnder)) < Math.min(...built.map((stat) => stat.mtimeMs))
}

const args = new Set(process.argv.slice(2))
const say = args.has("--quiet") ? () => {} : (line) => console.log(line)

if (!args.has("--force") && upToDate()) {
  say("@switchyard/dashboard: up to date")
} else {
  const result = await Esbuild.build({
    absWorkingDir: dashboardDir,
    entryPoints: [{ in: "src/main.tsx", out: "dashboard" }],
    outdir: distDir,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: ["chrome109", "firefox115", "safari16"],
    // the workspace packages from their sources, as the server's tests and typecheck read them
    conditions: ["switchyard-source"],
    jsx: "automatic",
    jsxImportSource: "preact",
    minify: true,
    treeShaking: true,
    legalComments: "eof",
    metafile: true,
    logLevel: "error"
  })
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`
  let scriptGzipped = 0
  for (const file of outputs) {
    const bytes = Fs.readFileSync(Path.join(distDir, file))
    const gzipped = Zlib.gzipSync(bytes, { level: 9 }).length
    if (file.endsWith(".js")) scriptGzipped = gzipped
    say(`@switchyard/dashboard: ${file} ${bytes.length} bytes (${kib(bytes.length)}), ${gzipped} bytes gzipped (${kib(gzipped)})`)
  }
  say(`@switchyard/dashboard: first load ${kib(scriptGzipped)} of gzipped script, budget ${kib(SCRIPT_BUDGET)}`)
  if (scriptGzipped > SCRIPT_BUDGET) {
    process.stderr.write(`@switchyard/dashboard: the script is ${kib(scriptGzipped)} gzipped, over the ${kib(SCRIPT_BUDGET)} budget\n`)
    process.exit(1)
  }
  void result
}
