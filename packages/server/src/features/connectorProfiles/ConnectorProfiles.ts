import {
  type Caller,
  type ConnectorProfile,
  type CreateConnectorProfile,
  type ListConnectorProfilesParams,
  type ProfileExpansion,
  type UpdateConnectorProfile
} from "@switchyard/api"
import { isVersionSpec, resolveSpec } from "@switchyard/engine"
import { Effect, Option } from "effect"
import * as Crypto from "node:crypto"
import * as Semver from "semver"
import { ConnectorRegistry, type VisibleVersion } from "../connectors/ConnectorRegistry.js"
import { pageEnvelope, pageWindow } from "../../platform/database/Pagination.js"
import { checkUrlSettings } from "./urlSettings.js"
import { ConnectorProfileInUse, ConnectorProfileNotFound, InvalidConnectorProfile } from "./ConnectorProfileErrors.js"
import { ProfileSetup } from "./ProfileSetup.js"
import { type ProfileRow, ProfilesRepo } from "./ProfilesRepo.js"

const MAX_ACCOUNT_SETTINGS_BYTES = 64 * 1024

/** Settings accounts will receive: URL settings must be http(s) URLs, as on an account. */
const checkAccountSettings = (settings: Readonly<Record<string, unknown>> | undefined) =>
  settings !== undefined && Buffer.byteLength(JSON.stringify(settings)) > MAX_ACCOUNT_SETTINGS_BYTES
    ? Effect.fail(new InvalidConnectorProfile({ message: `account_settings must be at most ${MAX_ACCOUNT_SETTINGS_BYTES} bytes` }))
    : checkUrlSettings(settings).pipe(
      Effect.mapError((error) =>
        new InvalidConnectorProfile({ message: `account_settings.${error.setting} must be an absolute http or https URL` })
      )
    )

/**
 * Connector profiles: a project's configuration of one connector — which version (exact,
 * `latest` or a semver range) and which actions are enabled — that accounts link through.
 */
