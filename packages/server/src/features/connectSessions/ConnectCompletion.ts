import type { AuthenticatedConnectSession } from "@switchyard/api"
import { Effect, Option } from "effect"
import * as Crypto from "node:crypto"
import { type AccountRow, AccountsRepo } from "../accounts/AccountsRepo.js"
import { accountView } from "../accounts/accountView.js"
import { CredentialCipher } from "../../platform/crypto/CredentialCipher.js"
import { WebhookOutbox } from "../webhooks/WebhookOutbox.js"
import { ConnectSessionGone } from "./ConnectSessionErrors.js"
import { ConnectSessionsRepo } from "./ConnectSessionsRepo.js"

export interface CompletedLink {
  readonly session: AuthenticatedConnectSession
  readonly connectorKey: string
  readonly connectorName: string
  readonly connectorVersion: string
  readonly connectorProfileId: string | null
  readonly methodName: string
  readonly credentials: Readonly<Record<string, unknown>>
  /** The account's settings (`settingsFor`). */
  readonly settings: Readonly<Record<string, unknown>>
}

/**
 * Turns checked credentials into the session's account, in one transaction with completing
 * the session: the re-linked account (`account_id`), else the owner's existing account on
 * that connector (unless `multiple`), else a new one. A session used or expired meanwhile
 * rolls everything back.
 */
export class ConnectCompletion extends Effect.Service<ConnectCompletion>()("Switchyard/ConnectCompletion", {
  effect: Effect.gen(function*() {
    const accounts = yield* AccountsRepo
    const sessions = yield* ConnectSessionsRepo
    const cipher = yield* CredentialCipher
    const outbox = yield* WebhookOutbox

    /** The account a completed session writes over, if any. */
    const target = (session: AuthenticatedConnectSession, connectorKey: string): Effect.Effect<Option.Option<AccountRow>> => {
      if (session.account_id !== null) return accounts.find(session.project_id, session.account_id)
      if (session.multiple) return Effect.succeedNone
      return accounts.findOwnerAccount(session.project_id, session.origin_owner_id, connectorKey)
    }

    /** The settings the account will have: what it had, then the profile's account settings. */
    const settingsFor = (
      session: AuthenticatedConnectSession,
      connectorKey: string,
      profileSettings: Readonly<Record<string, unknown>>
    ) =>
      Effect.map(target(session, connectorKey), (existing) => ({
        ...Option.match(existing, { onNone: () => ({}), onSome: (account) => account.settings }),
        ...profileSettings
      }))

    const complete = (link: CompletedLink): Effect.Effect<AccountRow, ConnectSessionGone> => {
      const { session } = link
      const sealed = cipher.seal(link.credentials)
      const connectorVersion = link.connectorVersion
      const write = Effect.gen(function*() {
        const existing = yield* target(session, link.connectorKey)
        const row = Option.isSome(existing)
          ? yield* Effect.map(
            accounts.relink({
              projectId: session.project_id,
              id: existing.value.id,
              owner_name: session.origin_owner_name,
              owner_username: session.origin_username,
              connector_version: connectorVersion,
              connector_profile_id: link.connectorProfileId,
              settings: link.settings,
              label: session.label,
              metadata: session.metadata,
              connect_session_id: session.id,
              auth_method: link.methodName,
              credentials_ciphertext: sealed.ciphertext,
              credentials_key_id: sealed.keyId
            }),
            Option.getOrThrow
          )
          : yield* accounts.insert({
            id: Crypto.randomUUID(),
            project_id: session.project_id,
            name: session.label ?? `${link.connectorName} (${session.origin_owner_name})`,
            owner_id: session.origin_owner_id,
            owner_name: session.origin_owner_name,
            owner_username: session.origin_username,
            connector_key: link.connectorKey,
            connector_version: connectorVersion,
            connector_profile_id: link.connectorProfileId,
            settings: link.settings,
            label: session.label,
            metadata: session.metadata,
            linked_via: "connect_session",
            connect_session_id: session.id,
            auth_method: link.methodName,
            credentials_ciphertext: sealed.ciphertext,
            credentials_key_id: sealed.keyId
          })
        if (!(yield* sessions.complete(session.id, row.id))) {
          return yield* new ConnectSessionGone({ sessionId: session.id, status: "completed" })
        }
        yield* outbox.record(session.project_id, Option.isSome(existing) ? "account.updated" : "account.created", accountView(row))
        const { connectors: _connectors, ...shown } = session
        yield* outbox.record(session.project_id, "connect_session.completed", {
          ...shown,
          account_id: row.id,
          status: "completed",
          failure_reason: null
        })
        return row
      })
      return outbox.transaction(write).pipe(
        Effect.catchTag("SqlError", (error) => Effect.die(error)),
        Effect.withSpan("ConnectCompletion.complete", {
          captureStackTrace: false,
          attributes: { "switchyard.project.id": session.project_id, "switchyard.connector.key": link.connectorKey }
        })
      )
    }

    return { complete, settingsFor } as const
  }),
  dependencies: [AccountsRepo.Default, ConnectSessionsRepo.Default, CredentialCipher.Default, WebhookOutbox.Default]
}) {}
