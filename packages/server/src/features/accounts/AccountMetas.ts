import type { AccountMeta, AccountMetaOperation } from "@switchyard/api"
import { Effect, Option } from "effect"
import { accountVersion } from "./accountVersion.js"
import { ConnectorProfiles } from "../connectorProfiles/ConnectorProfiles.js"
import { ConnectorRegistry } from "../connectors/ConnectorRegistry.js"
import { unifiedOperations } from "../connectors/unifiedOperations.js"
import { AccountNotFound } from "./AccountErrors.js"
import { AccountsRepo } from "./AccountsRepo.js"

/**
 * `GET /v2/accounts/{id}/meta`: what an account of the caller's project can serve. A
 * management call, so it answers for suspended accounts and disabled integrations too; it
 * resolves the connector version as account-scoped calls do (the profile's version spec
 * when the account has a profile, else the version it was linked with).
 */
export class AccountMetas extends Effect.Service<AccountMetas>()("Switchyard/AccountMetas", {
  effect: Effect.gen(function*() {
    const accounts = yield* AccountsRepo
    const profiles = yield* ConnectorProfiles
    const registry = yield* ConnectorRegistry

    const meta = (projectId: string, accountId: string) =>
      Effect.gen(function*() {
        const found = yield* accounts.find(projectId, accountId)
        if (Option.isNone(found)) return yield* new AccountNotFound({ accountId })
        const account = found.value
        const profile = account.connector_profile_id === null
          ? undefined
          : Option.getOrUndefined(yield* Effect.option(profiles.find(projectId, account.connector_profile_id)))
        const version = yield* accountVersion({ registry, profiles }, projectId, account, profile)
        const { definition } = yield* registry.load(version)
        const implemented = new Set(definition.actions.map((action) => action.actionId))
        // without a profile every action of the version runs (as `expand=actions` shows them)
        const enabled = profile === undefined ? implemented : new Set(profile.enabled_actions)
        const served = unifiedOperations.filter((operation) =>
          implemented.has(operation.actionId) && enabled.has(operation.actionId)
        )
        const models: Record<string, { category: string; operations: Array<AccountMetaOperation> }> = {}
        const operations = served.map((operation) => {
          const entry = { id: operation.actionId, method: operation.method, path: operation.path }
          const model = (models[`${operation.category}_${operation.model}`] ??= { category: operation.category, operations: [] })
          model.operations.push(entry)
          return entry
        })
        const categories = definition.info.categories ?? []
        return {
          provider: version.key,
          provider_name: version.title,
          connector: { key: version.key, version: version.version },
          category: categories[0] ?? null,
          categories,
          models,
          operations
        } satisfies AccountMeta
      }).pipe(Effect.withSpan("AccountMetas.meta", {
        captureStackTrace: false,
        attributes: { "switchyard.project.id": projectId, "switchyard.account.id": accountId }
      }))

    return { meta } as const
  }),
  dependencies: [AccountsRepo.Default, ConnectorProfiles.Default, ConnectorRegistry.Default]
}) {}
