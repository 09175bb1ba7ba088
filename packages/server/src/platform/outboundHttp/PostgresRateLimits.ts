import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { RateLimitStoreUnavailable, type SharedRateLimits } from "./SharedRateLimits.js"

/** A bucket empty for this long is deleted by the cleanup job; any past one admits as a fresh one would. */
const IDLE_MS = 60_000

/**
 * The `postgres` store: one `INSERT ... ON CONFLICT DO UPDATE` per reservation, atomic under
 * the row lock, on the database clock (`clock_timestamp()`, not the transaction's start). The
 * insert carries "now + spacing" so the update can read now back from `excluded`; a refusal
 * rewrites the bucket unchanged, so the same statement still returns the wait for Retry-After.
 */
export const makePostgresRateLimits = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const reserve: SharedRateLimits["reserve"] = (key, { spacingMs }, maxWaitMs) => {
    const now = sql`(excluded.empty_at_ms - ${spacingMs}::float8)`
    const from = sql`greatest(r.empty_at_ms, ${now})`
    const wait = sql`(${from} - ${now})`
    const fits = maxWaitMs === undefined ? sql`true` : sql`(${wait} <= ${maxWaitMs}::float8)`
    return sql<{ admitted: boolean; wait_ms: number }>`
      INSERT INTO provider_rate_limits AS r (key, empty_at_ms, wait_ms, admitted)
      VALUES (${key}, extract(epoch FROM clock_timestamp()) * 1000 + ${spacingMs}::float8, 0, true)
      ON CONFLICT (key) DO UPDATE SET
        empty_at_ms = CASE WHEN ${fits} THEN ${from} + ${spacingMs}::float8 ELSE r.empty_at_ms END,
        wait_ms = ${wait},
        admitted = ${fits}
      RETURNING admitted, wait_ms`.pipe(
      Effect.map(([row]) => ({ admitted: row!.admitted, waitMs: Math.ceil(row!.wait_ms) })),
      Effect.catchTag("SqlError", (error) =>
        Effect.fail(new RateLimitStoreUnavailable({ message: `PostgreSQL did not answer: ${error.message}` })))
    )
  }

  const deleteIdle = sql`
    DELETE FROM provider_rate_limits
    WHERE empty_at_ms < extract(epoch FROM clock_timestamp()) * 1000 - ${IDLE_MS}`.pipe(Effect.asVoid, Effect.orDie)

  return { kind: "postgres", reserve, deleteIdle } satisfies SharedRateLimits
})
