import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * When each API key last authenticated a request (`GET /v2/api_keys`'s `last_used_at`),
 * written in batches by each process's `flush_api_key_usage` job, never on the request path;
 * and the index its newest-first pages walk.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz`
  yield* sql`CREATE INDEX api_keys_project_created_idx ON api_keys (project_id, created_at DESC, id DESC)`
})
