import { Data, Effect, Queue } from "effect"
import * as Fs from "node:fs"
import * as Path from "node:path"
import type { Worker } from "node:worker_threads"
import { startModuleProcess, startModuleWorker } from "../workerThread.js"
import type { EmbeddedInitReply, EmbeddedInitRequest } from "./EmbeddedPostgresInit.js"
import type { EmbeddedWorkerData, EmbeddedWorkerReply, EmbeddedWorkerRequest } from "./EmbeddedPostgresWorker.js"

/** Where a PostgreSQL-wire client reaches the embedded database. */
export interface PostgresAddress {
  readonly host: string
  readonly port: number
}

export class EmbeddedDatabaseError extends Data.TaggedError("EmbeddedDatabaseError")<{
  readonly message: string
}> {}

const LOCK_FILE = "server.lock"
const SOCKET_CONNECTIONS = 12

interface LockContents extends PostgresAddress {
  readonly pid: number
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

const readLock = (file: string): LockContents | undefined => {
  try {
    return JSON.parse(Fs.readFileSync(file, "utf8")) as LockContents
  } catch {
    return undefined
  }
}

/**
 * Who owns the data directory now: a live process (whose wire address we can borrow),
 * or nobody (a stale lock from a crashed process is removed).
 */
const currentOwner = (lockFile: string): LockContents | undefined => {
  const lock = readLock(lockFile)
  if (lock !== undefined && lock.pid !== process.pid && isAlive(lock.pid)) return lock
  Fs.rmSync(lockFile, { force: true })
  return undefined
}

/** Heap ceilings of the database's worker: PGlite's own JavaScript is small (its memory is WebAssembly's). */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 8 }

/** How long a stopping database may take to close before its thread is ended anyway. */
const STOP_WITHIN = "60 seconds"

const workerModule = new URL("./EmbeddedPostgresWorker.js", import.meta.url)
const initModule = new URL("./EmbeddedPostgresInit.js", import.meta.url)

const cannotStart = "cannot start the embedded database"

const failure = (doing: string, message: string) => new EmbeddedDatabaseError({ message: `${doing}: ${message}` })

/** What a worker said, then how its thread ended (an uncaught error's message, else the exit code). */
type WorkerEvent = EmbeddedWorkerReply | { readonly _tag: "Exited"; readonly why: string }

interface RunningWorker {
  readonly worker: Worker
  /** Its replies in order, kept from the moment it starts, and last its end. */
  readonly events: Queue.Queue<WorkerEvent>
  readonly hasExited: () => boolean
}

const startWorker = (job: EmbeddedWorkerData, transfer: ReadonlyArray<ArrayBuffer>) =>
  Effect.gen(function*() {
    const events = yield* Queue.unbounded<WorkerEvent>()
    const worker = yield* Effect.try({
      try: () =>
        startModuleWorker(workerModule, {
          workerData: job,
          transferList: [...transfer],
          resourceLimits: WORKER_LIMITS
        }),
      catch: (error) => failure(cannotStart, String(error))
    })
    let lastError: string | undefined
    let exited = false
    worker.on("message", (reply: EmbeddedWorkerReply) => Queue.unsafeOffer(events, reply))
    worker.on("error", (error) => {
      lastError = error.message
    })
    worker.on("exit", (code) => {
      exited = true
      Queue.unsafeOffer(events, { _tag: "Exited", why: lastError ?? `its thread exited with code ${code}` })
    })
    return { worker, events, hasExited: () => exited } satisfies RunningWorker
  })

/**
 * The worker's next reply, or its end as a failure: a thread that ends never leaves a
 * wait behind (its end stays in the queue for every later wait). `doing` opens the
 * failure's message.
 */
const nextReply = ({ events }: RunningWorker, doing: string) =>
  Effect.flatMap(Queue.take(events), (event) => {
    switch (event._tag) {
      case "Exited":
        return Effect.zipRight(Queue.offer(events, event), Effect.fail(failure(doing, event.why)))
      case "Failed":
        return Effect.fail(failure(doing, event.message))
      default:
        return Effect.succeed(event)
    }
  })

/** Ends the thread, once it stopped or could not. */
const endWorker = (worker: Worker) => Effect.promise(() => worker.terminate())

/** Asks the worker to stop serving and close PGlite, waits for it (bounded), then ends the thread. */
const stopServing = (running: RunningWorker) =>
  Effect.gen(function*() {
    if (!running.hasExited()) {
      running.worker.postMessage({ _tag: "Stop" } satisfies EmbeddedWorkerRequest)
      // Interruptible: a finalizer is not, and the timeout's race must be able to end its loser.
      yield* nextReply(running, "cannot stop the embedded database cleanly").pipe(
        Effect.timeoutFail({
          duration: STOP_WITHIN,
          onTimeout: () => failure("cannot stop the embedded database cleanly", `not closed within ${STOP_WITHIN}`)
        }),
        Effect.interruptible,
        Effect.catchAll((error) => Effect.logWarning(error.message))
      )
    }
    yield* endWorker(running.worker)
  })

/**
 * Creates a database in a child process of its own (see EmbeddedPostgresInit.ts), which
 * takes what initdb allocated with it when it exits. In memory, the new data directory
 * comes back as an archive. Interrupted, the process is killed.
 */
