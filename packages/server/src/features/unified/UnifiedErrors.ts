import { ProxyNotSupported } from "../actions/ActionRunErrors.js"
import { Data } from "effect"

/*
 * How unified calls fail besides their action run. Each error states its own message;
 * `toApiError` chooses the status.
 */

/** The account's connector has no action for the unified operation. */
export class OperationNotImplemented extends Data.TaggedError("OperationNotImplemented")<{
  readonly operationId: string
  readonly connectorKey: string
  readonly connectorVersion: string
}> {
  override get message() {
    return `Connector ${this.connectorKey}@${this.connectorVersion} has no action ${this.operationId}: this operation is not implemented for the account's provider`
  }
}

/** A `next` cursor that is tampered, foreign (another account or operation), expired or malformed. */
export class InvalidCursor extends Data.TaggedError("InvalidCursor")<{ readonly reason: string }> {
  override get message() {
    return `Invalid next cursor: ${this.reason}; start again without next`
  }
}

export type UnifiedError = OperationNotImplemented | ProxyNotSupported | InvalidCursor

export { ProxyNotSupported }
