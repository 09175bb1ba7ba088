import type { ConnectorOwner } from "@switchyard/api"
import { Effect } from "effect"
import { InvalidConnectorId } from "./ConnectorErrors.js"

/** A connector address `key[@version][~owner]`, with the query's overrides applied. */
export interface ConnectorRef {
  readonly key: string
  /** An exact version, or undefined for "latest" / automatic resolution. */
  readonly version: string | undefined
  /** `builtin`, `custom`, or undefined for automatic resolution (custom before built-in). */
  readonly owner: ConnectorOwner | undefined
}

const ID = /^([a-z0-9_-]{1,100})(?:@([^@~\s]{1,100}))?(?:~([^@~\s]{1,100}))?$/

const parseOwner = (owner: string | undefined): Effect.Effect<ConnectorOwner | undefined, InvalidConnectorId> =>
  owner === undefined || owner === "builtin" || owner === "custom"
    ? Effect.succeed(owner)
    : Effect.fail(new InvalidConnectorId({ message: `Unknown connector owner "${owner}": use builtin or custom` }))

export const parseConnectorId = (
  id: string,
  overrides: { readonly version?: string | undefined; readonly owner?: string | undefined } = {}
): Effect.Effect<ConnectorRef, InvalidConnectorId> =>
  Effect.gen(function*() {
    const match = ID.exec(id)
    if (match === null) {
      return yield* new InvalidConnectorId({ message: `Invalid connector id "${id}": expected key[@version][~owner]` })
    }
    const version = overrides.version ?? match[2]
    const owner = yield* parseOwner(overrides.owner ?? match[3])
    return { key: match[1]!, version: version === "latest" ? undefined : version, owner }
  })

/** `delete_connector` takes exactly `key@version`. */
export const parseExactConnectorId = (id: string): Effect.Effect<{ key: string; version: string }, InvalidConnectorId> => {
  const match = /^([a-z0-9_-]{1,100})@([^@~\s]{1,100})$/.exec(id)
  return match === null || match[2] === "latest"
    ? Effect.fail(new InvalidConnectorId({ message: `Invalid connector id "${id}": delete takes exactly key@version` }))
    : Effect.succeed({ key: match[1]!, version: match[2]! })
}

export const formatConnectorId = (key: string, version: string, owner: ConnectorOwner) => `${key}@${version}~${owner}`
