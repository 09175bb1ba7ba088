import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // The token itself is never stored: only its SHA-256, looked up by the hosted page.
  yield* sql`
    CREATE TABLE connect_sessions (
      id uuid PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      origin_owner_id text NOT NULL,
      origin_owner_name text NOT NULL,
      origin_username text,
      provider text,
      categories jsonb NOT NULL DEFAULT '[]'::jsonb,
      connector_profile_id uuid,
      account_id text,
      multiple boolean NOT NULL DEFAULT false,
      label text,
      metadata jsonb,
      redirect_url text,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed', 'failed')),
      failure_reason text,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX connect_sessions_project_created_idx ON connect_sessions (project_id, created_at, id)`
})
