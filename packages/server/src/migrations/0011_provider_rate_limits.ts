import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Provider rate limits shared by every process (the `postgres` rate-limit store): per account
 * and limit, when its GCRA bucket is empty again, in milliseconds of the database clock.
 * UNLOGGED: the rows are a few seconds of state, written on every provider call; a crash that
 * empties the table only lets each account's next call go at once, so no WAL is worth writing.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE UNLOGGED TABLE provider_rate_limits (
      key text PRIMARY KEY,
      empty_at_ms double precision NOT NULL,
      wait_ms double precision NOT NULL,
      admitted boolean NOT NULL
    )`
})
