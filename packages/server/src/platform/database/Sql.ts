import { NodeContext } from "@effect/platform-node"
import { PgMigrator } from "@effect/sql-pg"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import { SwitchyardConfig } from "../Config.js"
import { embeddedPostgres, type EmbeddedPostgresOptions } from "./EmbeddedPostgres.js"
import { measuredPgClient } from "./measuredPgClient.js"
import { migrations } from "../../migrations/index.js"

/**
 * The one SQL layer: PostgreSQL at `DATABASE_URL`, or the embedded PGlite default
 * reached over its loopback socket. `share` lets a second process (the CLI) use the
 * embedded database of a running server; `memorySnapshot` starts an in-memory one from an
 * archived data directory (see EmbeddedPostgresOptions).
 */
export const sqlClientLayer = (options: EmbeddedPostgresOptions) =>
  Layer.unwrapScoped(
    Effect.gen(function*() {
      const config = yield* SwitchyardConfig
      if (Option.isSome(config.databaseUrl)) {
        return measuredPgClient({ url: config.databaseUrl.value, maxConnections: 10, applicationName: "switchyard" })
      }
      const address = yield* embeddedPostgres(config.dataDir, options)
      return measuredPgClient({
        host: address.host,
        port: address.port,
        database: "postgres",
        username: "postgres",
        maxConnections: 4
      })
    })
  )

const MIGRATIONS_TABLE = "switchyard_migrations"

/** Any fixed number, the same in every process: the key of the migrations' advisory lock. */
const MIGRATIONS_LOCK_KEY = 7_305_221_015

/**
 * Migrates once however many processes start together. The migrator locks its table, but
 * first creates it outside any lock, so two processes on a fresh database both try and one
 * fails. Here an advisory lock held to the end of one transaction serializes whole runs: the
 * first creates the table (as the migrator would) and migrates, the others then find nothing to do.
 */
export const MigrationsLive = Layer.effectDiscard(
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.withTransaction(
      Effect.gen(function*() {
        yield* sql`SELECT pg_advisory_xact_lock(${MIGRATIONS_LOCK_KEY})`
        yield* sql`CREATE TABLE IF NOT EXISTS ${sql(MIGRATIONS_TABLE)} (
          migration_id integer primary key,
          created_at timestamp with time zone not null default now(),
          name text not null
        )`
        yield* PgMigrator.run({ loader: PgMigrator.fromRecord(migrations), table: MIGRATIONS_TABLE })
      })
    )
  })
).pipe(Layer.provide(NodeContext.layer))

/** SQL client with the schema migrated: what every repository needs. */
export const SqlLive = MigrationsLive.pipe(Layer.provideMerge(sqlClientLayer({ share: false })))

export const SqlShared = MigrationsLive.pipe(Layer.provideMerge(sqlClientLayer({ share: true })))
