import { describe, expect, it } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Effect, Exit, Scope } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { embeddedPostgres } from "../src/platform/database/EmbeddedPostgres.js"

const tempDir = () => Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-embedded-"))

const query = (address: { host: string; port: number }, statement: string) =>
  Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    return yield* sql.unsafe(statement)
  }).pipe(
    Effect.provide(PgClient.layer({ host: address.host, port: address.port, database: "postgres", username: "postgres", maxConnections: 1 })),
    Effect.scoped
  )

describe("embedded PostgreSQL", () => {
  it.live("keeps data across restarts and refuses a second owner of the data directory", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const first = yield* Scope.make()
      const address = yield* embeddedPostgres(dir, { share: false }).pipe(Scope.extend(first))
      yield* query(address, "CREATE TABLE kept (value text); INSERT INTO kept VALUES ('still here')")

      const lock = JSON.parse(Fs.readFileSync(Path.join(dir, "server.lock"), "utf8"))
      expect(lock).toEqual({ pid: process.pid, host: address.host, port: address.port })

      // Another server process on the same directory: simulated by a live foreign pid in the lock.
      Fs.writeFileSync(Path.join(dir, "server.lock"), JSON.stringify({ ...lock, pid: process.ppid }))
      const refused = yield* embeddedPostgres(dir, { share: false }).pipe(Effect.scoped, Effect.flip)
      expect(refused.message).toContain(`in use by process ${process.ppid}`)
      const borrowed = yield* embeddedPostgres(dir, { share: true }).pipe(Effect.scoped)
      expect(borrowed).toEqual(address)
      const rows = yield* query(borrowed, "SELECT value FROM kept")
      expect(rows).toEqual([{ value: "still here" }])
      Fs.writeFileSync(Path.join(dir, "server.lock"), JSON.stringify(lock))

      yield* Scope.close(first, Exit.void)
      expect(Fs.existsSync(Path.join(dir, "server.lock"))).toBe(false)

      const again = yield* embeddedPostgres(dir, { share: false }).pipe(
        Effect.flatMap((next) => query(next, "SELECT value FROM kept")),
        Effect.scoped
      )
      expect(again).toEqual([{ value: "still here" }])
    }))

  it.live("takes over a stale lock left by a crashed process", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      // A pid far above any real one stands for a process that no longer exists.
      Fs.writeFileSync(Path.join(dir, "server.lock"), JSON.stringify({ pid: 2 ** 22 + 12345, host: "127.0.0.1", port: 1 }))
      const rows = yield* embeddedPostgres(dir, { share: false }).pipe(
        Effect.flatMap((address) => query(address, "SELECT 1 AS one")),
        Effect.scoped
      )
      expect(rows).toEqual([{ one: 1 }])
    }))
})

