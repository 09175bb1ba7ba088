import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { Data, Effect } from "effect"
import * as Fs from "node:fs"
import * as Path from "node:path"

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

const startServing = (dataDir: string | undefined) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const db = await PGlite.create(dataDir ?? "memory://")
        const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: SOCKET_CONNECTIONS })
        await server.start()
        const [host, port] = server.getServerConn().split(":")
        return { db, server, address: { host: host!, port: Number(port) } }
      },
      catch: (error) => new EmbeddedDatabaseError({ message: `cannot start the embedded database: ${String(error)}` })
    }),
    ({ db, server }) => Effect.promise(async () => {
      await server.stop()
      await db.close()
    })
  )

/**
 * Starts PGlite (in `dataDir`, or in memory for `:memory:`) and serves it on a loopback
 * socket, so `@effect/sql-pg` talks to it exactly as to any PostgreSQL. PGlite is
 * single-process: a lock file in the data directory records the owner's pid and wire
 * address. With `share: true` (the CLI) a running owner's address is borrowed instead;
 * otherwise a live owner is a clear error, never a second writer.
 */
export const embeddedPostgres = (
  dataDir: string,
  options: { readonly share: boolean }
): Effect.Effect<PostgresAddress, EmbeddedDatabaseError, import("effect").Scope.Scope> =>
  Effect.gen(function*() {
    if (dataDir === ":memory:") {
      return (yield* startServing(undefined)).address
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
    const { address } = yield* startServing(Path.join(directory, "pgdata"))
    Fs.writeFileSync(lockFile, JSON.stringify({ pid: process.pid, ...address }))
    return address
  })
