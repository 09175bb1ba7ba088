import type {
  AuthenticatedConnectSession,
  Caller,
  ConnectSessionConnector,
  CreateConnectSession,
  CreatedConnectSession
} from "@switchyard/api"
import { latestOf } from "@switchyard/engine"
import { CONNECT_SESSION_DEFAULT_EXPIRES_IN } from "@switchyard/api"
import { Clock, Effect, Option } from "effect"
import * as Crypto from "node:crypto"
import { AccountsRepo } from "../accounts/AccountsRepo.js"
import { SwitchyardConfig } from "../../platform/Config.js"
import { secretDigest } from "../../platform/crypto/secretDigest.js"
import { ConnectorProfiles } from "../connectorProfiles/ConnectorProfiles.js"
import { ProfilesRepo } from "../connectorProfiles/ProfilesRepo.js"
import { ConnectorRegistry, type VisibleVersion } from "../connectors/ConnectorRegistry.js"
import {
  ConnectSessionGone,
  ConnectSessionNotFound,
  ConnectTokenUnknown,
  InvalidConnectSessionRequest
} from "./ConnectSessionErrors.js"
import { connectAuthMethods } from "./connectAuthMethods.js"
import { connectSessionView } from "./connectSessionView.js"
import { type ConnectSessionRow, ConnectSessionsRepo } from "./ConnectSessionsRepo.js"

const MAX_METADATA_BYTES = 16 * 1024

/** Only the digest of a token is stored: a leaked table links nothing. */
export const hashConnectToken = secretDigest

const generateToken = () => Crypto.randomBytes(32).toString("base64url")

/** What narrows the connectors a session offers. */
type Narrowing = Pick<ConnectSessionRow, "provider" | "categories" | "connector_profile_id">

const narrow = (connectors: ReadonlyArray<ConnectSessionConnector>, by: Narrowing) =>
  connectors.filter((connector) =>
    (by.provider === null || connector.key === by.provider) &&
    (by.categories.length === 0 || connector.categories.some((c) => (by.categories as ReadonlyArray<string>).includes(c))) &&
    (by.connector_profile_id === null || connector.connector_profile_id === by.connector_profile_id)
  )

/**
 * Connect sessions: a short-lived token that lets an end user link an account to a project
 * through the hosted page, without the project's API key.
 */
