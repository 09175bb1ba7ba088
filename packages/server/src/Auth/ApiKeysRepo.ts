import { SqlClient } from "@effect/sql"
import type { ApiKeyScope } from "@switchyard/api"
import { Effect, Option } from "effect"

export interface ApiKeyRecord {
  readonly id: string
  readonly project_id: string
  readonly organization_id: string
  readonly name: string
  readonly scope: ApiKeyScope
  readonly key_prefix: string
  readonly created_at: Date
  readonly revoked_at: Date | null
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

    const columns = sql`
      k.id, k.project_id, p.organization_id, k.name, k.scope, k.key_prefix, k.created_at, k.revoked_at`

    const insert = (key: NewApiKey) =>
      sql`INSERT INTO api_keys ${sql.insert({ ...key })}`.pipe(Effect.asVoid, Effect.orDie)

    const findActiveByHash = (keyHash: string) =>
      sql<ApiKeyRecord>`
        SELECT ${columns} FROM api_keys k JOIN projects p ON p.id = k.project_id
        WHERE k.key_hash = ${keyHash} AND k.revoked_at IS NULL`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0])),
        Effect.orDie
      )

    const existsWithHash = (keyHash: string) =>
      sql<{ found: boolean }>`SELECT EXISTS (SELECT 1 FROM api_keys WHERE key_hash = ${keyHash}) AS found`.pipe(
        Effect.map((rows) => rows[0]?.found === true),
        Effect.orDie
      )

    const list = (projectId: Option.Option<string>) =>
      sql<ApiKeyRecord>`
        SELECT ${columns} FROM api_keys k JOIN projects p ON p.id = k.project_id
        ${Option.isSome(projectId) ? sql`WHERE k.project_id::text = ${projectId.value}` : sql``}
        ORDER BY k.created_at, k.id`.pipe(Effect.orDie)

    /** Marks the key revoked; the revoked record, or none when no active key has that id. */
    const revoke = (id: string) =>
      sql<ApiKeyRecord>`
        UPDATE api_keys k SET revoked_at = now()
        FROM projects p
        WHERE p.id = k.project_id AND k.id::text = ${id} AND k.revoked_at IS NULL
        RETURNING ${columns}`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0])),
        Effect.orDie
      )

    return { insert, findActiveByHash, existsWithHash, list, revoke } as const
  })
}) {}
