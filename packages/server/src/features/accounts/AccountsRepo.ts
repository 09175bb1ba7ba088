import { SqlClient, SqlSchema, type Statement } from "@effect/sql"
import { Account, AccountStatus, StatusReason } from "@switchyard/api"
import { Effect, Option, Schema } from "effect"
import { CacheEpochs } from "../../platform/cache/CacheEpochs.js"
import { listPage } from "../../platform/database/ListPage.js"
import type { PageWindow } from "../../platform/database/Pagination.js"

export type StoredStatusReason = typeof StatusReason.Type

/** An account row without its sealed credentials (those are read only when a call needs them). */
export const AccountRow = Schema.Struct({
  // The stored fields the api's Account shows as they are; the row has Dates where it has strings.
  ...Account.pick(
    "id",
    "name",
    "owner_id",
    "owner_name",
    "owner_username",
    "connector_key",
    "connector_version",
    "connector_profile_id",
    "status",
    "status_reasons",
    "settings",
    "label",
    "metadata",
    "linked_via",
    "connect_session_id"
  ).fields,
  /** The connector authentication method the credentials are for; null: the connector's first. */
  auth_method: Schema.NullOr(Schema.String),
  project_id: Schema.String,
  connected_at: Schema.DateFromSelf,
  created_at: Schema.DateFromSelf,
  updated_at: Schema.DateFromSelf,
  last_request_at: Schema.NullOr(Schema.DateFromSelf)
})
export type AccountRow = typeof AccountRow.Type

/** What `credentials_ciphertext` opens to: the linked method's fields, and an OAuth2 account's tokens. */
export const AccountCredentials = Schema.Record({ key: Schema.String, value: Schema.Unknown })

const SealedCredentials = Schema.Struct({
  credentials_ciphertext: Schema.String,
  credentials_key_id: Schema.String
})

/** What a new account stores: the row's own fields plus its sealed credentials. */
const NewAccountRow = Schema.Struct({
  ...AccountRow.omit("status", "status_reasons", "connected_at", "created_at", "updated_at", "last_request_at").fields,
  ...SealedCredentials.fields
})
export type NewAccountRow = typeof NewAccountRow.Type

export interface AccountFiltersQuery {
  readonly accountIds: ReadonlyArray<string>
  readonly connectorKeys: ReadonlyArray<string>
  readonly statuses: ReadonlyArray<string>
  readonly ownerIds: ReadonlyArray<string>
  readonly connectorProfileIds: ReadonlyArray<string>
  readonly search: string | undefined
}


const FilterValue = Schema.Struct({ value: Schema.String })
const LabelledFilterValue = Schema.Struct({ value: Schema.String, label: Schema.String })

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

