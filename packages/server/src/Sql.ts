import { NodeContext } from "@effect/platform-node"
import { PgMigrator } from "@effect/sql-pg"
import { Effect, Layer, Option } from "effect"
import { SwitchyardConfig } from "./Config.js"
import { embeddedPostgres } from "./Database/EmbeddedPostgres.js"
import { measuredPgClient } from "./Database/measuredPgClient.js"
import { migrations } from "./migrations/index.js"

/**
 * The one SQL layer: PostgreSQL at `DATABASE_URL`, or the embedded PGlite default
 * reached over its loopback socket. `share` lets a second process (the CLI) use the
 * embedded database of a running server.
 */
export const sqlClientLayer = (options: { readonly share: boolean }) =>
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

export const MigrationsLive = PgMigrator.layer({
  loader: PgMigrator.fromRecord(migrations),
  table: "switchyard_migrations"
}).pipe(Layer.provide(NodeContext.layer))

/** SQL client with the schema migrated: what every repository needs. */
export const SqlLive = MigrationsLive.pipe(Layer.provideMerge(sqlClientLayer({ share: false })))

export const SqlShared = MigrationsLive.pipe(Layer.provideMerge(sqlClientLayer({ share: true })))
