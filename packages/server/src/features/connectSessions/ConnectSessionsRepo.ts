import { SqlClient, SqlSchema } from "@effect/sql"
import { ConnectCategory } from "@switchyard/api"
import { Clock, Effect, Option, Schema } from "effect"
import { WebhookOutbox } from "../webhooks/WebhookOutbox.js"
import { connectSessionView } from "./connectSessionView.js"
import { isUuid } from "../../platform/database/isUuid.js"

export const StoredSessionStatus = Schema.Literal("pending", "completed", "failed")

/** A session as stored, with its project's organization; never its token (only the hash is kept). */
export const ConnectSessionRow = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  organization_id: Schema.String,
  origin_owner_id: Schema.String,
  origin_owner_name: Schema.String,
  origin_username: Schema.NullOr(Schema.String),
  provider: Schema.NullOr(Schema.String),
  categories: Schema.Array(ConnectCategory),
  connector_profile_id: Schema.NullOr(Schema.String),
  account_id: Schema.NullOr(Schema.String),
  multiple: Schema.Boolean,
  label: Schema.NullOr(Schema.String),
  metadata: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  redirect_url: Schema.NullOr(Schema.String),
  status: StoredSessionStatus,
  failure_reason: Schema.NullOr(Schema.String),
  expires_at: Schema.DateFromSelf,
  created_at: Schema.DateFromSelf
})
export type ConnectSessionRow = typeof ConnectSessionRow.Type

const NewConnectSessionRow = Schema.Struct({
  ...ConnectSessionRow.omit("organization_id", "status", "failure_reason", "created_at").fields,
  token_hash: Schema.String
})
export type NewConnectSessionRow = typeof NewConnectSessionRow.Type


export class ConnectSessionsRepo extends Effect.Service<ConnectSessionsRepo>()("Switchyard/ConnectSessionsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const outbox = yield* WebhookOutbox

    const columns = sql`
      s.id::text AS id, s.project_id::text AS project_id, p.organization_id::text AS organization_id,
      s.origin_owner_id, s.origin_owner_name, s.origin_username, s.provider, s.categories,
      s.connector_profile_id::text AS connector_profile_id, s.account_id, s.multiple, s.label, s.metadata,
      s.redirect_url, s.status, s.failure_reason, s.expires_at, s.created_at`

    const insertRow = SqlSchema.void({
      Request: NewConnectSessionRow,
      execute: (row) =>
        sql`INSERT INTO connect_sessions ${
          sql.insert({
            ...row,
            categories: JSON.stringify(row.categories),
            metadata: row.metadata === null ? null : JSON.stringify(row.metadata)
          })
        }`
    })

    const findRow = SqlSchema.findOne({
      Request: Schema.Struct({ projectId: Schema.String, id: Schema.String }),
      Result: ConnectSessionRow,
      execute: ({ id, projectId }) =>
        sql`
          SELECT ${columns} FROM connect_sessions s JOIN projects p ON p.id = s.project_id
          WHERE s.project_id = ${projectId} AND s.id = ${id}`
    })

    const findByHashRow = SqlSchema.findOne({
      Request: Schema.String,
      Result: ConnectSessionRow,
      execute: (tokenHash) =>
        sql`
          SELECT ${columns} FROM connect_sessions s JOIN projects p ON p.id = s.project_id
          WHERE s.token_hash = ${tokenHash}`
    })

    const findByIdRow = SqlSchema.findOne({
      Request: Schema.String,
      Result: ConnectSessionRow,
      execute: (id) =>
        sql`SELECT ${columns} FROM connect_sessions s JOIN projects p ON p.id = s.project_id WHERE s.id = ${id}`
    })

    /** Completes a pending, unexpired session; false when it was not (used or expired meanwhile). */
    const complete = (id: string, accountId: string) =>
      sql`
        UPDATE connect_sessions SET status = 'completed', account_id = ${accountId}, completed_at = now(),
          failure_reason = NULL, updated_at = now()
        WHERE id = ${id} AND status = 'pending' AND expires_at > now()
        RETURNING id`.pipe(Effect.map((rows) => rows.length === 1), Effect.orDie)

    /**
     * Records a refused attempt; the session fails for good at `maxAttempts`, and then its
     * `connect_session.failed` event is written in the same transaction.
     */
    const recordFailure = (id: string, reason: string, maxAttempts: number) =>
      Effect.gen(function*() {
        const rows = yield* sql<{ status: string }>`
          UPDATE connect_sessions SET failed_attempts = failed_attempts + 1, failure_reason = ${reason},
            status = CASE WHEN failed_attempts + 1 >= ${maxAttempts} THEN 'failed' ELSE status END,
            updated_at = now()
          WHERE id = ${id} AND status = 'pending'
          RETURNING status`
        if (rows[0]?.status !== "failed") return
        const failed = yield* findByIdRow(id)
        if (Option.isNone(failed)) return
        yield* outbox.record(
          failed.value.project_id,
          "connect_session.failed",
          connectSessionView(failed.value, yield* Clock.currentTimeMillis)
        )
      }).pipe(outbox.transaction, Effect.orDie)

    // A row that does not decode is a fault of the store, like a failed query: both are defects.
    return {
      complete,
      recordFailure,
      insert: (row: NewConnectSessionRow) => insertRow(row).pipe(Effect.orDie),
      find: (projectId: string, id: string) =>
        isUuid(id) ? findRow({ projectId, id }).pipe(Effect.orDie) : Effect.succeedNone,
      findByTokenHash: (tokenHash: string) => findByHashRow(tokenHash).pipe(Effect.orDie),
      /** A session by id in any project: for a flow that already proved it holds the session (OAuth2 state). */
      findById: (id: string) => isUuid(id) ? findByIdRow(id).pipe(Effect.orDie) : Effect.succeedNone
    } as const
  }),
  dependencies: [WebhookOutbox.Default]
}) {}
