import type {
  ActionDetailParams,
  Caller,
  Connector,
  ConnectorActionDetail,
  ConnectorExpansion,
  CreateConnector,
  GetConnectorParams,
  ListConnectorsParams
} from "@switchyard/api"
import { type ActionDefinition, latestOf, newestFirst, type ParsedConnector, resolveSpec } from "@switchyard/engine"
import { Effect, Option } from "effect"
import { ConnectorProfileNotFound } from "../connectorProfiles/ConnectorProfileErrors.js"
import { ProfilesRepo } from "../connectorProfiles/ProfilesRepo.js"
import { pageEnvelope, pageWindow } from "../../platform/database/Pagination.js"
import {
  ActionNotFound,
  BuiltinConnectorReadOnly,
  ConnectorNotFound,
  ConnectorPinnedByAccounts,
  ConnectorUsedByProfiles,
  InvalidConnectorQuery
} from "../connectors/ConnectorErrors.js"
import { formatConnectorId, parseConnectorId, parseExactConnectorId } from "../connectors/ConnectorId.js"
import { categoriesOf, ConnectorRegistry, type VisibleVersion } from "../connectors/ConnectorRegistry.js"
import { ConnectorsRepo } from "../connectors/ConnectorsRepo.js"
import {
  actionSummary,
  authenticationMethods,
  eventActionsOf,
  scopeDefinitions,
  verificationView,
  versionView
} from "../connectors/ConnectorView.js"
import { McpConnectors } from "../connectors/McpConnectors.js"

interface Usage {
  readonly accounts: number
  readonly profiles: number
}