const initialize = (dataDir: string | undefined) =>
  Effect.async<{ readonly archive: ArrayBuffer | undefined }, EmbeddedDatabaseError>((resume) => {
    let child: ReturnType<typeof startModuleProcess>
    try {
      child = startModuleProcess(initModule, { serialization: "advanced", stdio: ["ignore", "ignore", "pipe", "ipc"] })
    } catch (error) {
      resume(Effect.fail(failure(cannotStart, String(error))))
      return
    }
    let reply: EmbeddedInitReply | undefined
    let stderr = ""
    child.stderr?.on("data", (chunk) => (stderr = (stderr + chunk).slice(-2000)))
    child.on("message", (message: EmbeddedInitReply) => (reply = message))
    child.on("error", (error) => resume(Effect.fail(failure(cannotStart, error.message))))
    child.on("exit", (code, signal) => {
      if (reply?._tag === "Initialized" && code === 0) return resume(Effect.succeed({ archive: reply.archive }))
      const why = reply?._tag === "Failed"
        ? reply.message
        : `its process exited with ${signal ?? `code ${code}`}${stderr.trim() === "" ? "" : `: ${stderr.trim()}`}`
      resume(Effect.fail(failure(cannotStart, why)))
    })
    child.send({ dataDir } satisfies EmbeddedInitRequest)
    return Effect.sync(() => child.kill("SIGKILL"))
  })

/**
 * Serves the database in `dataDir` (in memory when undefined, new or a copy of `snapshot`)
 * from a worker thread. On release the worker stops its socket server and closes PGlite
 * (awaited: the data directory is consistent for the next start) before the thread is ended.
 */
const startServing = (dataDir: string | undefined, snapshot: ArrayBuffer | undefined) =>
  Effect.gen(function*() {
    const fresh = dataDir === undefined || !Fs.existsSync(Path.join(dataDir, "PG_VERSION"))
    // the worker is given its own copy: the archive is transferred to it, not cloned
    const archive = dataDir === undefined && snapshot !== undefined
      ? snapshot.slice(0)
      : fresh
      ? (yield* initialize(dataDir)).archive
      : undefined
    // Started and ready, or ended: only a database that started is asked to stop.
    const { address, running } = yield* Effect.acquireRelease(
      Effect.gen(function*() {
        const running = yield* startWorker(
          { dataDir, archive, maxConnections: SOCKET_CONNECTIONS },
          archive === undefined ? [] : [archive]
        )
        const ready = yield* nextReply(running, cannotStart).pipe(
          Effect.flatMap((reply) =>
            reply._tag === "Ready" ? Effect.succeed(reply) : failure(cannotStart, `unexpected ${reply._tag}`)
          ),
          Effect.tapError(() => endWorker(running.worker))
        )
        return { address: { host: ready.host, port: ready.port }, running }
      }),
      ({ running }) => stopServing(running)
    )
    // A database that goes away later fails the queries sent to it; say why once.
    yield* nextReply(running, "the embedded database stopped unexpectedly").pipe(
      Effect.flip,
      Effect.flatMap((error) => Effect.logError(error.message)),
      Effect.forkScoped
    )
    return { address }
  })

/** How `embeddedPostgres` starts. */
export interface EmbeddedPostgresOptions {
  /** Borrow the wire address of a live process that owns the data directory (the CLI). */
  readonly share: boolean
  /**
   * In memory, start from this data directory (a tar archive, as PGlite's `dumpDataDir`
   * makes) instead of a new one: creating a database (initdb) costs seconds of CPU, loading
   * an archive a tenth of that, so tests start each server from one migrated snapshot.
   */
  readonly memorySnapshot?: ArrayBuffer | undefined
}

/**
 * Starts PGlite (in `dataDir`, or in memory for `:memory:`) and serves it on a loopback
 * socket, so `@effect/sql-pg` talks to it exactly as to any PostgreSQL. PGlite is
 * single-process: a lock file in the data directory records the owner's pid and wire
 * address. With `share: true` (the CLI) a running owner's address is borrowed instead;
 * otherwise a live owner is a clear error, never a second writer.
 */
export const embeddedPostgres = (
  dataDir: string,
  options: EmbeddedPostgresOptions
): Effect.Effect<PostgresAddress, EmbeddedDatabaseError, import("effect").Scope.Scope> =>
  Effect.gen(function*() {
    if (dataDir === ":memory:") {
      return (yield* startServing(undefined, options.memorySnapshot)).address
    }
    const directory = Path.resolve(dataDir)
    yield* Effect.try({
      try: () => Fs.mkdirSync(directory, { recursive: true }),
      catch: (error) => new EmbeddedDatabaseError({ message: `cannot create data directory ${directory}: ${error}` })
    })
    const lockFile = Path.join(directory, LOCK_FILE)
    const owner = currentOwner(lockFile)
    if (owner !== undefined) {
      if (options.share) return { host: owner.host, port: owner.port }
      return yield* new EmbeddedDatabaseError({
        message: `data directory ${directory} is in use by process ${owner.pid}; stop it or use another SWITCHYARD_DATA_DIR`
      })
    }
    yield* Effect.acquireRelease(
      Effect.try({
        try: () => Fs.writeFileSync(lockFile, JSON.stringify({ pid: process.pid, host: "", port: 0 }), { flag: "wx" }),
        catch: () =>
          new EmbeddedDatabaseError({ message: `data directory ${directory} was just taken by another process` })
      }),
      () => Effect.sync(() => Fs.rmSync(lockFile, { force: true }))
    )
    const { address } = yield* startServing(Path.join(directory, "pgdata"), undefined)
    Fs.writeFileSync(lockFile, JSON.stringify({ pid: process.pid, ...address }))
    return address
  })
