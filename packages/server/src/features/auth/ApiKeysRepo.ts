import { SqlClient, SqlSchema } from "@effect/sql"
import { ApiKeyScope } from "@switchyard/api"
import { Effect, Option, Schema } from "effect"
import { CacheEpochs } from "../../platform/cache/CacheEpochs.js"
import { isUuid } from "../../platform/database/isUuid.js"

/** A key as read back: never its hash. */
export const ApiKeyRecord = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  organization_id: Schema.String,
  name: Schema.String,
  scope: ApiKeyScope,
  key_prefix: Schema.String,
  created_at: Schema.DateFromSelf,
  last_used_at: Schema.NullOr(Schema.DateFromSelf),
  revoked_at: Schema.NullOr(Schema.DateFromSelf)
})
export type ApiKeyRecord = typeof ApiKeyRecord.Type

/** A record with where it stands in its project's newest-first list (microseconds since the epoch, as text). */
const ApiKeyPageRow = Schema.Struct({ ...ApiKeyRecord.fields, created_micros: Schema.String })
export type ApiKeyPageRow = typeof ApiKeyPageRow.Type

/** Where a page of a project's keys ended: the last key's creation time and id. */
export interface ApiKeyPosition {
  readonly createdMicros: string
  readonly id: string
}


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
      k.id, k.project_id, p.organization_id, k.name, k.scope, k.key_prefix, k.created_at, k.last_used_at, k.revoked_at`

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

    /**
     * Marks the key revoked, only within `projectId` when one is given; the revoked record, or
     * none when no active key (of that project) has that id.
     */
    const revoke = SqlSchema.findOne({
      Request: Schema.Struct({ id: Schema.String, projectId: Schema.OptionFromSelf(Schema.String) }),
      Result: ApiKeyRecord,
      execute: ({ id, projectId }) =>
        sql`
          UPDATE api_keys k SET revoked_at = now()
          FROM projects p
          WHERE p.id = k.project_id AND k.id::text = ${id} AND k.revoked_at IS NULL
            ${Option.isSome(projectId) ? sql`AND k.project_id::text = ${projectId.value}` : sql``}
          RETURNING ${columns}`
    })

    const decodePage = Schema.decodeUnknown(Schema.Array(ApiKeyPageRow))

    /** A page of the project's keys, newest first, after `after`; revoked ones only with `includeRevoked`. */
    const page = (projectId: string, limit: number, after: ApiKeyPosition | undefined, includeRevoked: boolean) =>
      sql`
        SELECT ${columns}, (extract(epoch FROM k.created_at) * 1000000)::bigint::text AS created_micros
        FROM api_keys k JOIN projects p ON p.id = k.project_id
        WHERE k.project_id = ${projectId}::uuid
          ${includeRevoked ? sql`` : sql`AND k.revoked_at IS NULL`}
          ${
        after === undefined ? sql`` : sql`AND (k.created_at, k.id) < (
            timestamptz 'epoch' + ${after.createdMicros}::bigint * interval '1 microsecond', ${after.id}::uuid)`
      }
        ORDER BY k.created_at DESC, k.id DESC LIMIT ${limit}`.pipe(Effect.flatMap(decodePage), Effect.orDie)

    const findInProject = SqlSchema.findOne({
      Request: Schema.Struct({ projectId: Schema.String, id: Schema.String }),
      Result: ApiKeyRecord,
      execute: ({ id, projectId }) =>
        sql`
          SELECT ${columns} FROM api_keys k JOIN projects p ON p.id = k.project_id
          WHERE k.project_id = ${projectId}::uuid AND k.id = ${id}::uuid`
    })
    const find = (projectId: string, id: string) =>
      isUuid(id) ? findInProject({ projectId, id }).pipe(Effect.orDie) : Effect.succeedNone

    const countActive = (projectId: string) =>
      sql<{ readonly n: number }>`
        SELECT count(*)::int AS n FROM api_keys WHERE project_id = ${projectId}::uuid AND revoked_at IS NULL`
        .pipe(Effect.map((rows) => rows[0]?.n ?? 0), Effect.orDie)

    /** The latest use of each key, in one statement (the usage tracker's flush). */
    const recordLastUsed = (entries: ReadonlyArray<readonly [id: string, at: Date]>) =>
      entries.length === 0 ? Effect.void : sql`
        UPDATE api_keys AS k SET last_used_at = GREATEST(k.last_used_at, v.at)
        FROM (VALUES ${sql.csv(entries.map(([id, at]) => sql`(${id}::uuid, ${at.toISOString()}::timestamptz)`))}) AS v(id, at)
        WHERE k.id = v.id`.pipe(Effect.asVoid, Effect.orDie)

    // A row that does not decode is a fault of the store, like a failed query: both are defects.
    return {
      insert,
      findActiveByHash: (keyHash: string) => findActiveByHash(keyHash).pipe(Effect.orDie),
      existsWithHash: (keyHash: string) =>
        existsWithHash(keyHash).pipe(Effect.map((row) => row.found), Effect.orDie),
      list: (projectId: Option.Option<string>) => list(projectId).pipe(Effect.orDie),
      revoke: (id: string, projectId: Option.Option<string> = Option.none()) =>
        (isUuid(id) ? revoke({ id, projectId }) : Effect.succeedNone).pipe(Effect.orDie, Effect.zipLeft(epochs.changedHere)),
      page,
      find,
      countActive,
      recordLastUsed
    } as const
  }),
  dependencies: [CacheEpochs.Default]
}) {}
