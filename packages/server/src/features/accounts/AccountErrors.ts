import { Data } from "effect"
import type { InvalidAccountSetting } from "../connectorProfiles/urlSettings.js"

/*
 * How account rules fail. Each error states its own message; `toApiError` chooses the status.
 */

export class AccountNotFound extends Data.TaggedError("AccountNotFound")<{ readonly accountId: string }> {
  override get message() {
    return `Account ${this.accountId} not found`
  }
}

/** The account is suspended, expired or disabled: account-scoped calls refuse it. */
export class AccountBlocked extends Data.TaggedError("AccountBlocked")<{
  readonly accountId: string
  readonly status: string
}> {
  override get message() {
    return `Account ${this.accountId} is ${this.status}`
  }
}

/** The account's connector profile (its integration) is switched off. */
export class AccountIntegrationDisabled extends Data.TaggedError("AccountIntegrationDisabled")<{
  readonly accountId: string
  readonly profileId: string
}> {
  override get message() {
    return `Account ${this.accountId} belongs to a disabled integration (connector profile ${this.profileId})`
  }
}

/** Nothing the account links to resolves to a connector version anymore. */
export class AccountConnectorGone extends Data.TaggedError("AccountConnectorGone")<{
  readonly accountId: string
  readonly connectorKey: string
  readonly connectorVersion: string | null
}> {
  override get message() {
    const version = this.connectorVersion === null ? "" : `@${this.connectorVersion}`
    return `Account ${this.accountId} has no connector version to run (${this.connectorKey}${version} is gone)`
  }
}

/** A create or update body the account rules refuse (sizes, what it links to). */
export class InvalidAccountRequest extends Data.TaggedError("InvalidAccountRequest")<{ readonly message: string }> {}

/** Credentials that do not fit the authentication method the account links with (every problem named). */
export class InvalidAccountCredentials extends Data.TaggedError("InvalidAccountCredentials")<{ readonly message: string }> {}


/** Why an account cannot be used for an account-scoped call (RPC, unified, MCP). */
export type AccountContextError = AccountNotFound | AccountBlocked | AccountIntegrationDisabled | AccountConnectorGone

export type AccountError = AccountContextError | InvalidAccountRequest | InvalidAccountCredentials | InvalidAccountSetting
