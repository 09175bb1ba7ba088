import { NotFound, PreconditionFailed } from "@switchyard/api"
import type { ParsedConnector } from "@switchyard/engine"
import { Effect, Option } from "effect"
import { type AccountRow, AccountsRepo } from "../Accounts/AccountsRepo.js"
import { ConnectorProfiles } from "../ConnectorProfiles/ConnectorProfiles.js"
import type { ProfileRow } from "../ConnectorProfiles/ProfilesRepo.js"
import { ConnectorRegistry, type VisibleVersion } from "../Connectors/ConnectorRegistry.js"
import { CredentialCipher } from "../Crypto/CredentialCipher.js"

/** Everything an account-scoped call needs: the account, its connector version and credentials. */
export interface AccountContext {
  readonly account: AccountRow
  readonly profile: ProfileRow | undefined
  readonly version: VisibleVersion
  readonly connector: ParsedConnector
  readonly credentials: Record<string, unknown>
}

const blockedStatuses = new Set(["suspended", "expired", "disabled"])

/**
 * Resolves `x-account-id` for account-scoped calls (RPC, unified, MCP): 404 for an account
 * the project does not have, 412 for a suspended, expired or disabled account or one whose
 * profile (integration) is disabled.
 */
export class AccountContexts extends Effect.Service<AccountContexts>()("Switchyard/AccountContexts", {
  effect: Effect.gen(function*() {
    const accounts = yield* AccountsRepo
    const profiles = yield* ConnectorProfiles
    const registry = yield* ConnectorRegistry
    const cipher = yield* CredentialCipher

    const resolve = (projectId: string, accountId: string) =>
      Effect.gen(function*() {
        const found = yield* accounts.findWithCredentials(projectId, accountId)
        if (Option.isNone(found)) return yield* new NotFound({ message: `Account ${accountId} not found` })
        // The sealed credentials stay here; the context carries only their opened form.
        const { credentials_ciphertext, credentials_key_id, ...account } = found.value
        if (blockedStatuses.has(account.status)) {
          return yield* new PreconditionFailed({ message: `Account ${accountId} is ${account.status}` })
        }
        const profile = account.connector_profile_id === null
          ? undefined
          : Option.getOrUndefined(yield* Effect.option(profiles.find(projectId, account.connector_profile_id)))
        if (profile !== undefined && !profile.active) {
          return yield* new PreconditionFailed({
            message: `Account ${accountId} belongs to a disabled integration (connector profile ${profile.id})`
          })
        }
        const version = profile === undefined
          ? yield* Effect.option(registry.resolve(projectId, {
            key: account.connector_key,
            version: account.connector_version ?? undefined,
            owner: undefined
          }))
          : yield* profiles.resolveProfile(projectId, profile)
        if (Option.isNone(version)) {
          return yield* new PreconditionFailed({
            message: `Account ${accountId} has no connector version to run (${account.connector_key}${
              account.connector_version === null ? "" : `@${account.connector_version}`
            } is gone)`
          })
        }
        const connector = yield* registry.load(version.value)
        const credentials = yield* cipher.open({
          keyId: credentials_key_id,
          ciphertext: credentials_ciphertext
        }).pipe(Effect.orDie)
        return {
          account,
          profile,
          version: version.value,
          connector,
          credentials: (credentials ?? {}) as Record<string, unknown>
        } satisfies AccountContext
      })

    return { resolve } as const
  }),
  dependencies: [AccountsRepo.Default, ConnectorProfiles.Default, ConnectorRegistry.Default, CredentialCipher.Default]
}) {}
