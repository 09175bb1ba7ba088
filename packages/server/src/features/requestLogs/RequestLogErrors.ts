import { Data } from "effect"

/*
 * How request log reads fail. Each error states its own message; `toApiError` chooses the status.
 */

/** No entry with this id in the caller's project (another project's entries are not found either). */
export class RequestLogNotFound extends Data.TaggedError("RequestLogNotFound")<{ readonly id: string }> {
  override get message() {
    return `Request log ${this.id} not found`
  }
}

/** A `next` that this server did not issue for this project and order, or that was altered. */
export class InvalidRequestLogCursor extends Data.TaggedError("InvalidRequestLogCursor")<{ readonly reason: string }> {
  override get message() {
    return `Invalid next cursor: ${this.reason}; start again without next`
  }
}

/** A stats range the rules refuse: empty, or longer than its interval allows. */
export class InvalidRequestLogStats extends Data.TaggedError("InvalidRequestLogStats")<{ readonly message: string }> {}

export type RequestLogError = RequestLogNotFound | InvalidRequestLogCursor | InvalidRequestLogStats
