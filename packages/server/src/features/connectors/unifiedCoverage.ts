import { Api, unifiedOperationOf } from "@switchyard/api"
import { latestOfEach, type ParsedConnector } from "@switchyard/engine"
import { Effect, Option } from "effect"

/** Every unified operation's action id, as the api declares them. */
export const unifiedActionIds: ReadonlyArray<string> = Object.values(Api.groups).flatMap((group) =>
  Object.values(group.endpoints).flatMap((endpoint) =>
    Option.toArray(unifiedOperationOf(endpoint)).map((operation) => operation.actionId)
  )
)

// A unified action id starts with its category: `ats_...`, `hris_...`.
const categoryOf = (actionId: string) => actionId.slice(0, actionId.indexOf("_"))
const unifiedCategories = new Set(unifiedActionIds.map(categoryOf))

/** How the newest shipped version of a built-in connector covers the unified operations of its categories. */
export interface UnifiedCoverage {
  readonly key: string
  readonly version: string
  /** Unified operations of the connector's categories it has no action for: they answer 501. */
  readonly unimplemented: ReadonlyArray<string>
  /** Actions named like a unified operation of a unified category that no endpoint has: RPC only. */
  readonly withoutEndpoint: ReadonlyArray<string>
}

/** Coverage of the newest version of each connector among `definitions` (the built-ins as registered). */
export const builtinUnifiedCoverage = (
  definitions: ReadonlyArray<ParsedConnector["definition"]>
): ReadonlyArray<UnifiedCoverage> => {
  const newest = latestOfEach(definitions, ({ info }) => info)
  return [...newest].map(([key, { actions, info }]) => {
    const categories = info.categories ?? []
    const actionIds = actions.map((action) => action.actionId)
    return {
      key,
      version: info.version,
      unimplemented: unifiedActionIds.filter((id) => categories.includes(categoryOf(id)) && !actionIds.includes(id)),
      withoutEndpoint: actionIds.filter((id) => unifiedCategories.has(categoryOf(id)) && !unifiedActionIds.includes(id))
    }
  })
}

/** At start, names the built-in actions that look unified but that no unified endpoint runs. */
export const logBuiltinUnifiedCoverage = (definitions: ReadonlyArray<ParsedConnector["definition"]>) =>
  Effect.forEach(builtinUnifiedCoverage(definitions), (connector) =>
    connector.withoutEndpoint.length === 0
      ? Effect.void
      : Effect.logInfo(
        `built-in connector ${connector.key} ${connector.version}: no unified endpoint runs ${
          connector.withoutEndpoint.join(", ")
        } (reachable through /actions/rpc only)`
      ), { discard: true })
