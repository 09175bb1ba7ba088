import { PGlite, type PGliteOptions } from "@electric-sql/pglite"
import * as Fs from "node:fs/promises"
import { createRequire } from "node:module"
import * as Path from "node:path"
import { parentPort, workerData } from "node:worker_threads"
import { serveWire, type WireServer } from "./EmbeddedPostgresWire.js"

/*
 * The worker thread behind `embeddedPostgres`: PGlite and the loopback socket that
 * `@effect/sql-pg` talks to (EmbeddedPostgresWire.ts) run here, so the database's CPU (all
 * of PostgreSQL, in WebAssembly) is not spent on the event loop that answers requests, and
 * its memory goes with the thread.
 *
 * Two jobs, one per worker:
 * - `init` creates a database (PGlite runs initdb in a second, temporary instance) and
 *   closes it. What initdb compiled and allocated stays in a thread until that thread
 *   ends, so a new database is made by a worker of its own that then exits; in memory, the
 *   new data directory comes back as a tar archive.
 * - `serve` opens the database and serves it on 127.0.0.1 until told to stop, then closes
 *   it cleanly (a consistent data directory for the next start).
 */

/** PGlite's compiled WebAssembly, as its options name it (the build's libraries do not declare `WebAssembly`). */
export type PGliteWasmModule = NonNullable<PGliteOptions["pgliteWasmModule"]>

export type EmbeddedWorkerData =
  | { readonly job: "init"; readonly dataDir: string | undefined }
  | {
    readonly job: "serve"
    readonly dataDir: string | undefined
    /** In memory: the data directory `init` made (an uncompressed tar archive). */
    readonly archive: ArrayBuffer | undefined
    /** PGlite's WebAssembly as `init` compiled it, so it is not compiled twice. */
    readonly wasm: PGliteWasmModule | undefined
    readonly maxConnections: number
  }

export type EmbeddedWorkerReply =
  | { readonly _tag: "Initialized"; readonly archive: ArrayBuffer | undefined; readonly wasm: PGliteWasmModule }
  | { readonly _tag: "Ready"; readonly host: string; readonly port: number }
  | { readonly _tag: "Stopped" }
  | { readonly _tag: "Failed"; readonly message: string }

export type EmbeddedWorkerRequest = { readonly _tag: "Stop" }

/**
 * PostgreSQL sized for one small server, where initdb would size it for a machine:
 * PGlite is a single backend behind a socket server that runs one statement at a time, so
 * shared buffers (written in full at start, 128 MB by default) and the per-connection
 * shared memory (100 connections by default) are mostly never used. In memory the WAL is
 * memory too: 1 MB segments (16 MB by default, each held whole), a checkpoint every
 * 32 MB of WAL and at most 4 MB of segments kept for reuse.
 */
const settings = (inMemory: boolean): ReadonlyArray<string> => [
  "shared_buffers=16MB",
  "max_connections=10",
  "maintenance_work_mem=16MB",
  ...(inMemory ? ["min_wal_size=4MB", "max_wal_size=32MB"] : [])
]

const initDbStartParams = (inMemory: boolean) => inMemory ? ["--wal-segsize=1"] : []

const startParams = (inMemory: boolean) => [
  ...PGlite.defaultStartParams,
  ...settings(inMemory).flatMap((setting) => ["-c", setting])
]

const port = parentPort!
const data = workerData as EmbeddedWorkerData
const reply = (message: EmbeddedWorkerReply, transfer: ReadonlyArray<ArrayBuffer> = []) =>
  port.postMessage(message, [...transfer])

/** PostgreSQL's last words on stderr: why it would not start is said there, not in PGlite's error. */
const stderr: Array<string> = []
const onStderr = (line: string) => {
  if (line.trim() !== "") stderr.push(line.trim())
  if (stderr.length > 5) stderr.shift()
  return false
}

const messageOf = (error: unknown) => {
  const message = error instanceof Error ? error.message : String(error)
  return stderr.length === 0 ? message : `${message} (${stderr.join("; ")})`
}

const require = createRequire(import.meta.url)

/** The WebAssembly API (the compiler's libraries declare its types, not the global). */
const wasmApi = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<PGliteWasmModule> } })
  .WebAssembly

/** PGlite's WebAssembly module, compiled (beside its entry: the package exports no path to it). */
const compilePGlite = async () =>
  wasmApi.compile(await Fs.readFile(Path.join(Path.dirname(require.resolve("@electric-sql/pglite")), "pglite.wasm")))

/** Creates the database, closes it, and only then says so (the thread is ended on that reply). */
const init = async (dataDir: string | undefined) => {
  const inMemory = dataDir === undefined
  const wasm = await compilePGlite()
  const db = await PGlite.create(dataDir ?? "memory://", {
    initDbStartParams: initDbStartParams(inMemory),
    startParams: startParams(inMemory),
    pgliteWasmModule: wasm,
    onStderr
  })
  let archive: ArrayBuffer | undefined
  try {
    if (inMemory) archive = await (await db.dumpDataDir("none")).arrayBuffer()
  } finally {
    await db.close()
  }
  reply({ _tag: "Initialized", archive, wasm }, archive === undefined ? [] : [archive])
}

const serve = async (job: Extract<EmbeddedWorkerData, { job: "serve" }>) => {
  const inMemory = job.dataDir === undefined
  // PGlite reads the archive once into its files; a Blob would be two more copies of it
  // (the Blob's and the ArrayBuffer PGlite asks it for), and the workerData a third for
  // as long as the worker runs.
  const received = job.archive
  ;(job as { archive: ArrayBuffer | undefined }).archive = undefined
  const archive = received === undefined
    ? undefined
    : ({ type: "application/x-tar", arrayBuffer: () => Promise.resolve(received) } as unknown as Blob)
  const db = await PGlite.create({
    dataDir: job.dataDir ?? "memory://",
    ...(archive === undefined ? {} : { loadDataDir: archive }),
    ...(job.wasm === undefined ? {} : { pgliteWasmModule: job.wasm }),
    startParams: startParams(inMemory),
    onStderr
  })
  let server: WireServer
  try {
    server = await serveWire(db, { host: "127.0.0.1", maxConnections: job.maxConnections })
  } catch (error) {
    await db.close()
    throw error
  }
  port.on("message", (request: EmbeddedWorkerRequest) => {
    if (request._tag !== "Stop") return
    server.stop()
      .then(() => db.close())
      .then(
        () => reply({ _tag: "Stopped" }),
        (error) => reply({ _tag: "Failed", message: messageOf(error) })
      )
  })
  reply({ _tag: "Ready", host: server.host, port: server.port })
}

;(data.job === "init" ? init(data.dataDir) : serve(data)).catch((error) =>
  reply({ _tag: "Failed", message: messageOf(error) })
)
