import type { ActionError } from "@switchyard/engine"
import { Data } from "effect"
import { providerReason } from "./providerReason.js"

/*
 * How connect session rules fail. Each error states its own message; `toApiError` chooses the status.
 */

export class ConnectSessionNotFound extends Data.TaggedError("ConnectSessionNotFound")<{ readonly sessionId: string }> {
  override get message() {
    return `Connect session ${this.sessionId} not found`
  }
}

/** A token that belongs to no session (never issued, or mistyped). */
export class ConnectTokenUnknown extends Data.TaggedError("ConnectTokenUnknown")<{}> {
  override get message() {
    return "Unknown connect session token"
  }
}

/** The session behind the token can no longer be used: it expired, or it already ended. */
export class ConnectSessionGone extends Data.TaggedError("ConnectSessionGone")<{
  readonly sessionId: string
  readonly status: "expired" | "completed" | "failed"
}> {
  override get message() {
    return this.status === "expired"
      ? `Connect session ${this.sessionId} has expired: create a new session`
      : `Connect session ${this.sessionId} is ${this.status}: create a new session`
  }
}

/** A create body the session rules refuse (what it links to, sizes). */
export class InvalidConnectSessionRequest extends Data.TaggedError("InvalidConnectSessionRequest")<{
  readonly message: string
}> {}

/** What the page sent does not fit the session or the connector (a pick, a missing field). */
export class InvalidConnectLink extends Data.TaggedError("InvalidConnectLink")<{ readonly message: string }> {}

/**
 * The connector's test actions failed with the entered credentials (already redacted):
 * nothing was stored, and the provider's reason goes back to the page.
 */
export class ConnectCredentialsRefused extends Data.TaggedError("ConnectCredentialsRefused")<{
  readonly connectorName: string
  readonly failure: ActionError
}> {
  override get message() {
    return `${this.connectorName} refused the credentials: ${providerReason(this.failure)}`
  }
}

/**
 * The provider could not be reached to check the credentials (a name that does not resolve,
 * a refused or timed-out connection, TLS, an address this server does not call, errors
 * after every retry). The end user can do nothing about it but try again or ask: the
 * message says whom; the technical reason is in the request log and the server log.
 */
export class ConnectProviderUnreachable extends Data.TaggedError("ConnectProviderUnreachable")<{
  readonly connectorName: string
  /** Whom to contact: the project's name, or the application that sent the user (`projectContact`). */
  readonly contact: string
  /** Why, for the operator: logged, never answered. */
  readonly detail: string
}> {
  override get message() {
    return `${this.connectorName} could not be reached; try again or contact ${this.contact}`
  }
}

export type ConnectSessionError =
  | ConnectSessionNotFound
  | ConnectTokenUnknown
  | ConnectSessionGone
  | InvalidConnectSessionRequest
  | InvalidConnectLink
  | ConnectCredentialsRefused
  | ConnectProviderUnreachable
