import * as Reactivity from "@effect/experimental/Reactivity"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import type { TestProject } from "vitest/node"
import { serveWire } from "../../src/platform/database/EmbeddedPostgresWire.js"
import { MigrationsLive } from "../../src/platform/database/Sql.js"
import { archivedDatabase } from "./archivedDatabase.js"

/*
 * Vitest's global setup for the server's tests: the schema is migrated once per run, and
 * each test file's database starts migrated from it (TestServer.ts), where every server used
 * to create its database and run every migration again:
 * - with DATABASE_URL (CI), a PostgreSQL template database that `freshDatabaseUrl` copies
 *   with `CREATE DATABASE … TEMPLATE`;
 * - on the embedded default, an archive of a migrated PGlite data directory that every
 *   in-memory database loads (about 0.4 s of CPU, where creating one costs about 4 s).
 * The server still runs its migrations at start (finding nothing to do); tests that need an
 * empty database (migrations racing on a fresh one) ask for one (`emptyDatabaseUrl`).
 */

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated PostgreSQL template database's name, with DATABASE_URL. */
    migratedTemplate: string | undefined
    /** The migrated embedded data directory's archive (a file), without DATABASE_URL. */
    migratedSnapshot: string | undefined
  }
}

const migrate = (connection: Parameters<typeof PgClient.layer>[0]) =>
  Effect.runPromise(
    Layer.build(MigrationsLive.pipe(Layer.provide(PgClient.layer({ ...connection, maxConnections: 1 })))).pipe(
      Effect.provide(Reactivity.layer),
      Effect.scoped,
      Effect.asVoid
    )
  )

const adminQuery = (adminUrl: string, statement: string) =>
  Effect.runPromise(
    Effect.gen(function*() {
      const admin = yield* PgClient.make({ url: Redacted.make(adminUrl), maxConnections: 1 })
      yield* admin.unsafe(statement)
    }).pipe(Effect.provide(Reactivity.layer), Effect.scoped)
  )

/** A migrated template database beside the run's database; dropped after the run. */
const postgresTemplate = async (adminUrl: string, project: TestProject) => {
  const name = `switchyard_template_${Crypto.randomBytes(6).toString("hex")}`
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  await migrate({ url: Redacted.make(url.toString()) })
  project.provide("migratedTemplate", name)
  project.provide("migratedSnapshot", undefined)
  return () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
}

/** A migrated in-memory PGlite database, archived to a temporary file; removed after the run. */
const embeddedSnapshot = async (project: TestProject) => {
  const archive = await archivedDatabase(async (db) => {
    const wire = await serveWire(db, { host: "127.0.0.1", maxConnections: 1 })
    try {
      await migrate({ host: wire.host, port: wire.port, database: "postgres", username: "postgres" })
    } finally {
      await wire.stop()
    }
  })
  const directory = Fs.mkdtempSync(Path.join(Os.tmpdir(), "switchyard-migrated-"))
  const file = Path.join(directory, "pgdata.tar")
  Fs.writeFileSync(file, Buffer.from(archive))
  project.provide("migratedTemplate", undefined)
  project.provide("migratedSnapshot", file)
  return () => Fs.rmSync(directory, { recursive: true, force: true })
}

export default async function migratedDatabase(project: TestProject) {
  const adminUrl = process.env.DATABASE_URL
  const started = performance.now()
  const embedded = adminUrl === undefined || adminUrl.length === 0
  const teardown = embedded ? await embeddedSnapshot(project) : await postgresTemplate(adminUrl, project)
  // once per run, so where the run's time goes shows it (pnpm test:profile)
  console.log(`Run setup: the schema migrated into ${embedded ? "an embedded snapshot" : "a PostgreSQL template"} in ${
    ((performance.now() - started) / 1000).toFixed(1)
  } s`)
  return teardown
}
