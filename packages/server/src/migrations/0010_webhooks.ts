import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Outbound webhooks. `webhook_events` is the outbox: an event row is written in the same
 * transaction as the change it reports, with one delivery per matching enabled endpoint, so
 * a change is never committed without its events nor an event sent for a rolled-back change.
 * Deliveries are claimed by the worker of any server process (`FOR UPDATE SKIP LOCKED` and a
 * lease), so several processes on one database deliver each once.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // The signing secrets are sealed with the credential key: we must sign with them, so a hash will not do.
  yield* sql`
    CREATE TABLE webhook_endpoints (
      id uuid PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      url text NOT NULL,
      events jsonb NOT NULL,
      description text,
      enabled boolean NOT NULL DEFAULT true,
      disabled_reason text,
      secret_ciphertext text NOT NULL,
      secret_key_id text NOT NULL,
      previous_secret_ciphertext text,
      previous_secret_key_id text,
      previous_secret_expires_at timestamptz,
      failing_since timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX webhook_endpoints_project_idx ON webhook_endpoints (project_id, created_at, id)`
  // `sequence` lets a receiver order an account's events (retries may deliver them out of order): an
  // event is written while its change holds the account's row lock, so it follows the changes' order.
  // `data` is kept as the JSON text sent, so every attempt sends the same bytes.
  yield* sql`
    CREATE TABLE webhook_events (
      id text PRIMARY KEY,
      sequence bigserial NOT NULL UNIQUE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      type text NOT NULL,
      data text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`
    CREATE TABLE webhook_deliveries (
      id uuid PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      endpoint_id uuid NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
      event_id text NOT NULL REFERENCES webhook_events(id) ON DELETE CASCADE,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz,
      lease_holder text,
      lease_until timestamptz,
      last_status_code integer,
      last_error text,
      last_attempt_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  // What the worker scans: only pending rows, by when they are due.
  yield* sql`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`
  yield* sql`CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC)`
})
