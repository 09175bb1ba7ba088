import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // What the request log API shows beyond the run itself: the account's connector and the
  // incoming call. Null on entries written before this migration, and where no HTTP request
  // carried the run.
  yield* sql`
    ALTER TABLE request_logs
      ADD COLUMN provider text,
      ADD COLUMN http_method text,
      ADD COLUMN path text,
      ADD COLUMN url text`
  // Provider request and response bodies join a project's log only when it asks for them.
  yield* sql`ALTER TABLE projects ADD COLUMN request_log_bodies boolean NOT NULL DEFAULT false`
  // The two orders the API pages through by keyset, within one project.
  yield* sql`CREATE INDEX request_logs_project_time_idx ON request_logs (project_id, created_at, id)`
  yield* sql`CREATE INDEX request_logs_project_duration_idx ON request_logs (project_id, duration_ms, id)`
})
