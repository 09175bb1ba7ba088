import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE accounts (
      id text PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      name text NOT NULL,
      owner_id text NOT NULL,
      owner_name text,
      owner_username text,
      connector_key text NOT NULL,
      connector_version text,
      connector_profile_id uuid,
      status text NOT NULL DEFAULT 'active'
        CHECK (status IN ('active', 'inactive', 'error', 'suspended', 'expired', 'disabled')),
      status_reasons jsonb NOT NULL DEFAULT '[]'::jsonb,
      settings jsonb NOT NULL DEFAULT '{}'::jsonb,
      credentials_ciphertext text NOT NULL,
      credentials_key_id text NOT NULL,
      connected_at timestamptz NOT NULL DEFAULT now(),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      last_request_at timestamptz
    )`
  yield* sql`CREATE INDEX accounts_project_created_idx ON accounts (project_id, created_at, id)`
})
