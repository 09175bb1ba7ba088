import { describe, expect, it } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Effect, Exit, Layer, Scope } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { EmbeddedDatabaseError, embeddedPostgres, type PostgresAddress } from "../src/platform/database/EmbeddedPostgres.js"
import { MigrationsLive } from "../src/platform/database/Sql.js"
import { archivedDatabase } from "./support/archivedDatabase.js"
import { exited, freePort, serverEnv, start } from "./support/ServerProcess.js"

/*
 * The embedded database runs on a worker thread (issue 13: PGlite's CPU on the request's
 * event loop): the same database over the same socket, its thread's own life.
 */

const tempDir = () => Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-embedded-worker-"))

const client = (address: PostgresAddress) =>
  PgClient.layer({ host: address.host, port: address.port, database: "postgres", username: "postgres", maxConnections: 2 })

/** Migrates the database at `address` as the server does, then runs `statement`. */
const migratedQuery = (address: PostgresAddress, statement: string) =>
  Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    return yield* sql.unsafe(statement)
  }).pipe(
    Effect.provide(MigrationsLive.pipe(Layer.provideMerge(client(address)))),
    Effect.scoped
  )

/** Socket servers listening on this thread. */
const listeningHere = () => process.getActiveResourcesInfo().filter((resource) => resource === "TCPServerWrap").length

describe("embedded PostgreSQL on a worker thread", () => {
  it.live("is migrated and queried through its socket, stops cleanly and keeps its data for the next start", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const before = listeningHere()
      const first = yield* Scope.make()
      const address = yield* embeddedPostgres(dir, { share: false }).pipe(Scope.extend(first))
      // PGlite's socket server is not one of this thread's handles.
      expect(listeningHere()).toBe(before)
      expect(address.host).toBe("127.0.0.1")

      const migrated = yield* migratedQuery(address, "SELECT name FROM switchyard_migrations ORDER BY migration_id")
      expect(migrated.length).toBeGreaterThan(0)
      yield* migratedQuery(
        address,
        "INSERT INTO organizations (id, name) VALUES ('6a8c1c52-8e4b-4d6a-9a53-2d7c5e0f1a01', 'kept across restarts')"
      )
      yield* Scope.close(first, Exit.void)
      expect(Fs.existsSync(Path.join(dir, "server.lock"))).toBe(false)

      const again = yield* embeddedPostgres(dir, { share: false }).pipe(
        Effect.flatMap((next) =>
          Effect.all([
            migratedQuery(next, "SELECT name FROM switchyard_migrations ORDER BY migration_id"),
            migratedQuery(next, "SELECT name FROM organizations WHERE id = '6a8c1c52-8e4b-4d6a-9a53-2d7c5e0f1a01'")
          ])
        ),
        Effect.scoped
      )
      expect(again).toEqual([migrated, [{ name: "kept across restarts" }]])
    }))

  it.live("in memory: serves a new database each time, keeping nothing", () =>
    Effect.gen(function*() {
      const create = "CREATE TABLE kept (value text); INSERT INTO kept VALUES ('only here')"
      const rows = yield* embeddedPostgres(":memory:", { share: false }).pipe(
        Effect.flatMap((address) => Effect.zipRight(migratedQuery(address, create), migratedQuery(address, "SELECT value FROM kept"))),
        Effect.scoped
      )
      expect(rows).toEqual([{ value: "only here" }])
      const tables = yield* embeddedPostgres(":memory:", { share: false }).pipe(
        Effect.flatMap((address) => migratedQuery(address, "SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'kept'")),
        Effect.scoped
      )
      expect(tables).toEqual([{ n: 0 }])
    }))

  it.live("in memory from a snapshot: each start is a copy of the archived data directory, keeping nothing of another", () =>
    Effect.gen(function*() {
      // an archive as the tests' run setup makes one (migratedDatabase.ts), with one row in it
      const snapshot = yield* Effect.promise(() =>
        archivedDatabase(async (db) => {
          await db.exec("CREATE TABLE archived (value text); INSERT INTO archived VALUES ('from the snapshot')")
        })
      )
      const fromSnapshot = (statement: string) =>
        embeddedPostgres(":memory:", { share: false, memorySnapshot: snapshot }).pipe(
          Effect.flatMap((address) =>
            Effect.gen(function*() {
              const sql = yield* PgClient.PgClient
              yield* sql.unsafe(statement)
              return yield* sql.unsafe("SELECT value FROM archived ORDER BY value")
            }).pipe(Effect.provide(client(address)))
          ),
          Effect.scoped
        )
      expect(yield* fromSnapshot("INSERT INTO archived VALUES ('written by the first')")).toEqual([
        { value: "from the snapshot" },
        { value: "written by the first" }
      ])
      expect(yield* fromSnapshot("SELECT 1")).toEqual([{ value: "from the snapshot" }])
      // the caller's archive is copied, never handed over: it is whole for the next start
      expect(snapshot.byteLength).toBeGreaterThan(0)
    }))

  it.live("a database that cannot start is an EmbeddedDatabaseError in PostgreSQL's words, and frees the directory", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      // A data directory PostgreSQL cannot use: a version file and nothing else.
      Fs.mkdirSync(Path.join(dir, "pgdata"))
      Fs.writeFileSync(Path.join(dir, "pgdata", "PG_VERSION"), "18\n")
      const refused = yield* embeddedPostgres(dir, { share: false }).pipe(Effect.scoped, Effect.flip)
      expect(refused).toBeInstanceOf(EmbeddedDatabaseError)
      expect(refused.message).toMatch(
        /^cannot start the embedded database: PGlite failed to initialize properly \(postgres: could not access the server configuration file .*postgresql\.conf.*\)$/
      )
      expect(Fs.existsSync(Path.join(dir, "server.lock"))).toBe(false)
    }))

  it("refuses a second server process on the same data directory with the owner's pid", async () => {
    const dir = tempDir()
    const scope = Effect.runSync(Scope.make())
    await Effect.runPromise(embeddedPostgres(dir, { share: false }).pipe(Scope.extend(scope)))
    try {
      const second = start("src/main.ts", [], serverEnv(dir, await freePort()))
      expect(await exited(second.child)).toBe(1)
      expect(second.output()).toContain(
        `data directory ${dir} is in use by process ${process.pid}; stop it or use another SWITCHYARD_DATA_DIR`
      )
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  }, 600_000)
})