export class Connectors extends Effect.Service<Connectors>()("Switchyard/Connectors", {
  effect: Effect.gen(function*() {
    const registry = yield* ConnectorRegistry
    const repo = yield* ConnectorsRepo
    const profiles = yield* ProfilesRepo
    const mcp = yield* McpConnectors

    const render = (
      version: VisibleVersion,
      connector: ParsedConnector,
      options: {
        readonly expand: ReadonlyArray<ConnectorExpansion>
        readonly siblings?: ReadonlyArray<VisibleVersion>
        readonly usage?: Usage
        readonly enabledActions?: ReadonlySet<string>
      }
    ): Connector => {
      const { expand, enabledActions } = options
      const sameOwner = (options.siblings ?? []).filter((row) => row.owner === version.owner)
      const actions = connector.definition.actions
      const enabled = (action: ActionDefinition) => enabledActions === undefined ? null : enabledActions.has(action.actionId)
      const summaries = actions.map((action) => actionSummary(action, enabled(action)))
      if (enabledActions !== undefined) summaries.sort((a, b) => Number(b.enabled) - Number(a.enabled))
      return {
        id: formatConnectorId(version.key, version.version, version.owner),
        key: version.key,
        version: version.version,
        owner: version.owner,
        title: version.title,
        description: version.description,
        categories: categoriesOf(connector),
        documentation_url: connector.definition.resources ?? null,
        icon_url: connector.definition.info.assets?.icon ?? null,
        authentication_methods: authenticationMethods(connector),
        verification: verificationView(version.owner, connector),
        mcp_server_url: version.mcp_server_url,
        mcp_auth: version.mcp_auth,
        content_hash: version.content_hash,
        created_at: version.created_at.toISOString(),
        actions: expand.includes("actions")
          ? {
            actions: summaries,
            event_actions: eventActionsOf(connector).map((action) => actionSummary(action, null)),
            scope_definitions: scopeDefinitions(connector)
          }
          : null,
        versions: expand.includes("versions") ? newestFirst(sameOwner).map(versionView) : null,
        changelog: expand.includes("changelog")
          ? newestFirst(sameOwner).flatMap((row) => row.changelog === null ? [] : [row.changelog])
          : null,
        accounts_count: expand.includes("accounts_count") ? options.usage?.accounts ?? 0 : null,
        connector_profiles_count: expand.includes("connector_profiles_count") ? options.usage?.profiles ?? 0 : null,
        enabled_actions_count: enabledActions === undefined
          ? null
          : actions.filter((action) => enabledActions.has(action.actionId)).length
      }
    }

    const list = (caller: Caller, params: ListConnectorsParams) =>
      Effect.gen(function*() {
        const keys = params.key !== undefined && params.key.length > 0 ? params.key : undefined
        const rows = yield* registry.visible(caller.projectId, keys)
        const byConnector = new Map<string, Array<VisibleVersion>>()
        for (const row of rows) {
          const id = `${row.owner}:${row.key}`
          byConnector.set(id, [...(byConnector.get(id) ?? []), row])
        }
        const expand = params.expand ?? []
        const countsWanted = expand.length > 0
        const usage = countsWanted ? yield* repo.usage(caller.projectId) : new Map<string, Usage>()
        const latest = yield* Effect.forEach([...byConnector.values()], (versions) => {
          const newest = latestOf(versions)!
          return Effect.map(registry.load(newest), (connector) => ({ version: newest, connector }))
        })
        const categories = params.category ?? []
        const matching = latest.filter(({ connector }) =>
          categories.length === 0 || categoriesOf(connector).some((category) => categories.includes(category))
        )
        const weight = (key: string) => (usage.get(key)?.accounts ?? 0) + (usage.get(key)?.profiles ?? 0)
        matching.sort((a, b) =>
          (countsWanted ? weight(b.version.key) - weight(a.version.key) : 0) ||
          a.version.key.localeCompare(b.version.key) ||
          // The project's own connector first, as it takes precedence.
          b.version.owner.localeCompare(a.version.owner)
        )
        const render_ = ({ connector, version }: (typeof matching)[number]) =>
          render(version, connector, {
            expand,
            usage: usage.get(version.key) ?? { accounts: 0, profiles: 0 }
          })
        const window = pageWindow(params)
        if (Option.isNone(window)) return matching.map(render_)
        const { offset, limit } = window.value
        return pageEnvelope(window.value, matching.slice(offset, offset + limit).map(render_), matching.length)
      })

    const profileFor = (caller: Caller, profileId: string, key: string) =>
      Effect.gen(function*() {
        const profile = yield* profiles.find(caller.projectId, profileId)
        if (Option.isNone(profile)) return yield* new ConnectorProfileNotFound({ profileId })
        if (profile.value.connector_key !== key) {
          return yield* new InvalidConnectorQuery({
            message: `Connector profile ${profileId} is for connector ${profile.value.connector_key}, not ${key}`
          })
        }
        return profile.value
      })

    const get = (caller: Caller, id: string, params: GetConnectorParams) =>
      Effect.gen(function*() {
        const expand = params.expand ?? []
        if (params.connector_profile_id !== undefined && !expand.includes("actions")) {
          return yield* new InvalidConnectorQuery({ message: "connector_profile_id requires expand=actions" })
        }
        const ref = yield* parseConnectorId(id, params)
        const version = yield* registry.resolve(caller.projectId, ref)
        const connector = yield* registry.load(version)
        const siblings = expand.includes("versions") || expand.includes("changelog")
          ? yield* registry.visible(caller.projectId, [version.key])
          : []
        const usage = expand.includes("accounts_count") || expand.includes("connector_profiles_count")
          ? (yield* repo.usage(caller.projectId)).get(version.key)
          : undefined
        const profile = params.connector_profile_id === undefined
          ? undefined
          : yield* profileFor(caller, params.connector_profile_id, version.key)
        return render(version, connector, {
          expand,
          siblings,
          ...(usage === undefined ? {} : { usage }),
          ...(profile === undefined ? {} : { enabledActions: new Set(profile.enabled_actions) })
        })
      })

    /** Deletes one custom version, unless built-in (403) or in use by a profile or account (409). */
    const remove = (caller: Caller, id: string) =>
      Effect.gen(function*() {
        const { key, version } = yield* parseExactConnectorId(id)
        const rows = yield* registry.visible(caller.projectId, [key])
        const target = rows.find((row) => row.owner === "custom" && row.version === version)
        if (target === undefined) {
          if (rows.some((row) => row.owner === "builtin" && row.version === version)) {
            return yield* new BuiltinConnectorReadOnly({ key, version })
          }
          return yield* new ConnectorNotFound({ connector: `${key}@${version}` })
        }
        const candidates = yield* registry.profileCandidates(caller.projectId, key)
        const usedBy = (yield* profiles.forKey(caller.projectId, key)).filter((profile) =>
          resolveSpec(candidates, profile.version_spec)?.id === target.id
        )
        if (usedBy.length > 0) {
          return yield* new ConnectorUsedByProfiles({ key, version, profileIds: usedBy.map((profile) => profile.id) })
        }
        const pinned = yield* repo.accountsPinnedTo(caller.projectId, key, version)
        if (pinned > 0) {
          return yield* new ConnectorPinnedByAccounts({ key, version, accounts: pinned })
        }
        yield* repo.remove(target.id)
      })

    /** Every registry version of the id's key the project can see (only the key part is used). */
    const versions = (caller: Caller, id: string) =>
      Effect.gen(function*() {
        const key = id.split(/[@~]/)[0]!
        const rows = yield* registry.visible(caller.projectId, [key])
        // as GET /v2/connectors/{id}: a key the project cannot see is unknown, not empty
        if (rows.length === 0) return yield* new ConnectorNotFound({ connector: key })
        return newestFirst(rows).map(versionView)
      })

    const actionDetail = (caller: Caller, id: string, actionId: string, params: ActionDetailParams, kind: "action" | "event") =>
      Effect.gen(function*() {
        const version = yield* registry.resolve(caller.projectId, yield* parseConnectorId(id, params))
        const connector = yield* registry.load(version)
        const pool = kind === "action" ? connector.definition.actions : eventActionsOf(connector)
        const action = pool.find((candidate) => candidate.actionId === actionId)
        if (action === undefined) {
          return yield* new ActionNotFound({
            connectorKey: version.key,
            connectorVersion: version.version,
            actionId,
            kind: kind === "action" ? "action" : "event action"
          })
        }
        const expand = params.expand ?? []
        const summary = actionSummary(action, null)
        const detail: ConnectorActionDetail = {
          id: summary.id,
          connector_key: version.key,
          connector_version: version.version,
          owner: version.owner,
          label: summary.label,
          description: summary.description,
          details: action.details ?? null,
          action_type: summary.action_type,
          categories: summary.categories,
          required_scopes: summary.required_scopes,
          inputs: summary.inputs,
          steps: expand.includes("steps") ? action.steps : null,
          result: expand.includes("result") ? action.result ?? null : null
        }
        return detail
      })

    const create = (caller: Caller, body: CreateConnector, expand: ReadonlyArray<ConnectorExpansion>) =>
      Effect.gen(function*() {
        const version = "yaml" in body
          ? yield* registry.registerYaml(caller.projectId, body.yaml, body.force ?? false)
          : yield* mcp.register(caller.projectId, body.mcp_server_url, body.title)
        const connector = yield* registry.load(version)
        const needsSiblings = expand.includes("versions") || expand.includes("changelog")
        const siblings = needsSiblings ? yield* registry.visible(caller.projectId, [version.key]) : []
        const usage = expand.includes("accounts_count") || expand.includes("connector_profiles_count")
          ? (yield* repo.usage(caller.projectId)).get(version.key)
          : undefined
        return render(version, connector, { expand, siblings, ...(usage === undefined ? {} : { usage }) })
      })

    return {
      list,
      get,
      remove,
      versions,
      action: (caller: Caller, id: string, actionId: string, params: ActionDetailParams) =>
        actionDetail(caller, id, actionId, params, "action"),
      eventAction: (caller: Caller, id: string, eventId: string, params: ActionDetailParams) =>
        actionDetail(caller, id, eventId, params, "event"),
      create
    } as const
  }),
  dependencies: [ConnectorRegistry.Default, ConnectorsRepo.Default, ProfilesRepo.Default, McpConnectors.Default]
}) {}
