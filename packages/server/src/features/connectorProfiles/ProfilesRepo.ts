import { SqlClient, SqlSchema, type Statement } from "@effect/sql"
import { ConnectorProfile } from "@switchyard/api"
import { Effect, Option, Schema } from "effect"
import { CacheEpochs } from "../../platform/cache/CacheEpochs.js"
import { listPage } from "../../platform/database/ListPage.js"
import type { PageWindow } from "../../platform/database/Pagination.js"
import { isUuid } from "../../platform/database/isUuid.js"

export const ProfileRow = Schema.Struct({
  // The stored fields the api's ConnectorProfile shows as they are; the row has Dates where it has strings.
  ...ConnectorProfile.pick("id", "connector_key", "version_spec", "label", "active", "enabled_actions", "account_settings")
    .fields,
  /** Which setup fields are stored (their sealed values are read only through ProfileSetup). */
  setup_keys: Schema.Array(Schema.String),
  project_id: Schema.String,
  created_at: Schema.DateFromSelf,
  updated_at: Schema.DateFromSelf
})
export type ProfileRow = typeof ProfileRow.Type

export interface ProfileFilters {
  readonly connectorKeys: ReadonlyArray<string>
  readonly active: boolean | undefined
}

/** The profile's sealed setup values (the project's OAuth app) with the keys they hold. */
export const SealedSetup = Schema.Struct({
  setup_ciphertext: Schema.String,
  setup_key_id: Schema.String,
  setup_keys: Schema.Array(Schema.String)
})
export type SealedSetup = typeof SealedSetup.Type

/** What `setup_ciphertext` opens to: the connector's setup field values by key. */
export const SetupValues = Schema.Record({ key: Schema.String, value: Schema.String })

const ProfileChanges = Schema.partial(Schema.Struct({
  ...ProfileRow.pick("version_spec", "label", "active", "enabled_actions", "account_settings").fields,
  setup: SealedSetup
}))
export type ProfileChanges = typeof ProfileChanges.Type


