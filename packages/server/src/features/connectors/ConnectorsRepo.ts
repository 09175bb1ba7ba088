import { SqlClient, SqlSchema } from "@effect/sql"
import { ChangelogEntry, McpAuth } from "@switchyard/api"
import { Effect, Option, Schema } from "effect"
import { CacheEpochs } from "../../platform/cache/CacheEpochs.js"

/** A stored connector version (without its definition, which only resolution needs). */
export const ConnectorVersionRow = Schema.Struct({
  id: Schema.String,
  key: Schema.String,
  version: Schema.String,
  /** NULL for built-in connectors. */
  owner_project_id: Schema.NullOr(Schema.String),
  title: Schema.String,
  description: Schema.NullOr(Schema.String),
  categories: Schema.Array(Schema.String),
  content_hash: Schema.String,
  changelog: Schema.NullOr(ChangelogEntry),
  mcp_server_url: Schema.NullOr(Schema.String),
  mcp_auth: Schema.NullOr(McpAuth),
  created_at: Schema.DateFromSelf
})
export type ConnectorVersionRow = typeof ConnectorVersionRow.Type

/** A version to store: the row's fields (bar its creation time) plus the definition itself. */
const NewConnectorVersion = Schema.Struct({
  ...ConnectorVersionRow.omit("created_at").fields,
  definition: Schema.Unknown
})
export type NewConnectorVersion = typeof NewConnectorVersion.Type

