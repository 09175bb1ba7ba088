import { SqlClient, type Statement } from "@effect/sql"
import { Effect, Option } from "effect"

export interface ProfileRow {
  readonly id: string
  readonly project_id: string
  readonly connector_key: string
  readonly version_spec: string
  readonly label: string
  readonly active: boolean
  readonly enabled_actions: ReadonlyArray<string>
  readonly created_at: Date
  readonly updated_at: Date
}

export interface ProfileFilters {
  readonly connectorKeys: ReadonlyArray<string>
  readonly active: boolean | undefined
}

export type ProfileChanges = Partial<Pick<ProfileRow, "version_spec" | "label" | "active" | "enabled_actions">>

const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)

export class ProfilesRepo extends Effect.Service<ProfilesRepo>()("Switchyard/ProfilesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const columns = sql`
      id::text AS id, project_id::text AS project_id, connector_key, version_spec, label, active,
      enabled_actions, created_at, updated_at`

    const where = (projectId: string, filters: ProfileFilters) => {
      const clauses: Array<Statement.Fragment> = [sql`project_id = ${projectId}`]
      if (filters.connectorKeys.length > 0) clauses.push(sql.in("connector_key", filters.connectorKeys))
      if (filters.active !== undefined) clauses.push(sql`active = ${filters.active}`)
      return sql.and(clauses)
    }

    const list = (
      projectId: string,
      filters: ProfileFilters,
      window: Option.Option<{ readonly offset: number; readonly limit: number }>
    ) =>
      Effect.all([
        sql<ProfileRow>`
          SELECT ${columns} FROM connector_profiles WHERE ${where(projectId, filters)}
          ORDER BY created_at, id
          ${Option.isSome(window) ? sql`LIMIT ${window.value.limit} OFFSET ${window.value.offset}` : sql``}`,
        sql<{ total: number }>`SELECT count(*)::int AS total FROM connector_profiles WHERE ${where(projectId, filters)}`
      ], { concurrency: 2 }).pipe(
        Effect.map(([rows, [count]]) => ({ rows, total: count?.total ?? 0 })),
        Effect.orDie
      )

    const forKey = (projectId: string, key: string) =>
      sql<ProfileRow>`SELECT ${columns} FROM connector_profiles WHERE project_id = ${projectId} AND connector_key = ${key}`
        .pipe(Effect.orDie)

    const find = (projectId: string, id: string) =>
      isUuid(id)
        ? sql<ProfileRow>`SELECT ${columns} FROM connector_profiles WHERE project_id = ${projectId} AND id = ${id}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        )
        : Effect.succeed(Option.none<ProfileRow>())

    const insert = (row: Omit<ProfileRow, "created_at" | "updated_at">) =>
      sql<ProfileRow>`
        INSERT INTO connector_profiles ${sql.insert({ ...row, enabled_actions: JSON.stringify(row.enabled_actions) })}
        RETURNING ${columns}`.pipe(Effect.map((rows) => rows[0]!), Effect.orDie)

    const update = (projectId: string, id: string, changes: ProfileChanges) =>
      sql<ProfileRow>`
        UPDATE connector_profiles SET
          version_spec = COALESCE(${changes.version_spec ?? null}, version_spec),
          label = COALESCE(${changes.label ?? null}, label),
          active = COALESCE(${changes.active ?? null}::boolean, active),
          enabled_actions = COALESCE(${
        changes.enabled_actions === undefined ? null : JSON.stringify(changes.enabled_actions)
      }::jsonb, enabled_actions),
          updated_at = now()
        WHERE project_id = ${projectId} AND id = ${id}
        RETURNING ${columns}`.pipe(Effect.map((rows) => Option.fromNullable(rows[0])), Effect.orDie)

    /** Deletes unless accounts still use the profile: "in use" when they do. */
    const remove = (projectId: string, id: string) =>
      sql<{ id: string }>`DELETE FROM connector_profiles WHERE project_id = ${projectId} AND id = ${id} RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0 ? "deleted" as const : "missing" as const),
        // 23001 restrict_violation (ON DELETE RESTRICT), 23503 foreign_key_violation.
        Effect.catchTag("SqlError", (error) =>
          ["23001", "23503"].includes(String((error.cause as { code?: string } | undefined)?.code))
            ? Effect.succeed("in use" as const)
            : Effect.die(error))
      )

    const accountCounts = (projectId: string) =>
      sql<{ id: string; n: number }>`
        SELECT connector_profile_id::text AS id, count(*)::int AS n FROM accounts
        WHERE project_id = ${projectId} AND connector_profile_id IS NOT NULL GROUP BY connector_profile_id`.pipe(
        Effect.map((rows) => new Map(rows.map((row) => [row.id, row.n]))),
        Effect.orDie
      )

    return { list, forKey, find, insert, update, remove, accountCounts } as const
  })
}) {}
