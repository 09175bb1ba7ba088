import { PGlite } from "@electric-sql/pglite"
import { parentPort, workerData } from "node:worker_threads"
import { startParams, stderrTail } from "./EmbeddedPostgresSettings.js"
import { serveWire, type WireServer } from "./EmbeddedPostgresWire.js"

/*
 * The worker thread behind `embeddedPostgres`: PGlite and the loopback socket that
 * `@effect/sql-pg` talks to (EmbeddedPostgresWire.ts) run here, so the database's CPU (all
 * of PostgreSQL, in WebAssembly) is not spent on the event loop that answers requests.
 * It opens an existing database (EmbeddedPostgresInit.ts creates new ones), serves it on
 * 127.0.0.1 until told to stop, then closes it cleanly (a consistent data directory for
 * the next start).
 */

export type EmbeddedWorkerData = {
  readonly dataDir: string | undefined
  /** In memory: the data directory EmbeddedPostgresInit made (an uncompressed tar archive). */
  readonly archive: ArrayBuffer | undefined
  readonly maxConnections: number
}

export type EmbeddedWorkerReply =
  | { readonly _tag: "Ready"; readonly host: string; readonly port: number }
  | { readonly _tag: "Stopped" }
  | { readonly _tag: "Failed"; readonly message: string }

export type EmbeddedWorkerRequest = { readonly _tag: "Stop" }

const port = parentPort!
const data = workerData as EmbeddedWorkerData
const reply = (message: EmbeddedWorkerReply) => port.postMessage(message)

const { onStderr, messageOf } = stderrTail()

const serve = async (job: EmbeddedWorkerData) => {
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

serve(data).catch((error) => reply({ _tag: "Failed", message: messageOf(error) }))
