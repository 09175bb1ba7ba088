import type { Account, AccountExpansion, Caller, CreateAccount, ListAccountsParams, PatchAccount } from "@switchyard/api"
import { DateTime, Effect, Option } from "effect"
import * as Crypto from "node:crypto"
import { CredentialCipher } from "../../platform/crypto/CredentialCipher.js"
import { pageEnvelope, pageWindow } from "../../platform/database/Pagination.js"
import { WebhookOutbox } from "../webhooks/WebhookOutbox.js"
import { accountView } from "./accountView.js"
import { AccountConnections, type AccountExpansions } from "./AccountConnections.js"
import { AccountNotFound, InvalidAccountRequest } from "./AccountErrors.js"
import { type AccountRow, AccountsRepo } from "./AccountsRepo.js"
import { LastRequestTracker } from "./LastRequestTracker.js"
import { linkMethod } from "./linkMethod.js"
import { checkUrlSettings } from "../connectorProfiles/urlSettings.js"

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

export class Accounts extends Effect.Service<Accounts>()("Switchyard/Accounts", {
  effect: Effect.gen(function*() {
    const repo = yield* AccountsRepo
    const cipher = yield* CredentialCipher
    const lastRequests = yield* LastRequestTracker
    const connections = yield* AccountConnections
    const outbox = yield* WebhookOutbox

    /** The change and its webhook event commit together (`WebhookOutbox`). */
    const withEvent = <A extends AccountRow | undefined, E>(
      change: Effect.Effect<A, E>,
      type: "account.created" | "account.updated" | "account.deleted",
      projectId: string
    ) =>
      Effect.gen(function*() {
        const row = yield* change
        if (row !== undefined) yield* outbox.record(projectId, type, accountView(row))
        return row
      }).pipe(outbox.transaction, Effect.catchTag("SqlError", Effect.die))

    const renderAll = (projectId: string, rows: ReadonlyArray<AccountRow>, expand: ReadonlyArray<AccountExpansion>) => {
      const expansions = connections.expander(projectId, expand)
      return Effect.forEach(rows, (row) => Effect.map(expansions(row), (expanded) => render(row, expand, expanded)))
    }

    const renderOne = (projectId: string, row: AccountRow, expand: ReadonlyArray<AccountExpansion>) =>
      Effect.map(renderAll(projectId, [row], expand), (accounts) => accounts[0]!)

    const render = (row: AccountRow, expand: ReadonlyArray<AccountExpansion>, expanded: AccountExpansions): Account => {
      const lastRequest = expand.includes("last_request") ? lastRequests.lastRequest(row.id, row.last_request_at) : null
      return {
        ...accountView(row),
        connector: expanded.connector,
        connector_profile: expanded.connector_profile,
        last_request: lastRequest === null ? null : lastRequest.toISOString(),
        actions: expanded.actions
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
        const window = pageWindow(params)
        const { rows, total } = yield* repo.list(caller.projectId, filters, window)
        const accounts = yield* renderAll(caller.projectId, rows, expand)
        return Option.isSome(window) ? pageEnvelope(window.value, accounts, total) : accounts
      })

    const filters = (caller: Caller) =>
      Effect.gen(function*() {
        const values = yield* repo.filterValues(caller.projectId)
        const titles = yield* connections.titles(caller.projectId, values.connectorKeys.map(({ value }) => value))
        return {
          connector_keys: values.connectorKeys.map(({ value }) => ({ value, label: titles.get(value) ?? value })),
          account_ids: values.accounts,
          owner_ids: values.owners,
          statuses: values.statuses.map(({ value }) => ({ value, label: statusLabels[value] }))
        }
      })

    const get = (caller: Caller, id: string, expand: ReadonlyArray<AccountExpansion>) =>
      repo.find(caller.projectId, id).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(new AccountNotFound({ accountId: id })),
          onSome: (row) => renderOne(caller.projectId, row, expand)
        }))
      )

    const patch = (caller: Caller, id: string, body: PatchAccount, expand: ReadonlyArray<AccountExpansion>) =>
      Effect.gen(function*() {
        if (body.status === undefined && body.status_reasons === undefined) {
          return yield* new InvalidAccountRequest({ message: "Provide status and/or status_reasons" })
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
        const row = yield* withEvent(
          Effect.map(repo.updateStatus(caller.projectId, id, changes), Option.getOrUndefined),
          "account.updated",
          caller.projectId
        )
        if (row === undefined) return yield* new AccountNotFound({ accountId: id })
        return yield* renderOne(caller.projectId, row, expand)
      })

    const remove = (caller: Caller, id: string) =>
      withEvent(Effect.map(repo.remove(caller.projectId, id), Option.getOrUndefined), "account.deleted", caller.projectId).pipe(
        Effect.flatMap((removed) => removed !== undefined ? Effect.void : Effect.fail(new AccountNotFound({ accountId: id })))
      )

    const create = (caller: Caller, body: CreateAccount) =>
      Effect.gen(function*() {
        if (Buffer.byteLength(JSON.stringify(body.credentials)) > MAX_CREDENTIALS_BYTES) {
          return yield* new InvalidAccountRequest({ message: `credentials must be at most ${MAX_CREDENTIALS_BYTES} bytes` })
        }
        if (body.settings !== undefined && Buffer.byteLength(JSON.stringify(body.settings)) > MAX_SETTINGS_BYTES) {
          return yield* new InvalidAccountRequest({ message: `settings must be at most ${MAX_SETTINGS_BYTES} bytes` })
        }
        yield* checkUrlSettings(body.settings)
        const link = yield* connections.resolveForLink(caller.projectId, body)
        const { methodName } = yield* linkMethod(
          yield* connections.load(link.version),
          `${link.version.key}@${link.version.version}`,
          body.auth_method,
          body.credentials
        )
        const sealed = cipher.seal(body.credentials)
        const row = yield* withEvent(repo.insert({
          id: Crypto.randomUUID(),
          project_id: caller.projectId,
          name: body.name,
          owner_id: body.owner_id,
          owner_name: body.owner_name ?? null,
          owner_username: body.owner_username ?? null,
          connector_key: body.connector_key,
          connector_version: link.version.version,
          connector_profile_id: link.profile?.id ?? null,
          settings: body.settings ?? {},
          label: null,
          metadata: null,
          linked_via: "api",
          connect_session_id: null,
          auth_method: methodName,
          credentials_ciphertext: sealed.ciphertext,
          credentials_key_id: sealed.keyId
        }), "account.created", caller.projectId)
        return render(row, [], { connector: null, connector_profile: null, actions: null })
      })

    return { list, filters, get, patch, remove, create } as const
  }),
  dependencies: [
    AccountsRepo.Default,
    CredentialCipher.Default,
    LastRequestTracker.Default,
    AccountConnections.Default,
    WebhookOutbox.Default
  ]
}) {}
