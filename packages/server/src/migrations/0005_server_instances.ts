import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Running server processes, each with a heartbeat: a claim whose process is gone can be taken over.
  yield* sql`
    CREATE TABLE server_instances (
      id uuid PRIMARY KEY,
      started_at timestamptz NOT NULL DEFAULT now(),
      heartbeat_at timestamptz NOT NULL DEFAULT now()
    )`
  // The process running a claim; NULL (claims from before this migration) counts as gone.
  yield* sql`ALTER TABLE idempotency_keys ADD COLUMN instance_id uuid`
})
