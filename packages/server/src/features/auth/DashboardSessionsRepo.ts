import { SqlClient, SqlSchema } from "@effect/sql"
import { ApiKeyScope } from "@switchyard/api"
import { Effect, Schema } from "effect"

/** A live session as authentication reads it: whose it is, what its key may do, until when. */
export const LiveDashboardSession = Schema.Struct({
  project_id: Schema.String,
  organization_id: Schema.String,
  api_key_id: Schema.String,
  scope: ApiKeyScope,
  expires_at: Schema.DateFromSelf
})
export type LiveDashboardSession = typeof LiveDashboardSession.Type

const NewDashboardSession = Schema.Struct({
  id: Schema.String,
  projectId: Schema.String,
  apiKeyId: Schema.String,
  tokenHash: Schema.String,
  lifetimeSeconds: Schema.Number
})
export type NewDashboardSession = typeof NewDashboardSession.Type

/** The only writer of `dashboard_sessions`. Times are the database's, the one clock every server shares. */
export class DashboardSessionsRepo extends Effect.Service<DashboardSessionsRepo>()("Switchyard/DashboardSessionsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const insert = SqlSchema.single({
      Request: NewDashboardSession,
      Result: Schema.Struct({ expires_at: Schema.DateFromSelf }),
      execute: (session) =>
        sql`
          INSERT INTO dashboard_sessions (id, project_id, api_key_id, token_hash, expires_at)
          VALUES (${session.id}::uuid, ${session.projectId}::uuid, ${session.apiKeyId}::uuid, ${session.tokenHash},
            now() + ${session.lifetimeSeconds}::int * interval '1 second')
          RETURNING expires_at`
    })

    /**
     * The session behind a token hash, only while it is neither ended nor expired and its key
     * is not revoked: one lookup by the unique index, so a key revoked on any server ends its
     * sessions on all of them at once.
     */
    const findLive = SqlSchema.findOne({
      Request: Schema.String,
      Result: LiveDashboardSession,
      execute: (tokenHash) =>
        sql`
          SELECT s.project_id::text AS project_id, p.organization_id::text AS organization_id,
            s.api_key_id::text AS api_key_id, k.scope, s.expires_at
          FROM dashboard_sessions s
          JOIN api_keys k ON k.id = s.api_key_id
          JOIN projects p ON p.id = s.project_id
          WHERE s.token_hash = ${tokenHash} AND s.ended_at IS NULL AND s.expires_at > now() AND k.revoked_at IS NULL`
    })

    const end = (tokenHash: string) =>
      sql`UPDATE dashboard_sessions SET ended_at = now() WHERE token_hash = ${tokenHash} AND ended_at IS NULL`.pipe(
        Effect.asVoid,
        Effect.orDie
      )

    /** Deletes up to `limit` ended or expired sessions (the purge job); how many went. */
    const deleteFinished = (limit: number) =>
      sql`
        DELETE FROM dashboard_sessions WHERE id IN (
          SELECT id FROM dashboard_sessions WHERE expires_at <= now() OR ended_at IS NOT NULL LIMIT ${limit}
        )
        RETURNING 1 AS n`.pipe(Effect.map((rows) => rows.length), Effect.orDie)

    // A row that does not decode is a fault of the store, like a failed query: both are defects.
    return {
      insert: (session: NewDashboardSession) =>
        insert(session).pipe(Effect.map((row) => row.expires_at), Effect.orDie),
      findLive: (tokenHash: string) => findLive(tokenHash).pipe(Effect.orDie),
      end,
      deleteFinished
    } as const
  })
}) {}
