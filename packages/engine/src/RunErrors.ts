import { Data } from "effect"
import type { ProviderTransportError } from "./ProviderTransport.js"

/*
 * Failures of `runAction`. Messages are built from connector text, input names, statuses
 * and redacted URLs only: credential values never appear in them (the runner also passes
 * every message through the run's redaction before it leaves).
 */

export interface InputIssue {
  /** The input's name (`page_size`), or `credentials.<key>` for a missing credential. */
  readonly input: string
  readonly message: string
}

/** The caller's inputs (or the account's credentials) do not fit the action. */
export class ActionInputError extends Data.TaggedError("ActionInputError")<{
  readonly message: string
  readonly issues: ReadonlyArray<InputIssue>
}> {
  static fromIssues(issues: ReadonlyArray<InputIssue>): ActionInputError {
    const text = issues.map((issue) => `${issue.input} ${issue.message}`).join("; ")
    return new ActionInputError({ issues, message: `invalid inputs: ${text}` })
  }
}

/** The provider answered with a status the connector does not handle (after `customErrors`). */
export class ProviderHttpError extends Data.TaggedError("ProviderHttpError")<{
  readonly message: string
  readonly status: number
  /** The request URL, secrets redacted. */
  readonly url: string
  readonly method: string
  /** The response body (parsed JSON, text, or a short note for binary bodies), secrets redacted. */
  readonly body: unknown
  readonly headers: Readonly<Record<string, string>>
  readonly stepId?: string | undefined
}> {}

/** A `customErrors` rule matched: the provider's answer maps to `targetStatus`. */
export class CustomProviderError extends Data.TaggedError("CustomProviderError")<{
  readonly message: string
  readonly targetStatus: number
  readonly receivedStatus: number
  readonly url: string
  readonly body: unknown
  readonly stepId?: string | undefined
}> {}

export type RunLimitName =
  | "actionTimeout"
  | "stepTimeout"
  | "maxRecords"
  | "maxResponseBytes"
  | "maxExpressionOutput"

/** A run bound was exceeded; the run stopped instead of hanging or growing. */
export class ActionLimitError extends Data.TaggedError("ActionLimitError")<{
  readonly message: string
  readonly limit: RunLimitName
  readonly stepId?: string | undefined
}> {}

/**
 * The connector itself cannot run this: unknown action, a step reading a step that does
 * not exist, an expression failing at run time, an unsupported method or URL scheme.
 */
export class ActionDefinitionError extends Data.TaggedError("ActionDefinitionError")<{
  readonly message: string
  readonly actionId?: string | undefined
  readonly stepId?: string | undefined
  /** Location in the connector document, e.g. `actions[0].steps[1].stepFunction.parameters.url`. */
  readonly path?: string | undefined
}> {}

export type ActionError =
  | ActionInputError
  | ProviderHttpError
  | ProviderTransportError
  | ActionLimitError
  | ActionDefinitionError
  | CustomProviderError

/**
 * A failure of the caller's own, met by a hook it gave the run (`RunContext.beforeEachRequest`,
 * `RunContext.refreshAccessToken`): an account found blocked while its token was renewed, a
 * claim taken over. The run carries it as it is (neither redacted nor rebuilt: the engine does
 * not know what it holds), never records it as an ignored step's error, and `runAction` and
 * `sendProxyRequest` fail with `failure` itself. The engine never makes one of its own.
 */
export class ForeignFailure<out E = unknown> {
  readonly _tag = "ForeignFailure"
  constructor(readonly failure: E) {}
}

/** What the run's steps fail with inside the engine: its own failures, or a hook's carried through. */
export type RunFailure = ActionError | ForeignFailure
