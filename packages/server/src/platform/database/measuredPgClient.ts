import { SqlError } from "@effect/sql/SqlError"
import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Redacted } from "effect"
import Pg from "pg"
import { measureDatabasePool } from "../metrics/ServerMetrics.js"

export interface PgPoolOptions {
  readonly url?: Redacted.Redacted | undefined
  readonly host?: string | undefined
  readonly port?: number | undefined
  readonly database?: string | undefined
  readonly username?: string | undefined
  readonly maxConnections: number
  readonly applicationName?: string | undefined
}

const CONNECT_TIMEOUT = Duration.seconds(5)

/**
 * `PgClient.layer` over a pool of our own, so that its connection counts (open, idle, callers
 * waiting) can be read for the metrics: the client does not expose the pool it makes. Checked
 * with `SELECT 1` and ended as `PgClient.layer` does.
 */
export const measuredPgClient = (options: PgPoolOptions) =>
  PgClient.layerFromPool({
    applicationName: options.applicationName,
    acquire: Effect.acquireRelease(
      Effect.tryPromise({
        try: async () => {
          const pool = new Pg.Pool({
            connectionString: options.url === undefined ? undefined : Redacted.value(options.url),
            host: options.host,
            port: options.port,
            database: options.database,
            user: options.username,
            max: options.maxConnections,
            application_name: options.applicationName ?? "@effect/sql-pg"
          })
          // an idle connection's error is reported by the next query that needs one
          pool.on("error", () => {})
          try {
            await pool.query("SELECT 1")
          } catch (cause) {
            await pool.end().catch(() => {})
            throw cause
          }
          return pool
        },
        catch: (cause) => new SqlError({ cause, message: "PgClient: Failed to connect" })
      }).pipe(
        Effect.timeoutFail({
          duration: CONNECT_TIMEOUT,
          onTimeout: () => new SqlError({ cause: new Error("Connection timed out"), message: "PgClient: Connection timed out" })
        })
      ),
      (pool) => Effect.promise(() => pool.end()).pipe(Effect.interruptible, Effect.timeoutOption(1000))
    ).pipe(
      Effect.tap((pool) =>
        Effect.sync(() =>
          measureDatabasePool(() => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }))
        )
      )
    )
  })
