import { Effect, Option } from "effect"
import type { ConnectorProfiles } from "../connectorProfiles/ConnectorProfiles.js"
import type { ProfileRow } from "../connectorProfiles/ProfilesRepo.js"
import type { ConnectorRegistry, VisibleVersion } from "../connectors/ConnectorRegistry.js"
import { AccountConnectorGone } from "./AccountErrors.js"
import type { AccountRow } from "./AccountsRepo.js"

/**
 * The connector version an account runs: its profile's version spec when it has a profile
 * (so a profile moved to a new version moves its accounts), else the version it was linked
 * with. Nothing matching any more is `AccountConnectorGone`.
 */
export const accountVersion = (
  services: { readonly registry: ConnectorRegistry; readonly profiles: ConnectorProfiles },
  projectId: string,
  account: Pick<AccountRow, "id" | "connector_key" | "connector_version">,
  profile: ProfileRow | undefined
): Effect.Effect<VisibleVersion, AccountConnectorGone> =>
  Effect.gen(function*() {
    const version = profile === undefined
      ? yield* Effect.option(services.registry.resolve(projectId, {
        key: account.connector_key,
        version: account.connector_version ?? undefined,
        owner: undefined
      }))
      : yield* services.profiles.resolveProfile(projectId, profile)
    if (Option.isNone(version)) {
      return yield* new AccountConnectorGone({
        accountId: account.id,
        connectorKey: account.connector_key,
        connectorVersion: account.connector_version
      })
    }
    return version.value
  })