export class ProfilesRepo extends Effect.Service<ProfilesRepo>()("Switchyard/ProfilesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const epochs = yield* CacheEpochs

    const columns = sql`
      id::text AS id, project_id::text AS project_id, connector_key, version_spec, label, active,
      enabled_actions, account_settings, setup_keys, created_at, updated_at`

    const where = (projectId: string, filters: ProfileFilters) => {
      const clauses: Array<Statement.Fragment> = [sql`project_id = ${projectId}`]
      if (filters.connectorKeys.length > 0) clauses.push(sql.in("connector_key", filters.connectorKeys))
      if (filters.active !== undefined) clauses.push(sql`active = ${filters.active}`)
      return sql.and(clauses)
    }

    const scoped = Schema.Struct({ projectId: Schema.String, id: Schema.String })

    const page = yield* listPage("connector_profiles", columns, ProfileRow)
    const list = (projectId: string, filters: ProfileFilters, window: Option.Option<PageWindow>) =>
      page(where(projectId, filters), window)

    const forKeyRows = SqlSchema.findAll({
      Request: Schema.Struct({ projectId: Schema.String, key: Schema.String }),
      Result: ProfileRow,
      execute: ({ key, projectId }) =>
        sql`SELECT ${columns} FROM connector_profiles WHERE project_id = ${projectId} AND connector_key = ${key}`
    })

    const findRow = SqlSchema.findOne({
      Request: scoped,
      Result: ProfileRow,
      execute: ({ id, projectId }) =>
        sql`SELECT ${columns} FROM connector_profiles WHERE project_id = ${projectId} AND id = ${id}`
    })

    const find = (projectId: string, id: string) =>
      isUuid(id) ? findRow({ projectId, id }).pipe(Effect.orDie) : Effect.succeed(Option.none<ProfileRow>())

    const NewProfileRow = Schema.Struct({
      ...ProfileRow.omit("created_at", "updated_at", "setup_keys").fields,
      setup: Schema.NullOr(SealedSetup)
    })
    const insertRow = SqlSchema.single({
      Request: NewProfileRow,
      Result: ProfileRow,
      execute: ({ setup, ...row }) =>
        sql`
          INSERT INTO connector_profiles ${
          sql.insert({
            ...row,
            enabled_actions: JSON.stringify(row.enabled_actions),
            account_settings: JSON.stringify(row.account_settings),
            setup_ciphertext: setup?.setup_ciphertext ?? null,
            setup_key_id: setup?.setup_key_id ?? null,
            setup_keys: JSON.stringify(setup?.setup_keys ?? [])
          })
        }
          RETURNING ${columns}`
    })

    const setupRow = SqlSchema.findOne({
      Request: scoped,
      Result: SealedSetup,
      execute: ({ id, projectId }) =>
        sql`
          SELECT setup_ciphertext, setup_key_id, setup_keys FROM connector_profiles
          WHERE project_id = ${projectId} AND id = ${id} AND setup_ciphertext IS NOT NULL`
    })

    const updateRow = SqlSchema.findOne({
      Request: Schema.Struct({ ...scoped.fields, changes: ProfileChanges }),
      Result: ProfileRow,
      execute: ({ changes, id, projectId }) =>
        sql`
          UPDATE connector_profiles SET
            version_spec = COALESCE(${changes.version_spec ?? null}, version_spec),
            label = COALESCE(${changes.label ?? null}, label),
            active = COALESCE(${changes.active ?? null}::boolean, active),
            enabled_actions = COALESCE(${
          changes.enabled_actions === undefined ? null : JSON.stringify(changes.enabled_actions)
        }::jsonb, enabled_actions),
            account_settings = COALESCE(${
          changes.account_settings === undefined ? null : JSON.stringify(changes.account_settings)
        }::jsonb, account_settings),
            setup_ciphertext = COALESCE(${changes.setup?.setup_ciphertext ?? null}, setup_ciphertext),
            setup_key_id = COALESCE(${changes.setup?.setup_key_id ?? null}, setup_key_id),
            setup_keys = COALESCE(${
          changes.setup === undefined ? null : JSON.stringify(changes.setup.setup_keys)
        }::jsonb, setup_keys),
            updated_at = now()
          WHERE project_id = ${projectId} AND id = ${id}
          RETURNING ${columns}`
    })

    /** Deletes unless accounts still use the profile: "in use" when they do. */
    const remove = (projectId: string, id: string) =>
      sql`DELETE FROM connector_profiles WHERE project_id = ${projectId} AND id = ${id} RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0 ? "deleted" as const : "missing" as const),
        // 23001 restrict_violation (ON DELETE RESTRICT), 23503 foreign_key_violation.
        Effect.catchTag("SqlError", (error) =>
          ["23001", "23503"].includes(String((error.cause as { code?: string } | undefined)?.code))
            ? Effect.succeed("in use" as const)
            : Effect.die(error))
      )

    const accountCountRows = SqlSchema.findAll({
      Request: Schema.String,
      Result: Schema.Struct({ id: Schema.String, n: Schema.Number }),
      execute: (projectId) =>
        sql`
          SELECT connector_profile_id::text AS id, count(*)::int AS n FROM accounts
          WHERE project_id = ${projectId} AND connector_profile_id IS NOT NULL GROUP BY connector_profile_id`
    })

    // A row that does not decode is a fault of the store, like a failed query: both are defects.
    return {
      list,
      forKey: (projectId: string, key: string) => forKeyRows({ projectId, key }).pipe(Effect.orDie),
      find,
      insert: (row: typeof NewProfileRow.Type) => insertRow(row).pipe(Effect.orDie),
      /** The sealed setup values, when the profile has any. */
      findSetup: (projectId: string, id: string) =>
        isUuid(id) ? setupRow({ projectId, id }).pipe(Effect.orDie) : Effect.succeed(Option.none<SealedSetup>()),
      update: (projectId: string, id: string, changes: ProfileChanges) =>
        updateRow({ projectId, id, changes }).pipe(Effect.orDie, Effect.zipLeft(epochs.changedHere)),
      remove: (projectId: string, id: string) => Effect.zipLeft(remove(projectId, id), epochs.changedHere),
      accountCounts: (projectId: string) =>
        accountCountRows(projectId).pipe(
          Effect.map((rows) => new Map(rows.map((row) => [row.id, row.n]))),
          Effect.orDie
        )
    } as const
  }),
  dependencies: [CacheEpochs.Default]
}) {}
