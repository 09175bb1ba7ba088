import { SqlClient, SqlSchema } from "@effect/sql"
import { ApiKeyScope } from "@switchyard/api"
import { Effect, Option, Schema } from "effect"
import { CacheEpochs } from "../../platform/cache/CacheEpochs.js"

/** A key as read back: never its hash. */
export const ApiKeyRecord = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  organization_id: Schema.String,
  name: Schema.String,
  scope: ApiKeyScope,
  key_prefix: Schema.String,
  created_at: Schema.DateFromSelf,
  revoked_at: Schema.NullOr(Schema.DateFromSelf)
})
export type ApiKeyRecord = typeof ApiKeyRecord.Type

export interface NewApiKey {
  readonly id: string
  readonly project_id: string
  readonly name: string
  readonly scope: ApiKeyScope
  readonly key_hash: string
  readonly key_prefix: string
}

export class ApiKeysRepo extends Effect.Service<ApiKeysRepo>()("Switchyard/ApiKeysRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const epochs = yield* CacheEpochs

    const columns = sql`
      k.id, k.project_id, p.organization_id, k.name, k.scope, k.key_prefix, k.created_at, k.revoked_at`

    const insert = (key: NewApiKey) =>
      sql`INSERT INTO api_keys ${sql.insert({ ...key })}`.pipe(Effect.asVoid, Effect.orDie)

    const findActiveByHash = SqlSchema.findOne({
      Request: Schema.String,
      Result: ApiKeyRecord,
      execute: (keyHash) =>
        sql`
          SELECT ${columns} FROM api_keys k JOIN projects p ON p.id = k.project_id
          WHERE k.key_hash = ${keyHash} AND k.revoked_at IS NULL`
    })

    const existsWithHash = SqlSchema.single({
      Request: Schema.String,
      Result: Schema.Struct({ found: Schema.Boolean }),
      execute: (keyHash) => sql`SELECT EXISTS (SELECT 1 FROM api_keys WHERE key_hash = ${keyHash}) AS found`
    })

    const list = SqlSchema.findAll({
      Request: Schema.OptionFromSelf(Schema.String),
      Result: ApiKeyRecord,
      execute: (projectId) =>
        sql`
          SELECT ${columns} FROM api_keys k JOIN projects p ON p.id = k.project_id
          ${Option.isSome(projectId) ? sql`WHERE k.project_id::text = ${projectId.value}` : sql``}
          ORDER BY k.created_at, k.id`
    })

    /** Marks the key revoked; the revoked record, or none when no active key has that id. */
    const revoke = SqlSchema.findOne({
      Request: Schema.String,
      Result: ApiKeyRecord,
      execute: (id) =>
        sql`
          UPDATE api_keys k SET revoked_at = now()
          FROM projects p
          WHERE p.id = k.project_id AND k.id::text = ${id} AND k.revoked_at IS NULL
          RETURNING ${columns}`
    })

    // A row that does not decode is a fault of the store, like a failed query: both are defects.
    return {
      insert,
      findActiveByHash: (keyHash: string) => findActiveByHash(keyHash).pipe(Effect.orDie),
      existsWithHash: (keyHash: string) =>
        existsWithHash(keyHash).pipe(Effect.map((row) => row.found), Effect.orDie),
      list: (projectId: Option.Option<string>) => list(projectId).pipe(Effect.orDie),
      revoke: (id: string) => revoke(id).pipe(Effect.orDie, Effect.zipLeft(epochs.changedHere))
    } as const
  }),
  dependencies: [CacheEpochs.Default]
}) {}
