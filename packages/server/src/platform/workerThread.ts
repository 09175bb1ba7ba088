import { type ChildProcess, fork, type ForkOptions } from "node:child_process"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import { fileURLToPath, pathToFileURL } from "node:url"
import { Worker, type WorkerOptions } from "node:worker_threads"

/*
 * Worker threads and child processes of the server start from a module beside their caller, whether the
 * process runs the compiled JavaScript (`dist/`, `node dist/main.js`) or the TypeScript
 * sources (tsx, vitest). The caller names the compiled module,
 * `new URL("./SomeWorker.js", import.meta.url)`: when that file exists it is the worker's
 * entry as is; otherwise the caller is a source file and the worker runs `SomeWorker.ts`
 * through tsx.
 */

const require = createRequire(import.meta.url)

/**
 * The worker runs the TypeScript sources like the server does (tsx), whether or not the
 * process itself was started through tsx (tests are not), so it is started bare and
 * registers tsx's loader before importing its entry. `tsx/esm/api` is resolved by path:
 * `require.resolve` picks its CommonJS build, which cannot register from a worker.
 * Both URLs are written into the bootstrap, so the worker's `workerData` stays the caller's.
 */
const bootstrap = (entry: URL) => {
  const tsxEsmApi = require.resolve("tsx/package.json").replace(/package\.json$/, "dist/esm/api/index.mjs")
  return `import(${JSON.stringify(pathToFileURL(tsxEsmApi).href)})
  .then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}) })`
}

/** Whether `url` names a file that exists. */
const exists = (url: URL) => {
  try {
    return Fs.statSync(fileURLToPath(url)).isFile()
  } catch {
    return false
  }
}

/** The compiled module `entry` when it exists, else its `.ts` source (which must exist). */
const moduleToRun = (entry: URL): { readonly url: URL; readonly compiled: boolean } => {
  if (exists(entry)) return { url: entry, compiled: true }
  const source = new URL(entry.href.replace(/\.js$/, ".ts"))
  if (!exists(source)) throw new Error(`no worker module at ${fileURLToPath(entry)} nor its source ${fileURLToPath(source)}`)
  return { url: source, compiled: false }
}

/**
 * From sources, the worker reads the workspace packages' sources too: their exports send
 * node to the build in dist/ (missing or stale while the sources are being worked on)
 * unless the "switchyard-source" condition is on, as it is for typecheck and vitest.
 */
const sourceConditions = ["--conditions=switchyard-source"]

/**
 * Starts a worker thread on the module `entry` (the compiled `.js` URL beside the caller),
 * or on its `.ts` source through tsx when no compiled module is there. `options` are the
 * Worker's; from sources the worker's `execArgv` is only the "switchyard-source" condition
 * beside those given (the bootstrap registers tsx itself). A module that fails to load is
 * the Worker's `error` event.
 */
export const startModuleWorker = (entry: URL, options: WorkerOptions = {}): Worker => {
  const module = moduleToRun(entry)
  if (module.compiled) return new Worker(module.url, options)
  return new Worker(bootstrap(module.url), {
    ...options,
    execArgv: [...(options.execArgv ?? []), ...sourceConditions],
    eval: true
  })
}

/**
 * Starts a child process (with an IPC channel) on the module `entry`, compiled or, when no
 * compiled module is there, its `.ts` source through tsx's loader, as `startModuleWorker`.
 * `options` are `fork`'s; from sources the loader and the "switchyard-source" condition
 * come before the given `execArgv`.
 */
export const startModuleProcess = (entry: URL, options: ForkOptions = {}): ChildProcess => {
  const module = moduleToRun(entry)
  if (module.compiled) return fork(fileURLToPath(module.url), [], { execArgv: [], ...options })
  const tsxEsm = require.resolve("tsx/package.json").replace(/package\.json$/, "dist/esm/index.mjs")
  return fork(fileURLToPath(module.url), [], {
    ...options,
    execArgv: ["--import", pathToFileURL(tsxEsm).href, ...sourceConditions, ...(options.execArgv ?? [])]
  })
}