export class ConnectorsRepo extends Effect.Service<ConnectorsRepo>()("Switchyard/ConnectorsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const epochs = yield* CacheEpochs

    const columns = sql`
      id, key, version, owner_project_id::text AS owner_project_id, title, description, categories,
      content_hash, changelog, mcp_server_url, mcp_auth, created_at`

    /** Every version the project can see: built-ins and its own custom connectors. */
    const visibleVersions = SqlSchema.findAll({
      Request: Schema.Struct({ projectId: Schema.String, keys: Schema.optional(Schema.Array(Schema.String)) }),
      Result: ConnectorVersionRow,
      execute: ({ keys, projectId }) =>
        sql`
          SELECT ${columns} FROM connector_versions
          WHERE (owner_project_id IS NULL OR owner_project_id = ${projectId})
          ${keys === undefined ? sql`` : keys.length === 0 ? sql`AND false` : sql`AND ${sql.in("key", keys)}`}`
    })

    const builtinVersions = SqlSchema.findAll({
      Request: Schema.Void,
      Result: ConnectorVersionRow,
      execute: () => sql`SELECT ${columns} FROM connector_versions WHERE owner_project_id IS NULL`
    })

    /** Each built-in version's stored `info.verification` (null when it has none). */
    const builtinVerifications = SqlSchema.findAll({
      Request: Schema.Void,
      Result: Schema.Struct({ id: Schema.String, verification: Schema.Unknown }),
      execute: () =>
        sql`SELECT id, definition #> '{info,verification}' AS verification FROM connector_versions WHERE owner_project_id IS NULL`
    })

    const definition = SqlSchema.findOne({
      Request: Schema.String,
      Result: Schema.Struct({ definition: Schema.Unknown }),
      execute: (id) => sql`SELECT definition FROM connector_versions WHERE id = ${id}`
    })

    const insert = SqlSchema.single({
      Request: NewConnectorVersion,
      Result: ConnectorVersionRow,
      execute: (row) =>
        sql`INSERT INTO connector_versions ${
          sql.insert({
            ...row,
            categories: JSON.stringify(row.categories),
            definition: JSON.stringify(row.definition),
            changelog: row.changelog === null ? null : JSON.stringify(row.changelog)
          })
        } RETURNING ${columns}`
    })

    /** Replaces a version's content (only when the project allows mutable versions). */
    const replace = (id: string, row: Pick<NewConnectorVersion, "title" | "description" | "categories" | "definition" | "content_hash">) =>
      sql`
        UPDATE connector_versions SET title = ${row.title}, description = ${row.description},
          categories = ${JSON.stringify(row.categories)}::jsonb, definition = ${JSON.stringify(row.definition)}::jsonb,
          content_hash = ${row.content_hash}
        WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)

    /**
     * Rewrites a version's definition whose content hash stays the same: what changed lies
     * outside the hash (`info.verification`), so the version itself has not.
     */
    const refreshDefinition = (id: string, contentHash: string, definition: unknown) =>
      sql`
        UPDATE connector_versions SET definition = ${JSON.stringify(definition)}::jsonb
        WHERE id = ${id} AND content_hash = ${contentHash}`.pipe(Effect.asVoid, Effect.orDie)

    const remove = (id: string) => sql`DELETE FROM connector_versions WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)

    /** Serializes registrations of one key in one owner (two racers: one winner). */
    const lockKey = (owner: string, key: string) =>
      sql`SELECT pg_advisory_xact_lock(hashtext(${`connector:${owner}:${key}`}))`.pipe(Effect.asVoid, Effect.orDie)

    /** Accounts and profiles per connector key in the project (for counts and usage sort). */
    const usage = SqlSchema.findAll({
      Request: Schema.String,
      Result: Schema.Struct({ key: Schema.String, accounts: Schema.Number, profiles: Schema.Number }),
      execute: (projectId) =>
        sql`
          SELECT key, SUM(accounts)::int AS accounts, SUM(profiles)::int AS profiles FROM (
            SELECT connector_key AS key, count(*) AS accounts, 0 AS profiles FROM accounts
            WHERE project_id = ${projectId} GROUP BY connector_key
            UNION ALL
            SELECT connector_key AS key, 0 AS accounts, count(*) AS profiles FROM connector_profiles
            WHERE project_id = ${projectId} GROUP BY connector_key
          ) AS counted GROUP BY key`
    })

    /** Accounts linked without a profile and pinned to this exact version. */
    const accountsPinnedTo = SqlSchema.single({
      Request: Schema.Struct({ projectId: Schema.String, key: Schema.String, version: Schema.String }),
      Result: Schema.Struct({ n: Schema.Number }),
      execute: ({ key, projectId, version }) =>
        sql`
          SELECT count(*)::int AS n FROM accounts
          WHERE project_id = ${projectId} AND connector_key = ${key} AND connector_version = ${version}
            AND connector_profile_id IS NULL`
    })

    // A row that does not decode is a fault of the store, like a failed query: both are defects.
    return {
      visibleVersions: (projectId: string, keys?: ReadonlyArray<string>) =>
        visibleVersions({ projectId, keys }).pipe(Effect.orDie),
      builtinVersions: builtinVersions(undefined).pipe(Effect.orDie),
      builtinVerifications: builtinVerifications(undefined).pipe(
        Effect.map((rows) => new Map(rows.map((row) => [row.id, row.verification ?? null]))),
        Effect.orDie
      ),
      definition: (id: string) =>
        definition(id).pipe(Effect.map(Option.map((row) => row.definition)), Effect.orDie),
      insert: (row: NewConnectorVersion) => insert(row).pipe(Effect.orDie, Effect.zipLeft(epochs.changedHere)),
      replace: (id: string, row: Parameters<typeof replace>[1]) => Effect.zipLeft(replace(id, row), epochs.changedHere),
      refreshDefinition: (id: string, contentHash: string, definition: unknown) =>
        Effect.zipLeft(refreshDefinition(id, contentHash, definition), epochs.changedHere),
      remove: (id: string) => Effect.zipLeft(remove(id), epochs.changedHere),
      lockKey,
      usage: (projectId: string) =>
        usage(projectId).pipe(
          Effect.map((rows) => new Map(rows.map((row) => [row.key, { accounts: row.accounts, profiles: row.profiles }]))),
          Effect.orDie
        ),
      accountsPinnedTo: (projectId: string, key: string, version: string) =>
        accountsPinnedTo({ projectId, key, version }).pipe(Effect.map((row) => row.n), Effect.orDie),
      withTransaction: sql.withTransaction
    } as const
  }),
  dependencies: [CacheEpochs.Default]
}) {}
