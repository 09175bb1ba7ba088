import type { AccountAction, AccountConnector, AccountConnectorProfile, AccountExpansion } from "@switchyard/api"
import { newestFirst } from "@switchyard/engine"
import { Effect, Option } from "effect"
import { ConnectorProfiles } from "../connectorProfiles/ConnectorProfiles.js"
import type { ProfileRow } from "../connectorProfiles/ProfilesRepo.js"
import { ConnectorRegistry, type VisibleVersion } from "../connectors/ConnectorRegistry.js"
import { InvalidAccountRequest } from "./AccountErrors.js"
import type { AccountRow } from "./AccountsRepo.js"

export interface AccountExpansions {
  readonly connector: AccountConnector | null
  readonly connector_profile: AccountConnectorProfile | null
  readonly actions: ReadonlyArray<AccountAction> | null
}

const none: AccountExpansions = { connector: null, connector_profile: null, actions: null }

/**
 * Which connector version an account uses — through its profile when it has one, else the
 * version it was linked with — and the expansions that follow from it.
 */
export class AccountConnections extends Effect.Service<AccountConnections>()("Switchyard/AccountConnections", {
  effect: Effect.gen(function*() {
    const registry = yield* ConnectorRegistry
    const profiles = yield* ConnectorProfiles

    /** Resolves what a new account links to; every failure names the field. */
    const resolveForLink = (
      projectId: string,
      body: { readonly connector_key: string; readonly connector_version?: string | undefined; readonly connector_profile_id?: string | undefined }
    ) =>
      Effect.gen(function*() {
        if (body.connector_profile_id !== undefined) {
          const profile = yield* profiles.find(projectId, body.connector_profile_id).pipe(
            Effect.mapError(() =>
              new InvalidAccountRequest({
                message: `connector_profile_id ${body.connector_profile_id} is not a connector profile of this project`
              })
            )
          )
          if (profile.connector_key !== body.connector_key) {
            return yield* new InvalidAccountRequest({
              message: `connector_profile_id ${profile.id} is for connector ${profile.connector_key}, not ${body.connector_key}`
            })
          }
          const version = yield* profiles.resolveProfile(projectId, profile)
          if (Option.isNone(version)) {
            return yield* new InvalidAccountRequest({
              message: `connector profile ${profile.id} (${profile.version_spec}) resolves to no version of ${profile.connector_key}`
            })
          }
          if (body.connector_version !== undefined && body.connector_version !== version.value.version) {
            return yield* new InvalidAccountRequest({
              message: `connector_version ${body.connector_version} differs from ${version.value.version}, the version of connector profile ${profile.id}`
            })
          }
          return { version: version.value, profile }
        }
        const version = yield* registry.resolve(projectId, {
          key: body.connector_key,
          version: body.connector_version,
          owner: undefined
        }).pipe(
          Effect.mapError(() =>
            new InvalidAccountRequest({
              message: body.connector_version === undefined
                ? `connector_key ${body.connector_key} is not a connector available to this project`
                : `connector ${body.connector_key}@${body.connector_version} does not exist`
            })
          )
        )
        return { version, profile: undefined }
      })

    /**
     * An expander for one request: resolutions are shared between the accounts it renders,
     * so a page of accounts on one connector resolves it once.
     */
    const expander = (projectId: string, expand: ReadonlyArray<AccountExpansion>) => {
      const profileCache = new Map<string, Option.Option<ProfileRow>>()
      const versionCache = new Map<string, Option.Option<VisibleVersion>>()
      const wantsConnector = expand.includes("connector") || expand.includes("actions")

      const profileOf = (id: string) =>
        Effect.gen(function*() {
          const cached = profileCache.get(id)
          if (cached !== undefined) return cached
          const found = yield* Effect.option(profiles.find(projectId, id))
          profileCache.set(id, found)
          return found
        })

      const versionOf = (row: AccountRow, profile: Option.Option<ProfileRow>) =>
        Effect.gen(function*() {
          const cacheKey = Option.match(profile, {
            onNone: () => `${row.connector_key}@${row.connector_version ?? "latest"}`,
            onSome: (p) => `profile:${p.id}`
          })
          const cached = versionCache.get(cacheKey)
          if (cached !== undefined) return cached
          const found = Option.isSome(profile)
            ? yield* profiles.resolveProfile(projectId, profile.value)
            : yield* Effect.option(registry.resolve(projectId, {
              key: row.connector_key,
              version: row.connector_version ?? undefined,
              owner: undefined
            }))
          versionCache.set(cacheKey, found)
          return found
        })

      return (row: AccountRow): Effect.Effect<AccountExpansions> =>
        Effect.gen(function*() {
          if (expand.length === 0) return none
          const profile = row.connector_profile_id === null ? Option.none() : yield* profileOf(row.connector_profile_id)
          const version = wantsConnector ? yield* versionOf(row, profile) : Option.none<VisibleVersion>()
          const connector = Option.isSome(version) && expand.includes("actions")
            ? Option.some(yield* registry.load(version.value))
            : Option.none()
          const enabled = Option.map(profile, (p) => new Set(p.enabled_actions))
          return {
            connector: expand.includes("connector") && Option.isSome(version)
              ? {
                key: version.value.key,
                version: version.value.version,
                title: version.value.title,
                description: version.value.description
              }
              : null,
            connector_profile: expand.includes("connector_profile") && Option.isSome(profile)
              ? { id: profile.value.id, label: profile.value.label }
              : null,
            actions: Option.isSome(connector)
              ? connector.value.definition.actions.map((action) => ({
                id: action.actionId,
                label: action.label,
                description: action.description ?? null,
                enabled: Option.match(enabled, { onNone: () => true, onSome: (set) => set.has(action.actionId) })
              }))
              : null
          }
        })
    }

    /** Display titles of connector keys (the latest version's, custom before built-in). */
    const titles = (projectId: string, keys: ReadonlyArray<string>) =>
      Effect.map(registry.visible(projectId, keys), (rows) => {
        const byKey = new Map<string, string>()
        for (const row of newestFirst(rows.filter((r) => r.owner === "builtin"))) if (!byKey.has(row.key)) byKey.set(row.key, row.title)
        const custom = new Set<string>()
        for (const row of newestFirst(rows.filter((r) => r.owner === "custom"))) {
          if (!custom.has(row.key)) byKey.set(row.key, row.title)
          custom.add(row.key)
        }
        return byKey
      })

    return { resolveForLink, load: registry.load, expander, titles } as const
  }),
  dependencies: [ConnectorRegistry.Default, ConnectorProfiles.Default]
}) {}