export class AccountsRepo extends Effect.Service<AccountsRepo>()("Switchyard/AccountsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const epochs = yield* CacheEpochs

    const columns = sql`
      id, project_id, name, owner_id, owner_name, owner_username, connector_key, connector_version,
      connector_profile_id::text AS connector_profile_id, status, status_reasons, settings,
      label, metadata, linked_via, connect_session_id::text AS connect_session_id, auth_method,
      connected_at, created_at, updated_at, last_request_at`

    const where = (projectId: string, filters: AccountFiltersQuery) => {
      const clauses: Array<Statement.Fragment> = [sql`project_id = ${projectId}`]
      if (filters.accountIds.length > 0) clauses.push(sql.in("id", filters.accountIds))
      if (filters.connectorKeys.length > 0) clauses.push(sql.in("connector_key", filters.connectorKeys))
      if (filters.statuses.length > 0) clauses.push(sql.in("status", filters.statuses))
      if (filters.ownerIds.length > 0) clauses.push(sql.in("owner_id", filters.ownerIds))
      if (filters.connectorProfileIds.length > 0) {
        clauses.push(sql`connector_profile_id::text IN ${sql.in(filters.connectorProfileIds)}`)
      }
      if (filters.search !== undefined && filters.search.length > 0) {
        const pattern = likePattern(filters.search)
        clauses.push(sql`(name ILIKE ${pattern} OR owner_username ILIKE ${pattern})`)
      }
      return sql.and(clauses)
    }

    const scoped = Schema.Struct({ projectId: Schema.String, id: Schema.String })

    const insert = SqlSchema.single({
      Request: NewAccountRow,
      Result: AccountRow,
      execute: (row) =>
        sql`INSERT INTO accounts ${
          sql.insert({
            ...row,
            settings: JSON.stringify(row.settings),
            metadata: row.metadata === null ? null : JSON.stringify(row.metadata)
          })
        } RETURNING ${columns}`
    })

    const page = yield* listPage("accounts", columns, AccountRow)
    const list = (projectId: string, filters: AccountFiltersQuery, window: Option.Option<PageWindow>) =>
      page(where(projectId, filters), window)

    const findRow = SqlSchema.findOne({
      Request: scoped,
      Result: AccountRow,
      execute: ({ id, projectId }) =>
        sql`SELECT ${columns} FROM accounts WHERE project_id = ${projectId} AND id = ${id}`
    })

    const findRowWithCredentials = SqlSchema.findOne({
      Request: scoped,
      Result: Schema.Struct({ ...AccountRow.fields, ...SealedCredentials.fields }),
      execute: ({ id, projectId }) =>
        sql`
          SELECT ${columns}, credentials_ciphertext, credentials_key_id FROM accounts
          WHERE project_id = ${projectId} AND id = ${id}`
    })

    const updateStatusRow = SqlSchema.findOne({
      Request: Schema.Struct({
        ...scoped.fields,
        status: Schema.optional(AccountStatus),
        status_reasons: Schema.optional(Schema.Array(StatusReason))
      }),
      Result: AccountRow,
      execute: (changes) =>
        sql`
          UPDATE accounts SET
            status = COALESCE(${changes.status ?? null}, status),
            status_reasons = COALESCE(${
          changes.status_reasons === undefined ? null : JSON.stringify(changes.status_reasons)
        }::jsonb, status_reasons),
            updated_at = now()
          WHERE project_id = ${changes.projectId} AND id = ${changes.id}
          RETURNING ${columns}`
    })

    /** The account as it was, when there was one to delete. */
    const removeRow = SqlSchema.findOne({
      Request: scoped,
      Result: AccountRow,
      execute: ({ id, projectId }) => sql`DELETE FROM accounts WHERE project_id = ${projectId} AND id = ${id} RETURNING ${columns}`
    })

    const connectorKeyValues = SqlSchema.findAll({
      Request: Schema.String,
      Result: FilterValue,
      execute: (projectId) =>
        sql`SELECT DISTINCT connector_key AS value FROM accounts WHERE project_id = ${projectId} ORDER BY 1`
    })
    const accountValues = SqlSchema.findAll({
      Request: Schema.String,
      Result: LabelledFilterValue,
      execute: (projectId) =>
        sql`SELECT id AS value, name AS label FROM accounts WHERE project_id = ${projectId} ORDER BY name, id`
    })
    const ownerValues = SqlSchema.findAll({
      Request: Schema.String,
      Result: LabelledFilterValue,
      execute: (projectId) =>
        sql`
          SELECT owner_id AS value, MIN(COALESCE(owner_name, owner_username, owner_id)) AS label
          FROM accounts WHERE project_id = ${projectId} GROUP BY owner_id ORDER BY 2, 1`
    })
    const statusValues = SqlSchema.findAll({
      Request: Schema.String,
      Result: Schema.Struct({ value: AccountStatus }),
      execute: (projectId) =>
        sql`SELECT DISTINCT status AS value FROM accounts WHERE project_id = ${projectId} ORDER BY 1`
    })

    /** Distinct values for the filter pickers, one query per facet over the project's accounts. */
    const filterValues = (projectId: string) =>
      Effect.all({
        connectorKeys: connectorKeyValues(projectId),
        accounts: accountValues(projectId),
        owners: ownerValues(projectId),
        statuses: statusValues(projectId)
      }, { concurrency: 4 }).pipe(Effect.orDie)

    /** Raises each account's `last_request_at` to the given time (never lowers it). */
    const recordLastRequests = (entries: ReadonlyArray<readonly [accountId: string, at: Date]>) =>
      entries.length === 0 ? Effect.void : sql`
        UPDATE accounts AS a SET last_request_at = GREATEST(a.last_request_at, v.at)
        FROM (VALUES ${sql.csv(entries.map(([id, at]) => sql`(${id}, ${at.toISOString()}::timestamptz)`))}) AS v(id, at)
        WHERE a.id = v.id`.pipe(Effect.asVoid, Effect.orDie)

    /** The owner's newest account on a connector (what a session updates unless `multiple`). */
    const findOwnerAccountRow = SqlSchema.findOne({
      Request: Schema.Struct({ projectId: Schema.String, ownerId: Schema.String, connectorKey: Schema.String }),
      Result: AccountRow,
      execute: ({ connectorKey, ownerId, projectId }) =>
        sql`
          SELECT ${columns} FROM accounts
          WHERE project_id = ${projectId} AND owner_id = ${ownerId} AND connector_key = ${connectorKey}
          ORDER BY created_at DESC, id DESC LIMIT 1`
    })

    const RelinkChanges = Schema.Struct({
      ...scoped.fields,
      ...AccountRow.pick(
        "owner_name",
        "owner_username",
        "connector_version",
        "connector_profile_id",
        "settings",
        "label",
        "metadata",
        "connect_session_id",
        "auth_method"
      ).fields,
      ...SealedCredentials.fields
    })
    /**
     * New credentials for an existing account, linked by an end user: active again, a new
     * credentials version (a refresh still holding the old one cannot overwrite them).
     */
    const relinkRow = SqlSchema.findOne({
      Request: RelinkChanges,
      Result: AccountRow,
      execute: (changes) =>
        sql`
          UPDATE accounts SET
            owner_name = COALESCE(${changes.owner_name}, owner_name),
            owner_username = COALESCE(${changes.owner_username}, owner_username),
            connector_version = ${changes.connector_version},
            connector_profile_id = ${changes.connector_profile_id},
            settings = ${JSON.stringify(changes.settings)}::jsonb,
            label = COALESCE(${changes.label}, label),
            metadata = COALESCE(${changes.metadata === null ? null : JSON.stringify(changes.metadata)}::jsonb, metadata),
            linked_via = 'connect_session',
            connect_session_id = ${changes.connect_session_id},
            auth_method = ${changes.auth_method},
            credentials_ciphertext = ${changes.credentials_ciphertext},
            credentials_key_id = ${changes.credentials_key_id},
            credentials_version = credentials_version + 1,
            refresh_lease_holder = NULL,
            refresh_lease_until = NULL,
            status = 'active',
            status_reasons = '[]'::jsonb,
            connected_at = now(),
            updated_at = now()
          WHERE project_id = ${changes.projectId} AND id = ${changes.id}
          RETURNING ${columns}`
    })

    // A row that does not decode is a fault of the store, like a failed query: both are defects.
    return {
      findOwnerAccount: (projectId: string, ownerId: string, connectorKey: string) =>
        findOwnerAccountRow({ projectId, ownerId, connectorKey }).pipe(Effect.orDie),
      relink: (changes: typeof RelinkChanges.Type) => relinkRow(changes).pipe(Effect.orDie, Effect.zipLeft(epochs.changedHere)),
      insert: (row: NewAccountRow) => insert(row).pipe(Effect.orDie),
      list,
      find: (projectId: string, id: string) => findRow({ projectId, id }).pipe(Effect.orDie),
      /** An account with its sealed credentials, in one read, for calls that run against the provider. */
      findWithCredentials: (projectId: string, id: string) =>
        findRowWithCredentials({ projectId, id }).pipe(Effect.orDie),
      updateStatus: (
        projectId: string,
        id: string,
        changes: { readonly status?: AccountStatus; readonly status_reasons?: ReadonlyArray<StoredStatusReason> }
      ) => updateStatusRow({ ...changes, projectId, id }).pipe(Effect.orDie, Effect.zipLeft(epochs.changedHere)),
      remove: (projectId: string, id: string) =>
        removeRow({ projectId, id }).pipe(Effect.orDie, Effect.zipLeft(epochs.changedHere)),
      filterValues,
      recordLastRequests
    } as const
  }),
  dependencies: [CacheEpochs.Default]
}) {}
