import type { AuthenticatedConnectSession, ConnectSessionConnector } from "@switchyard/api"
import type { AuthenticationMethod, ParsedConnector } from "@switchyard/engine"
import { Effect } from "effect"
import { AccountConnections } from "../accounts/AccountConnections.js"
import type { ProfileRow } from "../connectorProfiles/ProfilesRepo.js"
import { ConnectorRegistry, type VisibleVersion } from "../connectors/ConnectorRegistry.js"
import { namedMethods } from "../connectors/authenticationMethods.js"
import { InvalidConnectLink } from "./ConnectSessionErrors.js"

/** What the end user picked on the page, resolved against what the session offers. */
export interface ConnectChoice {
  readonly session: AuthenticatedConnectSession
  readonly offered: ConnectSessionConnector
  readonly profile: ProfileRow | undefined
  readonly version: VisibleVersion
  readonly connector: ParsedConnector
  readonly methodName: string
  readonly method: AuthenticationMethod
}

export interface Pick {
  readonly connector_key: string
  readonly connector_profile_id?: string | null | undefined
  readonly auth_method?: string | undefined
}

/** Resolves the page's pick: only a connector (and method) the session offers. */
export class ConnectChoices extends Effect.Service<ConnectChoices>()("Switchyard/ConnectChoices", {
  effect: Effect.gen(function*() {
    const connections = yield* AccountConnections
    const registry = yield* ConnectorRegistry

    const resolve = (session: AuthenticatedConnectSession, pick: Pick) =>
      Effect.gen(function*() {
        const invalid = (message: string) => new InvalidConnectLink({ message })
        const offered = session.connectors.find((connector) =>
          connector.key === pick.connector_key &&
          (pick.connector_profile_id === undefined || connector.connector_profile_id === pick.connector_profile_id)
        )
        if (offered === undefined) {
          return yield* invalid(`connector_key ${pick.connector_key} is not a connector this session may link`)
        }
        const methodName = pick.auth_method ?? offered.authentication[0]?.name
        const offeredMethod = offered.authentication.find((method) => method.name === methodName)
        if (methodName === undefined || offeredMethod === undefined) {
          return yield* invalid(
            `auth_method ${pick.auth_method} is not offered for ${offered.key} (offered: ${
              offered.authentication.map((method) => method.name).join(", ")
            })`
          )
        }
        // the same resolution as linking through the API: the profile's version, else the newest
        const { profile, version } = yield* connections.resolveForLink(session.project_id, {
          connector_key: offered.key,
          connector_profile_id: offered.connector_profile_id ?? undefined
        }).pipe(Effect.mapError((refused) => invalid(refused.message)))
        const connector = yield* registry.load(version)
        const method = namedMethods(connector).find(([name]) => name === methodName)?.[1]
        if (method === undefined) return yield* invalid(`connector ${offered.key} has no authentication method ${methodName}`)
        return { session, offered, profile, version, connector, methodName, method } satisfies ConnectChoice
      })

    return { resolve } as const
  }),
  dependencies: [AccountConnections.Default, ConnectorRegistry.Default]
}) {}
