import type { ParsedConnector } from "@switchyard/engine"
import { Effect, Option } from "effect"
import { accountVersion } from "./accountVersion.js"
import {
  AccountBlocked,
  type AccountContextError,
  AccountIntegrationDisabled,
  AccountNotFound
} from "./AccountErrors.js"
import { AccountCredentials, type AccountRow, AccountsRepo } from "./AccountsRepo.js"
import { CacheEpochs } from "../../platform/cache/CacheEpochs.js"
import { ConnectorProfiles } from "../connectorProfiles/ConnectorProfiles.js"
import type { ProfileRow } from "../connectorProfiles/ProfilesRepo.js"
import { ConnectorRegistry, type VisibleVersion } from "../connectors/ConnectorRegistry.js"
import { CredentialCipher } from "../../platform/crypto/CredentialCipher.js"
import { AccountGrantRevoked, GRANT_REVOKED_REASON } from "./TokenRefreshErrors.js"
import { ProjectsRepo } from "../projects/ProjectsRepo.js"

/** Everything an account-scoped call needs: the account, its connector version and credentials. */
export interface AccountContext {
  readonly account: AccountRow
  readonly profile: ProfileRow | undefined
  readonly version: VisibleVersion
  readonly connector: ParsedConnector
  readonly credentials: Record<string, unknown>
  /** The project keeps provider bodies in its request log (`projects request-log-bodies`). */
  readonly requestLogBodies: boolean
}

const blockedStatuses = new Set(["suspended", "expired", "disabled"])

/**
 * Why account-scoped calls refuse an account in `status`, if they do; an account expired
 * because its OAuth2 grant was refused says so, and how to link it again.
 */
export const accountBlocked = (
  accountId: string,
  status: string,
  reasons: AccountRow["status_reasons"]
): AccountBlocked | undefined => {
  if (!blockedStatuses.has(status)) return undefined
  const revoked = status === "expired" ? reasons.find((reason) => reason.code === GRANT_REVOKED_REASON) : undefined
  return revoked === undefined
    ? new AccountBlocked({ accountId, status })
    : new AccountGrantRevoked({ accountId, reason: revoked.description })
}

/** Account contexts kept per process; each is small (the parsed connector is shared). */
const CONTEXT_CACHE_CAPACITY = 10_000

/**
 * Resolves `x-account-id` for account-scoped calls (RPC, unified, MCP): refuses an account
 * the project does not have, a suspended, expired or disabled one, one whose profile
 * (integration) is disabled, and one whose connector version is gone. A resolved context is
 * kept in memory until its account, profile, connector versions, project or key change in
 * any process (see `CacheEpochs`); refusals are never kept.
 */
export class AccountContexts extends Effect.Service<AccountContexts>()("Switchyard/AccountContexts", {
  effect: Effect.gen(function*() {
    const accounts = yield* AccountsRepo
    const profiles = yield* ConnectorProfiles
    const registry = yield* ConnectorRegistry
    const cipher = yield* CredentialCipher
    const projects = yield* ProjectsRepo
    const resolved = (yield* CacheEpochs).make<string, AccountContext>(CONTEXT_CACHE_CAPACITY)

    const read = (projectId: string, accountId: string): Effect.Effect<AccountContext, AccountContextError> =>
      Effect.gen(function*() {
        const found = yield* accounts.findWithCredentials(projectId, accountId)
        if (Option.isNone(found)) return yield* new AccountNotFound({ accountId })
        // The sealed credentials stay here; the context carries only their opened form.
        const { credentials_ciphertext, credentials_key_id, ...account } = found.value
        const blocked = accountBlocked(accountId, account.status, account.status_reasons)
        if (blocked !== undefined) return yield* blocked
        const profile = account.connector_profile_id === null
          ? undefined
          : Option.getOrUndefined(yield* Effect.option(profiles.find(projectId, account.connector_profile_id)))
        if (profile !== undefined && !profile.active) {
          return yield* new AccountIntegrationDisabled({ accountId, profileId: profile.id })
        }
        const version = yield* accountVersion({ registry, profiles }, projectId, account, profile)
        yield* Effect.annotateCurrentSpan({
          "switchyard.connector.key": version.key,
          "switchyard.connector.version": version.version
        })
        const connector = yield* registry.load(version)
        const credentials = yield* cipher.open(AccountCredentials, {
          keyId: credentials_key_id,
          ciphertext: credentials_ciphertext
        }).pipe(Effect.orDie)
        const project = yield* projects.findProject(projectId)
        return {
          account,
          profile,
          version: version,
          connector,
          credentials,
          requestLogBodies: Option.exists(project, (found) => found.request_log_bodies)
        } satisfies AccountContext
      }).pipe(Effect.withSpan("AccountContexts.resolve", {
        captureStackTrace: false,
        attributes: { "switchyard.project.id": projectId, "switchyard.account.id": accountId }
      }))

    const resolve = (projectId: string, accountId: string): Effect.Effect<AccountContext, AccountContextError> =>
      resolved.get(`${projectId}/${accountId}`, read(projectId, accountId))

    return { resolve } as const
  }),
  dependencies: [
    AccountsRepo.Default,
    ConnectorProfiles.Default,
    ConnectorRegistry.Default,
    CredentialCipher.Default,
    CacheEpochs.Default,
    ProjectsRepo.Default
  ]
}) {}
