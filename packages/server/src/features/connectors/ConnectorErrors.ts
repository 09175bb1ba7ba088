import { Data } from "effect"

/*
 * How connector rules fail. Each error states its own message; `toApiError` chooses the status.
 */

/** No connector the project can see answers the address (`key`, `key@version`, `key@version~owner`). */
export class ConnectorNotFound extends Data.TaggedError("ConnectorNotFound")<{ readonly connector: string }> {
  override get message() {
    return `Connector ${this.connector} not found`
  }
}

/** The connector version has no action (or event action) with that id. */
export class ActionNotFound extends Data.TaggedError("ActionNotFound")<{
  readonly connectorKey: string
  readonly connectorVersion: string
  readonly actionId: string
  readonly kind: "action" | "event action"
}> {
  override get message() {
    return `Connector ${this.connectorKey}@${this.connectorVersion} has no ${this.kind} ${this.actionId}`
  }
}

export class BuiltinConnectorReadOnly extends Data.TaggedError("BuiltinConnectorReadOnly")<{
  readonly key: string
  readonly version: string
}> {
  override get message() {
    return `Built-in connector ${this.key}@${this.version} cannot be deleted`
  }
}

/** Connector profiles resolve to the version, so it cannot be deleted. */
export class ConnectorUsedByProfiles extends Data.TaggedError("ConnectorUsedByProfiles")<{
  readonly key: string
  readonly version: string
  readonly profileIds: ReadonlyArray<string>
}> {
  override get message() {
    return `Connector ${this.key}@${this.version} is used by connector profile(s) ${
      this.profileIds.join(", ")
    }: repoint or delete them first`
  }
}

/** Accounts are pinned to the version, so it cannot be deleted. */
export class ConnectorPinnedByAccounts extends Data.TaggedError("ConnectorPinnedByAccounts")<{
  readonly key: string
  readonly version: string
  readonly accounts: number
}> {
  override get message() {
    return `Connector ${this.key}@${this.version} is used by ${this.accounts} account(s)`
  }
}

/** A registration that clashes with a version or key the project already has. */
export class ConnectorConflict extends Data.TaggedError("ConnectorConflict")<{ readonly message: string }> {}

/** A connector id (path parameter) that is not `key[@version][~owner]` as the endpoint takes it. */
export class InvalidConnectorId extends Data.TaggedError("InvalidConnectorId")<{ readonly message: string }> {}

/** Query parameters that do not fit together or with the connector. */
export class InvalidConnectorQuery extends Data.TaggedError("InvalidConnectorQuery")<{ readonly message: string }> {}

/** A connector to register whose YAML or MCP server is not usable. */
export class InvalidConnectorSource extends Data.TaggedError("InvalidConnectorSource")<{ readonly message: string }> {}

export type ConnectorError =
  | ConnectorNotFound
  | ActionNotFound
  | BuiltinConnectorReadOnly
  | ConnectorUsedByProfiles
  | ConnectorPinnedByAccounts
  | ConnectorConflict
  | InvalidConnectorId
  | InvalidConnectorQuery
  | InvalidConnectorSource
