import { Data } from "effect"

/*
 * How connector profile rules fail. Each error states its own message; `toApiError` chooses the status.
 */

export class ConnectorProfileNotFound extends Data.TaggedError("ConnectorProfileNotFound")<{
  readonly profileId: string
}> {
  override get message() {
    return `Connector profile ${this.profileId} not found`
  }
}

/** Accounts still link through the profile, so it cannot be deleted. */
export class ConnectorProfileInUse extends Data.TaggedError("ConnectorProfileInUse")<{ readonly profileId: string }> {
  override get message() {
    return `Connector profile ${this.profileId} is used by accounts: relink or delete them first`
  }
}

/** A version spec or enabled actions the profile's connector cannot satisfy. */
export class InvalidConnectorProfile extends Data.TaggedError("InvalidConnectorProfile")<{ readonly message: string }> {}

export type ConnectorProfileError = ConnectorProfileNotFound | ConnectorProfileInUse | InvalidConnectorProfile
