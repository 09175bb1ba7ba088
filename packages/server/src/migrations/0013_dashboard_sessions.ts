import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The web dashboard's sign-in sessions: a browser holds a short-lived cookie instead of an API
 * key. Only the token's SHA-256 is stored. A session acts as the key it was opened with, so it
 * goes with the key (and the key's project); a revoked key ends its sessions through the join
 * every lookup makes, not through this table.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE dashboard_sessions (
      id uuid PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      api_key_id uuid NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      ended_at timestamptz
    )`
  // the foreign key's side: deleting a key (with its project) finds its sessions without a scan
  yield* sql`CREATE INDEX dashboard_sessions_api_key_idx ON dashboard_sessions (api_key_id)`
  // the purge job's walk over ended and expired sessions
  yield* sql`CREATE INDEX dashboard_sessions_expires_idx ON dashboard_sessions (expires_at)`
})
