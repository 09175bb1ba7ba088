import type { StatusReason } from "@switchyard/api"
import { type OAuth2Error, ProviderTransportError } from "@switchyard/engine"
import { AccountBlocked } from "./AccountErrors.js"

/** The status reason of an account whose OAuth2 grant the provider no longer honours. */
export const GRANT_REVOKED_REASON = "oauth_grant_revoked"

const MAX_DESCRIPTION = 1000

/** Why the account is `expired`, in words a project owner acts on; the provider's own words included. */
export const grantRevokedReason = (error: OAuth2Error, at: Date): typeof StatusReason.Type => {
  const said = error.description ?? error.error
  const detail = said === undefined ? "" : `: ${said.length > MAX_DESCRIPTION ? `${said.slice(0, MAX_DESCRIPTION)}…` : said}`
  return {
    code: GRANT_REVOKED_REASON,
    description: `The provider refused the OAuth2 refresh token (invalid_grant${detail}). ` +
      "Link the account again through a connect session created with its account_id.",
    timestamp: at.toISOString()
  }
}

/**
 * An account blocked because its OAuth2 grant was revoked or expired: an `AccountBlocked`
 * (412, as any expired account), whose message says what happened and how to link it again.
 */
export class AccountGrantRevoked extends AccountBlocked {
  readonly reason: string

  constructor(args: { readonly accountId: string; readonly reason: string }) {
    super({ accountId: args.accountId, status: "expired" })
    this.reason = args.reason
  }

  override get message() {
    return `Account ${this.accountId} is expired. ${this.reason}`
  }
}

/**
 * A refresh that failed for another reason (the provider's 5xx or another OAuth error, no
 * answer, an unreadable one): a 502 as other provider failures are; the account keeps its
 * tokens and its status.
 */
export const refreshFailed = (accountId: string, tokenUrl: string, error: OAuth2Error): ProviderTransportError =>
  new ProviderTransportError({
    reason: error.kind === "unreachable" ? "unreachable" : error.kind === "invalid_response" ? "invalid_response" : "unavailable",
    message: `Could not refresh the OAuth2 access token of account ${accountId}: ${error.message}`,
    url: tokenUrl
  })

/** Another process's refresh of the same tokens neither finished nor gave its lease up in time: retry. */
export const refreshWaitTimedOut = (accountId: string, waitedSeconds: number): ProviderTransportError =>
  new ProviderTransportError({
    reason: "timeout",
    message: `Another refresh of the OAuth2 access token of account ${accountId} did not finish within ${waitedSeconds} s`,
    url: "",
    retryAfter: 5
  })
