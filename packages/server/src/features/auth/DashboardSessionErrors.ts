import { Data } from "effect"

/*
 * How signing in to the web dashboard fails. The error states its own message; `toApiError`
 * chooses the status. It never names the key it was given.
 */

/** The pasted key is unknown or revoked: no session was opened. */
export class DashboardSignInRefused extends Data.TaggedError("DashboardSignInRefused")<{}> {
  override get message() {
    return "Invalid API key"
  }
}

export type DashboardSessionError = DashboardSignInRefused