export class ConnectorProfiles extends Effect.Service<ConnectorProfiles>()("Switchyard/ConnectorProfiles", {
  effect: Effect.gen(function*() {
    const repo = yield* ProfilesRepo
    const registry = yield* ConnectorRegistry
    const setup = yield* ProfileSetup

    /** The version a profile resolves to now, or none when nothing matches its spec anymore. */
    const resolveProfile = (projectId: string, profile: Pick<ProfileRow, "connector_key" | "version_spec">) =>
      Effect.map(
        registry.profileCandidates(projectId, profile.connector_key),
        (candidates) => Option.fromNullable(resolveSpec(candidates, profile.version_spec))
      )

    /** Validates a spec and action ids against what the key offers; the version they resolve to. */
    const validate = (projectId: string, key: string, spec: string, enabledActions: ReadonlyArray<string> | undefined) =>
      Effect.gen(function*() {
        if (!isVersionSpec(spec)) {
          return yield* new InvalidConnectorProfile({
            message: `version "${spec}" is not an exact version, latest, or a semver range such as 1.x`
          })
        }
        const candidates = yield* registry.profileCandidates(projectId, key)
        if (candidates.length === 0) {
          return yield* new InvalidConnectorProfile({ message: `Connector ${key} does not exist` })
        }
        const version = resolveSpec(candidates, spec)
        if (version === undefined) {
          return yield* new InvalidConnectorProfile({
            // in semver order: the rows come in whatever order the database keeps them
            message: `No version of connector ${key} matches "${spec}" (available: ${
              candidates.map((c) => c.version).sort(Semver.compare).join(", ")
            })`
          })
        }
        const connector = yield* registry.load(version)
        const known = new Set(connector.definition.actions.map((action) => action.actionId))
        const unknown = (enabledActions ?? []).filter((id) => !known.has(id))
        if (unknown.length > 0) {
          return yield* new InvalidConnectorProfile({
            message: `Unknown action id(s) for ${key}@${version.version}: ${unknown.join(", ")}`
          })
        }
        return { version, connector, allActions: [...known] }
      })

    const render = (
      projectId: string,
      row: ProfileRow,
      expand: ReadonlyArray<ProfileExpansion>,
      accountCounts?: ReadonlyMap<string, number>
    ) =>
      Effect.gen(function*() {
        const needsVersion = expand.some((item) => item !== "accounts_count")
        const version: VisibleVersion | undefined = needsVersion
          ? Option.getOrUndefined(yield* resolveProfile(projectId, row))
          : undefined
        const enabledCount = expand.includes("enabled_actions_count") && version !== undefined
          ? yield* Effect.map(registry.load(version), (connector) =>
            connector.definition.actions.filter((action) => row.enabled_actions.includes(action.actionId)).length)
          : null
        const profile: ConnectorProfile = {
          id: row.id,
          connector_key: row.connector_key,
          version_spec: row.version_spec,
          label: row.label,
          active: row.active,
          enabled_actions: row.enabled_actions,
          account_settings: row.account_settings,
          setup_fields_set: row.setup_keys,
          created_at: row.created_at.toISOString(),
          updated_at: row.updated_at.toISOString(),
          connector: expand.includes("connector") && version !== undefined
            ? { key: version.key, owner: version.owner, title: version.title, description: version.description }
            : null,
          version: expand.includes("version") && version !== undefined ? version.version : null,
          accounts_count: expand.includes("accounts_count")
            ? (accountCounts ?? (yield* repo.accountCounts(projectId))).get(row.id) ?? 0
            : null,
          enabled_actions_count: expand.includes("enabled_actions_count") ? enabledCount ?? 0 : null
        }
        return profile
      })

    const list = (caller: Caller, params: ListConnectorProfilesParams) =>
      Effect.gen(function*() {
        const filters = { connectorKeys: params.connector_key ?? [], active: params.active }
        const expand = params.expand ?? []
        const counts = expand.includes("accounts_count") ? yield* repo.accountCounts(caller.projectId) : undefined
        const renderAll = (rows: ReadonlyArray<ProfileRow>) =>
          Effect.forEach(rows, (row) => render(caller.projectId, row, expand, counts))
        const window = pageWindow(params)
        const { rows, total } = yield* repo.list(caller.projectId, filters, window)
        const rendered = yield* renderAll(rows)
        return Option.isSome(window) ? pageEnvelope(window.value, rendered, total) : rendered
      })

    const create = (caller: Caller, body: CreateConnectorProfile, expand: ReadonlyArray<ProfileExpansion>) =>
      Effect.gen(function*() {
        const spec = body.version ?? "latest"
        const { allActions, connector } = yield* validate(caller.projectId, body.connector_key, spec, body.enabled_actions)
        yield* checkAccountSettings(body.account_settings)
        const sealedSetup = body.setup === undefined ? null : yield* setup.sealChanges(connector, {}, body.setup)
        const row = yield* repo.insert({
          id: Crypto.randomUUID(),
          project_id: caller.projectId,
          connector_key: body.connector_key,
          version_spec: spec,
          label: body.label,
          active: body.active ?? true,
          enabled_actions: [...new Set(body.enabled_actions ?? allActions)],
          account_settings: body.account_settings ?? {},
          setup: sealedSetup
        })
        return yield* render(caller.projectId, row, expand)
      })

    const find = (projectId: string, id: string) =>
      Effect.flatMap(repo.find(projectId, id), Option.match({
        onNone: () => Effect.fail(new ConnectorProfileNotFound({ profileId: id })),
        onSome: Effect.succeed
      }))

    const get = (caller: Caller, id: string, expand: ReadonlyArray<ProfileExpansion>) =>
      Effect.flatMap(find(caller.projectId, id), (row) => render(caller.projectId, row, expand))

    const update = (caller: Caller, id: string, body: UpdateConnectorProfile, expand: ReadonlyArray<ProfileExpansion>) =>
      Effect.gen(function*() {
        const current = yield* find(caller.projectId, id)
        const validated = body.version !== undefined || body.enabled_actions !== undefined || body.setup !== undefined
          ? yield* validate(
            caller.projectId,
            current.connector_key,
            body.version ?? current.version_spec,
            body.enabled_actions ?? current.enabled_actions
          )
          : undefined
        yield* checkAccountSettings(body.account_settings)
        const sealedSetup = body.setup === undefined || validated === undefined
          ? undefined
          : yield* setup.sealChanges(validated.connector, yield* setup.open(caller.projectId, id), body.setup)
        const updated = yield* repo.update(caller.projectId, id, {
          ...(body.label === undefined ? {} : { label: body.label }),
          ...(body.version === undefined ? {} : { version_spec: body.version }),
          ...(body.active === undefined ? {} : { active: body.active }),
          ...(body.enabled_actions === undefined ? {} : { enabled_actions: [...new Set(body.enabled_actions)] }),
          ...(body.account_settings === undefined ? {} : { account_settings: body.account_settings }),
          ...(sealedSetup === undefined ? {} : { setup: sealedSetup })
        })
        if (Option.isNone(updated)) return yield* new ConnectorProfileNotFound({ profileId: id })
        return yield* render(caller.projectId, updated.value, expand)
      })

    const remove = (caller: Caller, id: string) =>
      Effect.flatMap(
        repo.remove(caller.projectId, id),
        (outcome): Effect.Effect<void, ConnectorProfileNotFound | ConnectorProfileInUse> => {
          switch (outcome) {
            case "deleted":
              return Effect.void
            case "missing":
              return Effect.fail(new ConnectorProfileNotFound({ profileId: id }))
            case "in use":
              return Effect.fail(new ConnectorProfileInUse({ profileId: id }))
          }
        }
      )

    return { list, create, get, update, remove, resolveProfile, find } as const
  }),
  dependencies: [ProfilesRepo.Default, ConnectorRegistry.Default, ProfileSetup.Default]
}) {}
