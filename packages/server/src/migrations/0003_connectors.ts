import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // One row per immutable connector version; owner_project_id NULL means built-in.
  yield* sql`
    CREATE TABLE connector_versions (
      id uuid PRIMARY KEY,
      key text NOT NULL,
      version text NOT NULL,
      owner_project_id uuid REFERENCES projects(id) ON DELETE CASCADE,
      title text NOT NULL,
      description text,
      categories jsonb NOT NULL DEFAULT '[]'::jsonb,
      definition jsonb NOT NULL,
      content_hash text NOT NULL,
      changelog jsonb,
      mcp_server_url text,
      mcp_auth text CHECK (mcp_auth IN ('none', 'token', 'oauth')),
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`
    CREATE UNIQUE INDEX connector_versions_builtin_idx ON connector_versions (key, version)
    WHERE owner_project_id IS NULL`
  yield* sql`
    CREATE UNIQUE INDEX connector_versions_custom_idx ON connector_versions (owner_project_id, key, version)
    WHERE owner_project_id IS NOT NULL`
  yield* sql`
    CREATE TABLE connector_profiles (
      id uuid PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      connector_key text NOT NULL,
      version_spec text NOT NULL,
      label text NOT NULL,
      active boolean NOT NULL DEFAULT true,
      enabled_actions jsonb NOT NULL DEFAULT '[]'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX connector_profiles_project_idx ON connector_profiles (project_id, connector_key)`
  // A profile that accounts use cannot be deleted (409), so the reference restricts.
  yield* sql`
    ALTER TABLE accounts ADD CONSTRAINT accounts_connector_profile_fk
    FOREIGN KEY (connector_profile_id) REFERENCES connector_profiles(id) ON DELETE RESTRICT`
  yield* sql`CREATE INDEX accounts_project_connector_idx ON accounts (project_id, connector_key)`
})
