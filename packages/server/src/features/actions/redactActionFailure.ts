import { type ActionError, redactError, secretForms } from "@switchyard/engine"

/**
 * The failure with every secret removed from what it carries (message, URL, headers, body,
 * a transport failure's response), by the engine's one redaction walk; done where the
 * account's secrets are known, before the failure leaves the runner. The engine already
 * redacts its own failures; this also covers the transport's, which it passes through.
 */
export const redactActionFailure = (failure: ActionError, secrets: ReadonlyArray<string>): ActionError =>
  redactError(failure, secretForms(secrets))
