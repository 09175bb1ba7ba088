import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { ServerInstance } from "../../platform/fleet/ServerInstance.js"

export const IdempotencyRecord = Schema.Struct({
  request_hash: Schema.String,
  state: Schema.Literal("running", "done"),
  response: Schema.Unknown,
  /** Seconds since the claim was made (or taken over). */
  age_seconds: Schema.Number
})
export type IdempotencyRecord = typeof IdempotencyRecord.Type

const IdempotencyScope = Schema.Struct({
  projectId: Schema.String,
  accountId: Schema.String,
  key: Schema.String
})
export type IdempotencyScope = typeof IdempotencyScope.Type

export class IdempotencyRepo extends Effect.Service<IdempotencyRepo>()("Switchyard/IdempotencyRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const instance = yield* ServerInstance

    /**
     * Claims the key for a new run, for this process. None when a live record already holds
     * it (then `find`). An expired record is replaced; so is a run of the same request that
     * was abandoned: its process is gone (no heartbeat for a while, e.g. killed) or it is
     * older than any run may last (`abandonedAfterSeconds`).
     */
    const claim = (scope: IdempotencyScope, requestHash: string, ttlSeconds: number, abandonedAfterSeconds: number) =>
      sql`
        INSERT INTO idempotency_keys (project_id, account_id, key, request_hash, state, expires_at, instance_id)
        VALUES (${scope.projectId}, ${scope.accountId}, ${scope.key}, ${requestHash}, 'running',
                now() + make_interval(secs => ${ttlSeconds}), ${instance.id})
        ON CONFLICT (project_id, account_id, key) DO UPDATE
          SET request_hash = EXCLUDED.request_hash, state = 'running', response = NULL,
              created_at = now(), expires_at = EXCLUDED.expires_at, instance_id = EXCLUDED.instance_id
          WHERE idempotency_keys.expires_at <= now()
            OR (idempotency_keys.state = 'running' AND idempotency_keys.request_hash = EXCLUDED.request_hash AND (
              idempotency_keys.created_at <= now() - make_interval(secs => ${abandonedAfterSeconds})
              OR NOT EXISTS (
                SELECT 1 FROM server_instances i
                WHERE i.id = idempotency_keys.instance_id
                  AND i.heartbeat_at > now() - make_interval(secs => ${instance.silenceSeconds}))))
        RETURNING key`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie)

    const findRecord = SqlSchema.findOne({
      Request: IdempotencyScope,
      Result: IdempotencyRecord,
      execute: (scope) =>
        sql`
          SELECT request_hash, state, response, extract(epoch FROM now() - created_at)::float8 AS age_seconds
          FROM idempotency_keys
          WHERE project_id = ${scope.projectId} AND account_id = ${scope.accountId} AND key = ${scope.key}
            AND expires_at > now()`
    })

    // A record that does not decode is a fault of the store, like a failed query: both are defects.
    const find = (scope: IdempotencyScope) => findRecord(scope).pipe(Effect.orDie)

    /** Records the run's result, unless another process took the claim over meanwhile. */
    const complete = (scope: IdempotencyScope, response: unknown) =>
      sql`
        UPDATE idempotency_keys SET state = 'done', response = ${JSON.stringify(response)}::jsonb
        WHERE project_id = ${scope.projectId} AND account_id = ${scope.accountId} AND key = ${scope.key}
          AND state = 'running' AND instance_id = ${instance.id}`.pipe(
        Effect.asVoid,
        Effect.orDie
      )

    const heldByThisInstance = (scope: IdempotencyScope) =>
      sql`
        SELECT 1 AS held FROM idempotency_keys
        WHERE project_id = ${scope.projectId} AND account_id = ${scope.accountId} AND key = ${scope.key}
          AND state = 'running' AND instance_id = ${instance.id}`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie)

    /**
     * For a run about to `claim` the key: an effect telling, before each provider request,
     * whether the claim is still this process's. Another process takes a claim over only
     * after this one missed heartbeats, so while they kept up this costs nothing; otherwise
     * the process beats first (no one takes its claims over for a while from then on) and
     * reads whose the claim is.
     */
    const watch = (scope: IdempotencyScope): Effect.Effect<boolean> => {
      let since = instance.lapseMark()
      return Effect.suspend(() =>
        instance.mayHaveLapsedSince(since)
          ? Effect.zipRight(instance.heartbeat, heldByThisInstance(scope)).pipe(
            Effect.tap((held) => Effect.sync(() => held && (since = instance.lapseMark())))
          )
          : Effect.succeed(true)
      )
    }

    /** A failed run frees its key, so a retry runs again (unless another process took the claim over). */
    const release = (scope: IdempotencyScope) =>
      sql`
        DELETE FROM idempotency_keys
        WHERE project_id = ${scope.projectId} AND account_id = ${scope.accountId} AND key = ${scope.key}
          AND state = 'running' AND instance_id = ${instance.id}`.pipe(Effect.asVoid, Effect.orDie)

    const deleteExpired = (limit: number) =>
      sql`
        WITH expired AS (
          SELECT project_id, account_id, key FROM idempotency_keys WHERE expires_at <= now() LIMIT ${limit}
        )
        DELETE FROM idempotency_keys i USING expired e
        WHERE i.project_id = e.project_id AND i.account_id = e.account_id AND i.key = e.key
        RETURNING 1 AS n`.pipe(Effect.map((rows) => rows.length), Effect.orDie)

    return { claim, watch, find, complete, release, deleteExpired } as const
  }),
  dependencies: [ServerInstance.Default]
}) {}
