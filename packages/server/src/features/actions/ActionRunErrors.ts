import type { ActionError } from "@switchyard/engine"
import { Data } from "effect"
import type { AccountContextError } from "../accounts/AccountErrors.js"
import type { ActionNotFound } from "../connectors/ConnectorErrors.js"

/*
 * How the runner refuses an action before or instead of running it. Each error states its
 * own message; `toApiError` chooses the status.
 */

/** The account's connector profile does not enable the action. */
export class ActionNotEnabled extends Data.TaggedError("ActionNotEnabled")<{
  readonly actionId: string
  readonly profileId: string
}> {
  override get message() {
    return `Action ${this.actionId} is not enabled in connector profile ${this.profileId}`
  }
}

/**
 * Another run holds the Idempotency-Key: still `running`, `releasing` (a failed run freeing
 * it), or `taken_over` (this process's run lost its claim to another process's). Retrying
 * after `retryAfterSeconds` gets the stored result or a fresh run.
 */
export class IdempotencyConflict extends Data.TaggedError("IdempotencyConflict")<{
  readonly key: string
  readonly state: "running" | "releasing" | "taken_over"
  readonly retryAfterSeconds: number
}> {
  override get message() {
    switch (this.state) {
      case "running":
        return `A request with Idempotency-Key ${this.key} is still running`
      case "releasing":
        return `Idempotency-Key ${this.key} is being released; retry`
      case "taken_over":
        return `The run of Idempotency-Key ${this.key} was taken over by another server process ` +
          "(this one missed its heartbeats) and was stopped before its next provider request; retry for its result"
    }
  }
}

/** The Idempotency-Key was first used with another request. */
export class IdempotencyKeyReused extends Data.TaggedError("IdempotencyKeyReused")<{ readonly key: string }> {
  override get message() {
    return `Idempotency-Key ${this.key} was used for a different request`
  }
}

/**
 * The run succeeded, but its answer does not fit the schema of the API it was called through:
 * a unified record the provider's data, as the connector maps it, left malformed. The issues
 * name paths and expectations, never the values.
 */
export class AnswerMisfit extends Data.TaggedError("AnswerMisfit")<{
  readonly provider: string
  readonly issues: string
}> {
  override get message() {
    return `${this.provider} answered data that does not fit the unified schema: ${this.issues}`
  }
}

/**
 * Why an action run fails: the account, the action, the Idempotency-Key, or the run itself
 * (the engine's failures, every value already redacted by the runner).
 */
export type ActionRunError =
  | AccountContextError
  | ActionNotFound
  | ActionNotEnabled
  | IdempotencyConflict
  | IdempotencyKeyReused
  | AnswerMisfit
  | ActionError

/** The account's connector names no base URL (an MCP connector, say): nowhere its proxy could send to. */
export class ProxyNotSupported extends Data.TaggedError("ProxyNotSupported")<{
  readonly connectorKey: string
  readonly connectorVersion: string
}> {
  override get message() {
    return `Connector ${this.connectorKey}@${this.connectorVersion} has no base URL: the unified proxy cannot reach the account's provider`
  }
}