export class ConnectSessions extends Effect.Service<ConnectSessions>()("Switchyard/ConnectSessions", {
  effect: Effect.gen(function*() {
    const repo = yield* ConnectSessionsRepo
    const profilesRepo = yield* ProfilesRepo
    const profiles = yield* ConnectorProfiles
    const registry = yield* ConnectorRegistry
    const accounts = yield* AccountsRepo
    const config = yield* SwitchyardConfig

    /**
     * What the project may link: its active connector profiles, or, when it has none, every
     * connector it sees (its own before a built-in one of the same key).
     */
    const linkable = (projectId: string) =>
      Effect.gen(function*() {
        const iconUrl = (key: string) => `${config.publicUrl}/connect/icons/${encodeURIComponent(key)}.svg`
        const { rows } = yield* profilesRepo.list(projectId, { connectorKeys: [], active: true }, Option.none())
        if (rows.length > 0) {
          const resolved = yield* Effect.forEach(rows, (profile) =>
            Effect.flatMap(profiles.resolveProfile(projectId, profile), (version) =>
              Option.isNone(version) ? Effect.succeed([]) : Effect.map(
                registry.load(version.value),
                (connector): Array<ConnectSessionConnector> => {
                  const authentication = connectAuthMethods(connector, profile.setup_keys)
                  return authentication.length === 0 ? [] : [{
                    key: profile.connector_key,
                    // the end user knows the provider; the label tells a project's profiles of it apart
                    name: version.value.title,
                    profile_label: profile.label.length > 0 ? profile.label : null,
                    categories: version.value.categories,
                    connector_profile_id: profile.id,
                    icon_url: iconUrl(profile.connector_key),
                    authentication
                  }]
                }
              )))
          return resolved.flat()
        }
        const versions = yield* registry.visible(projectId)
        const byKey = new Map<string, Array<VisibleVersion>>()
        for (const version of versions) byKey.set(version.key, [...(byKey.get(version.key) ?? []), version])
        const newest = [...byKey.values()].flatMap((candidates) => {
          const custom = candidates.filter((version) => version.owner === "custom")
          const latest = latestOf(custom.length > 0 ? custom : candidates)
          return latest === undefined ? [] : [latest]
        })
        const offered = yield* Effect.forEach(newest, (version) =>
          Effect.map(registry.load(version), (connector): Array<ConnectSessionConnector> => {
            // without a profile there is no OAuth app: only methods the end user completes alone
            const authentication = connectAuthMethods(connector, undefined)
            return authentication.length === 0 ? [] : [{
              key: version.key,
              name: version.title,
              profile_label: null,
              categories: version.categories,
              connector_profile_id: null,
              icon_url: iconUrl(version.key),
              authentication
            }]
          }))
        return offered.flat().sort((a, b) => a.key.localeCompare(b.key))
      })

    /** A re-link offers only the account's own connector, whether or not `provider` named it. */
    const narrowingOf = (row: ConnectSessionRow) =>
      row.provider !== null || row.account_id === null
        ? Effect.succeed<Narrowing>(row)
        : Effect.map(accounts.find(row.project_id, row.account_id), (account): Narrowing => ({
          ...row,
          provider: Option.isSome(account) ? account.value.connector_key : null
        }))

    const render = connectSessionView

    /** Checks what the body links to against the project; the narrowing the session will apply. */
    const validateLinks = (projectId: string, body: CreateConnectSession) =>
      Effect.gen(function*() {
        const invalid = (message: string) => new InvalidConnectSessionRequest({ message })
        if (body.metadata !== undefined && Buffer.byteLength(JSON.stringify(body.metadata)) > MAX_METADATA_BYTES) {
          return yield* invalid(`metadata must be at most ${MAX_METADATA_BYTES} bytes`)
        }
        let provider = body.provider ?? null
        if (body.account_id !== undefined) {
          const account = yield* accounts.find(projectId, body.account_id)
          if (Option.isNone(account)) {
            return yield* invalid(`account_id ${body.account_id} is not an account of this project`)
          }
          if (provider !== null && provider !== account.value.connector_key) {
            return yield* invalid(
              `account_id ${body.account_id} is linked to ${account.value.connector_key}, not provider ${provider}`
            )
          }
          provider = account.value.connector_key
        }
        if (body.connector_profile_id !== undefined) {
          const profile = yield* profilesRepo.find(projectId, body.connector_profile_id)
          if (Option.isNone(profile)) {
            return yield* invalid(`connector_profile_id ${body.connector_profile_id} is not a connector profile of this project`)
          }
          if (!profile.value.active) {
            return yield* invalid(`connector profile ${body.connector_profile_id} is not active`)
          }
          if (provider !== null && provider !== profile.value.connector_key) {
            return yield* invalid(
              `connector_profile_id ${body.connector_profile_id} is for connector ${profile.value.connector_key}, not ${provider}`
            )
          }
        }
        const connectors = yield* linkable(projectId)
        if (body.provider !== undefined && !connectors.some((connector) => connector.key === body.provider)) {
          return yield* invalid(`provider ${body.provider} is not a connector this project may link`)
        }
        const narrowing: Narrowing = {
          provider,
          categories: body.categories ?? [],
          connector_profile_id: body.connector_profile_id ?? null
        }
        if (narrow(connectors, narrowing).length === 0) {
          return yield* invalid("No connector this project may link matches provider, categories and connector_profile_id")
        }
      })

    const create = (caller: Caller, body: CreateConnectSession) =>
      Effect.gen(function*() {
        yield* validateLinks(caller.projectId, body)
        const now = yield* Clock.currentTimeMillis
        const token = generateToken()
        const id = Crypto.randomUUID()
        const createdAt = new Date(now)
        const expiresAt = new Date(now + (body.expires_in ?? CONNECT_SESSION_DEFAULT_EXPIRES_IN) * 1000)
        const row: ConnectSessionRow = {
          id,
          project_id: caller.projectId,
          organization_id: caller.organizationId,
          origin_owner_id: body.origin_owner_id,
          origin_owner_name: body.origin_owner_name,
          origin_username: body.origin_username ?? null,
          provider: body.provider ?? null,
          categories: [...new Set(body.categories ?? [])],
          connector_profile_id: body.connector_profile_id ?? null,
          account_id: body.account_id ?? null,
          multiple: body.multiple ?? false,
          label: body.label ?? null,
          metadata: body.metadata ?? null,
          redirect_url: body.redirect_url ?? null,
          status: "pending",
          failure_reason: null,
          expires_at: expiresAt,
          created_at: createdAt
        }
        const { organization_id: _, status: __, failure_reason: ___, ...stored } = row
        yield* repo.insert({ ...stored, token_hash: hashConnectToken(token) })
        const { failure_reason: _reason, status: _status, ...shown } = render(row, now)
        return {
          ...shown,
          token,
          auth_link_url: `${config.publicUrl}/connect?token=${encodeURIComponent(token)}`
        } satisfies CreatedConnectSession
      })

    const get = (caller: Caller, id: string) =>
      Effect.gen(function*() {
        const row = yield* repo.find(caller.projectId, id)
        if (Option.isNone(row)) return yield* new ConnectSessionNotFound({ sessionId: id })
        return render(row.value, yield* Clock.currentTimeMillis)
      })

    /** A pending session with what it may link; an expired or ended one is gone. */
    const usable = (row: ConnectSessionRow) =>
      Effect.gen(function*() {
        const session = render(row, yield* Clock.currentTimeMillis)
        if (session.status !== "pending") {
          return yield* new ConnectSessionGone({ sessionId: session.id, status: session.status })
        }
        const connectors = yield* linkable(row.project_id)
        return { ...session, connectors: narrow(connectors, yield* narrowingOf(row)) } satisfies AuthenticatedConnectSession
      })

    const authenticate = (token: string) =>
      Effect.gen(function*() {
        const row = yield* repo.findByTokenHash(hashConnectToken(token))
        if (Option.isNone(row)) return yield* new ConnectTokenUnknown()
        return yield* usable(row.value)
      })

    /** The session an OAuth2 authorization (whose state proved it) belongs to. */
    const resume = (sessionId: string) =>
      Effect.gen(function*() {
        const row = yield* repo.findById(sessionId)
        if (Option.isNone(row)) return yield* new ConnectSessionNotFound({ sessionId })
        return yield* usable(row.value)
      })

    return { create, get, authenticate, resume, linkable } as const
  }),
  dependencies: [
    ConnectSessionsRepo.Default,
    ProfilesRepo.Default,
    ConnectorProfiles.Default,
    ConnectorRegistry.Default,
    AccountsRepo.Default
  ]
}) {}
