import { SqlClient } from "@effect/sql"
import type { ChangelogEntry } from "@switchyard/api"
import { Effect, Option } from "effect"

/** A stored connector version (without its definition, which only resolution needs). */
export interface ConnectorVersionRow {
  readonly id: string
  readonly key: string
  readonly version: string
  /** NULL for built-in connectors. */
  readonly owner_project_id: string | null
  readonly title: string
  readonly description: string | null
  readonly categories: ReadonlyArray<string>
  readonly content_hash: string
  readonly changelog: ChangelogEntry | null
  readonly mcp_server_url: string | null
  readonly mcp_auth: "none" | "token" | "oauth" | null
  readonly created_at: Date
}

/** A version to store: the row's fields (bar its creation time) plus the definition itself. */
export type NewConnectorVersion = Omit<ConnectorVersionRow, "created_at"> & { readonly definition: unknown }

export class ConnectorsRepo extends Effect.Service<ConnectorsRepo>()("Switchyard/ConnectorsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const columns = sql`
      id, key, version, owner_project_id::text AS owner_project_id, title, description, categories,
      content_hash, changelog, mcp_server_url, mcp_auth, created_at`

    /** Every version the project can see: built-ins and its own custom connectors. */
    const visibleVersions = (projectId: string, keys?: ReadonlyArray<string>) =>
      sql<ConnectorVersionRow>`
        SELECT ${columns} FROM connector_versions
        WHERE (owner_project_id IS NULL OR owner_project_id = ${projectId})
        ${keys === undefined ? sql`` : keys.length === 0 ? sql`AND false` : sql`AND ${sql.in("key", keys)}`}`.pipe(
        Effect.orDie
      )

    const builtinVersions = sql<ConnectorVersionRow>`
      SELECT ${columns} FROM connector_versions WHERE owner_project_id IS NULL`.pipe(Effect.orDie)

    const definition = (id: string) =>
      sql<{ definition: unknown }>`SELECT definition FROM connector_versions WHERE id = ${id}`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0]?.definition)),
        Effect.orDie
      )

    const insert = (row: NewConnectorVersion) =>
      sql<ConnectorVersionRow>`INSERT INTO connector_versions ${
        sql.insert({
          ...row,
          categories: JSON.stringify(row.categories),
          definition: JSON.stringify(row.definition),
          changelog: row.changelog === null ? null : JSON.stringify(row.changelog)
        })
      } RETURNING ${columns}`.pipe(Effect.map((rows) => rows[0]!), Effect.orDie)

    /** Replaces a version's content (only when the project allows mutable versions). */
    const replace = (id: string, row: Pick<NewConnectorVersion, "title" | "description" | "categories" | "definition" | "content_hash">) =>
      sql`
        UPDATE connector_versions SET title = ${row.title}, description = ${row.description},
          categories = ${JSON.stringify(row.categories)}::jsonb, definition = ${JSON.stringify(row.definition)}::jsonb,
          content_hash = ${row.content_hash}
        WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)

    const remove = (id: string) => sql`DELETE FROM connector_versions WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)

    /** Serializes registrations of one key in one owner (two racers: one winner). */
    const lockKey = (owner: string, key: string) =>
      sql`SELECT pg_advisory_xact_lock(hashtext(${`connector:${owner}:${key}`}))`.pipe(Effect.asVoid, Effect.orDie)

    /** Accounts and profiles per connector key in the project (for counts and usage sort). */
    const usage = (projectId: string) =>
      sql<{ key: string; accounts: number; profiles: number }>`
        SELECT key, SUM(accounts)::int AS accounts, SUM(profiles)::int AS profiles FROM (
          SELECT connector_key AS key, count(*) AS accounts, 0 AS profiles FROM accounts
          WHERE project_id = ${projectId} GROUP BY connector_key
          UNION ALL
          SELECT connector_key AS key, 0 AS accounts, count(*) AS profiles FROM connector_profiles
          WHERE project_id = ${projectId} GROUP BY connector_key
        ) AS counted GROUP BY key`.pipe(
        Effect.map((rows) => new Map(rows.map((row) => [row.key, { accounts: row.accounts, profiles: row.profiles }]))),
        Effect.orDie
      )

    /** Accounts linked without a profile and pinned to this exact version. */
    const accountsPinnedTo = (projectId: string, key: string, version: string) =>
      sql<{ n: number }>`
        SELECT count(*)::int AS n FROM accounts
        WHERE project_id = ${projectId} AND connector_key = ${key} AND connector_version = ${version}
          AND connector_profile_id IS NULL`.pipe(Effect.map((rows) => rows[0]?.n ?? 0), Effect.orDie)

    return {
      visibleVersions,
      builtinVersions,
      definition,
      insert,
      replace,
      remove,
      lockKey,
      usage,
      accountsPinnedTo,
      withTransaction: sql.withTransaction
    } as const
  })
}) {}
