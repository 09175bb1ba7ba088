import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // A write's first result, replayed for retries carrying the same Idempotency-Key.
  yield* sql`
    CREATE TABLE idempotency_keys (
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      account_id text NOT NULL,
      key text NOT NULL,
      request_hash text NOT NULL,
      state text NOT NULL CHECK (state IN ('running', 'done')),
      response jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (project_id, account_id, key)
    )`
  yield* sql`CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at)`
  yield* sql`
    CREATE TABLE request_logs (
      id uuid PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      account_id text NOT NULL,
      kind text NOT NULL,
      action text NOT NULL,
      status integer NOT NULL,
      duration_ms integer NOT NULL,
      provider_calls jsonb NOT NULL DEFAULT '[]'::jsonb,
      error text,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX request_logs_created_idx ON request_logs (created_at)`
  yield* sql`CREATE INDEX request_logs_account_idx ON request_logs (project_id, account_id, created_at)`
  // One row per background job: claiming a run moves next_run_at, so one process wins it.
  yield* sql`
    CREATE TABLE scheduled_jobs (
      name text PRIMARY KEY,
      next_run_at timestamptz NOT NULL,
      last_run_at timestamptz,
      last_error text
    )`
})
