import { spawnSync } from "node:child_process"
import * as Path from "node:path"

/*
 * Vitest's global setup for the server's tests: the server is built to dist/ once per run
 * (scripts/build.mjs, incremental), before any test file starts, so that the process tests
 * start `node dist/main.js` and `node dist/cli.js` (ServerProcess.ts) instead of loading every
 * source module through tsx in each process, and the tests that run the build themselves
 * (CompiledBuild, the README's `pnpm switchyard`) find it up to date rather than racing
 * another worker to write it.
 */

const serverDir = Path.resolve(import.meta.dirname, "../..")

export default function buildServerOnce() {
  // A build outside the test runner's tooling, as `pnpm start` runs it.
  const { NODE_OPTIONS: _nodeOptions, ...environment } = process.env
  const started = performance.now()
  const build = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: serverDir, env: environment, encoding: "utf8" })
  if (build.status !== 0) {
    throw new Error(`the server's build (scripts/build.mjs) failed with ${build.status ?? build.signal}:\n${build.stderr}`)
  }
  // once per run, so where the run's time goes shows it (pnpm test:profile)
  console.log(`Run setup: the server built for the process tests in ${((performance.now() - started) / 1000).toFixed(1)} s`)
}
