import { SqlClient, SqlSchema } from "@effect/sql"
import { StatusReason } from "@switchyard/api"
import { Effect, Option, Schema } from "effect"
import { AccountsRepo } from "./AccountsRepo.js"
import { accountView } from "./accountView.js"
import { CacheEpochs } from "../../platform/cache/CacheEpochs.js"
import { WebhookOutbox } from "../webhooks/WebhookOutbox.js"

/** An account's stored credentials as a refresh sees them: sealed, with their version and lease. */
export const StoredCredentials = Schema.Struct({
  credentials_ciphertext: Schema.String,
  credentials_key_id: Schema.String,
  /** Counts credential writes: a refresh writes only over the version it refreshed. */
  credentials_version: Schema.Number,
  status: Schema.String,
  status_reasons: Schema.Array(StatusReason),
  /** Whether a refresh lease is held now (by the database's clock). */
  leased: Schema.Boolean
})
export type StoredCredentials = typeof StoredCredentials.Type

const AccountKey = Schema.Struct({ projectId: Schema.String, accountId: Schema.String })
export type AccountKey = typeof AccountKey.Type

/**
 * The row lease that lets one process at a time refresh an account's OAuth2 tokens. Every
 * write names the credentials version its caller saw, and the writes after the provider
 * call also the lease holder: a lease that expired and was taken over writes nothing.
 */
export class RefreshLeaseRepo extends Effect.Service<RefreshLeaseRepo>()("Switchyard/RefreshLeaseRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const epochs = yield* CacheEpochs
    const accounts = yield* AccountsRepo
    const outbox = yield* WebhookOutbox

    const findStored = SqlSchema.findOne({
      Request: AccountKey,
      Result: StoredCredentials,
      execute: ({ accountId, projectId }) =>
        sql`
          SELECT credentials_ciphertext, credentials_key_id, credentials_version, status, status_reasons,
                 COALESCE(refresh_lease_until > now(), false) AS leased
          FROM accounts WHERE project_id = ${projectId} AND id = ${accountId}`
    })

    /**
     * The lease over `version` for `leaseSeconds`, if nobody holds one, the version is still
     * current and the account may still be used.
     */
    const take = (account: AccountKey, version: number, holder: string, leaseSeconds: number) =>
      sql`
        UPDATE accounts
        SET refresh_lease_holder = ${holder}, refresh_lease_until = now() + make_interval(secs => ${leaseSeconds})
        WHERE project_id = ${account.projectId} AND id = ${account.accountId} AND credentials_version = ${version}
          AND status NOT IN ('suspended', 'expired', 'disabled')
          AND (refresh_lease_until IS NULL OR refresh_lease_until < now())
        RETURNING id`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie)

    const leaseHeldBy = (account: AccountKey, version: number, holder: string) =>
      sql`project_id = ${account.projectId} AND id = ${account.accountId}
          AND credentials_version = ${version} AND refresh_lease_holder = ${holder}`

    /** The refreshed credentials, as the next version, releasing the lease; false when the lease was lost. */
    const writeRefreshed = (
      account: AccountKey,
      version: number,
      holder: string,
      sealed: { readonly ciphertext: string; readonly keyId: string }
    ) =>
      sql`
        UPDATE accounts
        SET credentials_ciphertext = ${sealed.ciphertext}, credentials_key_id = ${sealed.keyId},
            credentials_version = credentials_version + 1,
            refresh_lease_holder = NULL, refresh_lease_until = NULL
        WHERE ${leaseHeldBy(account, version, holder)}
        RETURNING id`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie)

    /**
     * The grant is gone: the account is `expired` for `reason`, and the lease released, in one
     * statement; its `account.updated` event is written in the same transaction.
     */
    const expire = (account: AccountKey, version: number, holder: string, reason: typeof StatusReason.Type) =>
      Effect.gen(function*() {
        const rows = yield* sql`
          UPDATE accounts
          SET status = 'expired', status_reasons = ${JSON.stringify([reason])}::jsonb, updated_at = now(),
              refresh_lease_holder = NULL, refresh_lease_until = NULL
          WHERE ${leaseHeldBy(account, version, holder)}
          RETURNING id`
        if (rows.length === 0) return false
        const expired = yield* accounts.find(account.projectId, account.accountId)
        if (Option.isSome(expired)) yield* outbox.record(account.projectId, "account.updated", accountView(expired.value))
        return true
      }).pipe(outbox.transaction, Effect.orDie)

    /** Gives the lease up without a new version (the refresh failed); a lease taken over is left alone. */
    const release = (account: AccountKey, holder: string) =>
      sql`
        UPDATE accounts SET refresh_lease_holder = NULL, refresh_lease_until = NULL
        WHERE project_id = ${account.projectId} AND id = ${account.accountId} AND refresh_lease_holder = ${holder}`
        .pipe(Effect.asVoid, Effect.orDie)

    // A row that does not decode is a fault of the store, like a failed query: both are defects.
    return {
      find: (account: AccountKey) => findStored(account).pipe(Effect.orDie),
      take,
      writeRefreshed: (...args: Parameters<typeof writeRefreshed>) => Effect.zipLeft(writeRefreshed(...args), epochs.changedHere),
      expire: (...args: Parameters<typeof expire>) => Effect.zipLeft(expire(...args), epochs.changedHere),
      release
    } as const
  }),
  dependencies: [CacheEpochs.Default, AccountsRepo.Default, WebhookOutbox.Default]
}) {}
