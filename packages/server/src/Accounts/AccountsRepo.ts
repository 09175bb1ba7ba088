import { SqlClient, type Statement } from "@effect/sql"
import type { AccountStatus } from "@switchyard/api"
import { Effect, Option } from "effect"

export interface StoredStatusReason {
  readonly code: string
  readonly description: string
  readonly timestamp: string
}

/** An account row without its sealed credentials (those are read only when a call needs them). */
export interface AccountRow {
  readonly id: string
  readonly project_id: string
  readonly name: string
  readonly owner_id: string
  readonly owner_name: string | null
  readonly owner_username: string | null
  readonly connector_key: string
  readonly connector_version: string | null
  readonly connector_profile_id: string | null
  readonly status: AccountStatus
  readonly status_reasons: ReadonlyArray<StoredStatusReason>
  readonly settings: Record<string, unknown>
  readonly connected_at: Date
  readonly created_at: Date
  readonly updated_at: Date
  readonly last_request_at: Date | null
}

/** What a new account stores: the row's own fields plus its sealed credentials. */
export type NewAccountRow =
  & Omit<AccountRow, "status" | "status_reasons" | "connected_at" | "created_at" | "updated_at" | "last_request_at">
  & {
    readonly credentials_ciphertext: string
    readonly credentials_key_id: string
  }

export interface AccountFiltersQuery {
  readonly accountIds: ReadonlyArray<string>
  readonly connectorKeys: ReadonlyArray<string>
  readonly statuses: ReadonlyArray<string>
  readonly ownerIds: ReadonlyArray<string>
  readonly connectorProfileIds: ReadonlyArray<string>
  readonly search: string | undefined
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

export class AccountsRepo extends Effect.Service<AccountsRepo>()("Switchyard/AccountsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const columns = sql`
      id, project_id, name, owner_id, owner_name, owner_username, connector_key, connector_version,
      connector_profile_id::text AS connector_profile_id, status, status_reasons, settings,
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

    const insert = (row: NewAccountRow) =>
      sql<AccountRow>`INSERT INTO accounts ${sql.insert({ ...row, settings: JSON.stringify(row.settings) })}
        RETURNING ${columns}`.pipe(Effect.map((rows) => rows[0]!), Effect.orDie)

    const list = (
      projectId: string,
      filters: AccountFiltersQuery,
      window: Option.Option<{ readonly offset: number; readonly limit: number }>
    ) =>
      Effect.all([
        sql<AccountRow>`
          SELECT ${columns} FROM accounts WHERE ${where(projectId, filters)}
          ORDER BY created_at, id
          ${Option.isSome(window) ? sql`LIMIT ${window.value.limit} OFFSET ${window.value.offset}` : sql``}`,
        sql<{ total: number }>`SELECT count(*)::int AS total FROM accounts WHERE ${where(projectId, filters)}`
      ], { concurrency: 2 }).pipe(
        Effect.map(([rows, [count]]) => ({ rows, total: count?.total ?? 0 })),
        Effect.orDie
      )

    const find = (projectId: string, id: string) =>
      sql<AccountRow>`SELECT ${columns} FROM accounts WHERE project_id = ${projectId} AND id = ${id}`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0])),
        Effect.orDie
      )

    /** An account with its sealed credentials, in one read, for calls that run against the provider. */
    const findWithCredentials = (projectId: string, id: string) =>
      sql<AccountRow & { readonly credentials_ciphertext: string; readonly credentials_key_id: string }>`
        SELECT ${columns}, credentials_ciphertext, credentials_key_id FROM accounts
        WHERE project_id = ${projectId} AND id = ${id}`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0])),
        Effect.orDie
      )

    const updateStatus = (
      projectId: string,
      id: string,
      changes: { readonly status?: AccountStatus; readonly status_reasons?: ReadonlyArray<StoredStatusReason> }
    ) =>
      sql<AccountRow>`
        UPDATE accounts SET
          status = COALESCE(${changes.status ?? null}, status),
          status_reasons = COALESCE(${
        changes.status_reasons === undefined ? null : JSON.stringify(changes.status_reasons)
      }::jsonb, status_reasons),
          updated_at = now()
        WHERE project_id = ${projectId} AND id = ${id}
        RETURNING ${columns}`.pipe(Effect.map((rows) => Option.fromNullable(rows[0])), Effect.orDie)

    const remove = (projectId: string, id: string) =>
      sql<{ id: string }>`DELETE FROM accounts WHERE project_id = ${projectId} AND id = ${id} RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      )

    /** Distinct values for the filter pickers, one query per facet over the project's accounts. */
    const filterValues = (projectId: string) =>
      Effect.all({
        connectorKeys: sql<{ value: string }>`
          SELECT DISTINCT connector_key AS value FROM accounts WHERE project_id = ${projectId} ORDER BY 1`,
        accounts: sql<{ value: string; label: string }>`
          SELECT id AS value, name AS label FROM accounts WHERE project_id = ${projectId} ORDER BY name, id`,
        owners: sql<{ value: string; label: string }>`
          SELECT owner_id AS value, MIN(COALESCE(owner_name, owner_username, owner_id)) AS label
          FROM accounts WHERE project_id = ${projectId} GROUP BY owner_id ORDER BY 2, 1`,
        statuses: sql<{ value: AccountStatus }>`
          SELECT DISTINCT status AS value FROM accounts WHERE project_id = ${projectId} ORDER BY 1`
      }, { concurrency: 4 }).pipe(Effect.orDie)

    /** Raises each account's `last_request_at` to the given time (never lowers it). */
    const recordLastRequests = (entries: ReadonlyArray<readonly [accountId: string, at: Date]>) =>
      entries.length === 0 ? Effect.void : sql`
        UPDATE accounts AS a SET last_request_at = GREATEST(a.last_request_at, v.at)
        FROM (VALUES ${sql.csv(entries.map(([id, at]) => sql`(${id}, ${at.toISOString()}::timestamptz)`))}) AS v(id, at)
        WHERE a.id = v.id`.pipe(Effect.asVoid, Effect.orDie)

    return { insert, list, find, findWithCredentials, updateStatus, remove, filterValues, recordLastRequests } as const
  })
}) {}
