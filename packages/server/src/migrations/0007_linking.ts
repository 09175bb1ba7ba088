import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Linking as a product (issue 12): how an account was linked, OAuth2 token refresh with a
 * row lease, connector profiles carrying account settings and the project's OAuth app, the
 * pending OAuth2 authorizations, and the origins a project lets embed its connect page.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Origins allowed to frame the hosted connect page (CSP frame-ancestors); none by default.
  yield* sql`ALTER TABLE projects ADD COLUMN connect_frame_origins jsonb NOT NULL DEFAULT '[]'::jsonb`
  // Settings every account linked through the profile receives (e.g. base_url), and the
  // project's OAuth app for the connector (setupFields), sealed like account credentials.
  yield* sql`
    ALTER TABLE connector_profiles
      ADD COLUMN account_settings jsonb NOT NULL DEFAULT '{}'::jsonb,
      ADD COLUMN setup_ciphertext text,
      ADD COLUMN setup_key_id text,
      ADD COLUMN setup_keys jsonb NOT NULL DEFAULT '[]'::jsonb`
  // credentials_version counts credential writes: a refresh is written only by the holder of
  // the lease and only over the version it refreshed, so two processes never both win.
  yield* sql`
    ALTER TABLE accounts
      ADD COLUMN label text,
      ADD COLUMN metadata jsonb,
      ADD COLUMN linked_via text NOT NULL DEFAULT 'api' CHECK (linked_via IN ('api', 'connect_session')),
      ADD COLUMN connect_session_id uuid,
      ADD COLUMN auth_method text,
      ADD COLUMN credentials_version integer NOT NULL DEFAULT 1,
      ADD COLUMN refresh_lease_holder text,
      ADD COLUMN refresh_lease_until timestamptz`
  // A session fails for good after a few refused attempts (a bound on guessing credentials
  // through it); until then each refusal is kept as its failure_reason.
  yield* sql`
    ALTER TABLE connect_sessions
      ADD COLUMN completed_at timestamptz,
      ADD COLUMN failed_attempts integer NOT NULL DEFAULT 0`
  // One row per authorization started from the connect page: only the state's digest is
  // kept; the PKCE verifier and what the end user entered are sealed.
  yield* sql`
    CREATE TABLE oauth_authorizations (
      state_hash text PRIMARY KEY,
      session_id uuid NOT NULL REFERENCES connect_sessions(id) ON DELETE CASCADE,
      connector_key text NOT NULL,
      connector_profile_id uuid,
      auth_method text NOT NULL,
      sealed_ciphertext text NOT NULL,
      sealed_key_id text NOT NULL,
      redirect_uri text NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX oauth_authorizations_session_idx ON oauth_authorizations (session_id)`
})
