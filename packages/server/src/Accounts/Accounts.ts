import {
  type Account,
  type AccountExpansion,
  type Caller,
  type CreateAccount,
  DEFAULT_PAGE_SIZE,
  type ListAccountsParams,
  NotFound,
  type PatchAccount,
  UnprocessableEntity
} from "@switchyard/api"
import { DateTime, Effect, Option } from "effect"
import * as Crypto from "node:crypto"
import { CredentialCipher } from "../Crypto/CredentialCipher.js"
import { type AccountRow, AccountsRepo } from "./AccountsRepo.js"
import { LastRequestTracker } from "./LastRequestTracker.js"

const MAX_CREDENTIALS_BYTES = 64 * 1024
const MAX_SETTINGS_BYTES = 64 * 1024

const statusLabels: Record<Account["status"], string> = {
  active: "Active",
  inactive: "Inactive",
  error: "Error",
  suspended: "Suspended",
  expired: "Expired",
  disabled: "Disabled"
}

const notFound = (id: string) => new NotFound({ message: `Account ${id} not found` })

export class Accounts extends Effect.Service<Accounts>()("Switchyard/Accounts", {
  effect: Effect.gen(function*() {
    const repo = yield* AccountsRepo
    const cipher = yield* CredentialCipher
    const lastRequests = yield* LastRequestTracker

    const render = (row: AccountRow, expand: ReadonlyArray<AccountExpansion>): Account => {
      const lastRequest = expand.includes("last_request") ? lastRequests.lastRequest(row.id, row.last_request_at) : null
      return {
        id: row.id,
        name: row.name,
        owner_id: row.owner_id,
        owner_name: row.owner_name,
        owner_username: row.owner_username,
        connector_key: row.connector_key,
        connector_version: row.connector_version,
        connector_profile_id: row.connector_profile_id,
        status: row.status,
        status_reasons: row.status_reasons,
        settings: row.settings,
        connected_at: row.connected_at.toISOString(),
        created_at: row.created_at.toISOString(),
        updated_at: row.updated_at.toISOString(),
        // The connector registry and profiles arrive with the connectors feature; until then
        // an account has no connector record, profile or action catalog to expand.
        connector: null,
        connector_profile: null,
        last_request: lastRequest === null ? null : lastRequest.toISOString(),
        actions: null
      }
    }

    const list = (caller: Caller, params: ListAccountsParams) =>
      Effect.gen(function*() {
        const filters = {
          accountIds: params.account_id ?? [],
          connectorKeys: params.connector_key ?? [],
          statuses: params.status ?? [],
          ownerIds: params.owner_id ?? [],
          connectorProfileIds: params.connector_profile_id ?? [],
          search: params.search?.trim()
        }
        const expand = params.expand ?? []
        // `capability` narrows by per-user permissions; API-key callers have none, so it has no effect.
        if (params.page === undefined && params.page_size === undefined) {
          const { rows } = yield* repo.list(caller.projectId, filters, Option.none())
          return rows.map((row) => render(row, expand))
        }
        const page = params.page ?? 1
        const pageSize = params.page_size ?? DEFAULT_PAGE_SIZE
        const { rows, total } = yield* repo.list(
          caller.projectId,
          filters,
          Option.some({ offset: (page - 1) * pageSize, limit: pageSize })
        )
        return {
          data: rows.map((row) => render(row, expand)),
          page,
          page_size: pageSize,
          total,
          next_page: page * pageSize < total ? page + 1 : null
        }
      })

    const filters = (caller: Caller) =>
      repo.filterValues(caller.projectId).pipe(
        Effect.map((values) => ({
          connector_keys: values.connectorKeys.map(({ value }) => ({ value, label: value })),
          account_ids: values.accounts,
          owner_ids: values.owners,
          statuses: values.statuses.map(({ value }) => ({ value, label: statusLabels[value] }))
        }))
      )

    const get = (caller: Caller, id: string, expand: ReadonlyArray<AccountExpansion>) =>
      repo.find(caller.projectId, id).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(notFound(id)),
          onSome: (row) => Effect.succeed(render(row, expand))
        }))
      )

    const patch = (caller: Caller, id: string, body: PatchAccount, expand: ReadonlyArray<AccountExpansion>) =>
      Effect.gen(function*() {
        if (body.status === undefined && body.status_reasons === undefined) {
          return yield* new UnprocessableEntity({ message: "Provide status and/or status_reasons" })
        }
        const now = new Date().toISOString()
        const changes = {
          ...(body.status === undefined ? {} : { status: body.status }),
          ...(body.status_reasons === undefined ? {} : {
            status_reasons: body.status_reasons.map((reason) => ({
              code: reason.code,
              description: reason.description,
              timestamp: reason.timestamp === undefined ? now : DateTime.formatIso(reason.timestamp)
            }))
          })
        }
        const row = yield* repo.updateStatus(caller.projectId, id, changes)
        if (Option.isNone(row)) return yield* notFound(id)
        return render(row.value, expand)
      })

    const remove = (caller: Caller, id: string) =>
      repo.remove(caller.projectId, id).pipe(
        Effect.flatMap((removed) => removed ? Effect.void : Effect.fail(notFound(id)))
      )

    const create = (caller: Caller, body: CreateAccount) =>
      Effect.gen(function*() {
        if (Buffer.byteLength(JSON.stringify(body.credentials)) > MAX_CREDENTIALS_BYTES) {
          return yield* new UnprocessableEntity({ message: `credentials must be at most ${MAX_CREDENTIALS_BYTES} bytes` })
        }
        if (body.settings !== undefined && Buffer.byteLength(JSON.stringify(body.settings)) > MAX_SETTINGS_BYTES) {
          return yield* new UnprocessableEntity({ message: `settings must be at most ${MAX_SETTINGS_BYTES} bytes` })
        }
        if (body.connector_profile_id !== undefined) {
          // No connector profile exists before the profiles feature; any id is unknown here.
          return yield* new UnprocessableEntity({
            message: `connector_profile_id ${body.connector_profile_id} is not a connector profile of this project`
          })
        }
        const sealed = cipher.seal(body.credentials)
        const row = yield* repo.insert({
          id: Crypto.randomUUID(),
          project_id: caller.projectId,
          name: body.name,
          owner_id: body.owner_id,
          owner_name: body.owner_name ?? null,
          owner_username: body.owner_username ?? null,
          connector_key: body.connector_key,
          connector_version: body.connector_version ?? null,
          connector_profile_id: null,
          settings: body.settings ?? {},
          credentials_ciphertext: sealed.ciphertext,
          credentials_key_id: sealed.keyId
        })
        return render(row, [])
      })

    return { list, filters, get, patch, remove, create } as const
  }),
  dependencies: [AccountsRepo.Default, CredentialCipher.Default, LastRequestTracker.Default]
}) {}
