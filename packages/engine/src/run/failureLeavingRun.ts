import { Cause } from "effect"
import type { ActionError, RunFailure } from "../RunErrors.js"
import { redactError } from "./redactError.js"
import type { RunSecrets } from "./RunSecrets.js"

/**
 * A run's failure as it leaves `runAction` or `sendProxyRequest` (outside their spans, so the
 * error leaves as itself, not as Effect's span-annotated proxy): the caller's own failure as
 * it was failed; the transport's failure as it came (already redacted: the transport gets the secrets
 * with each request); any other failure redacted of the run's secrets, whichever step failed.
 */
export const failureLeavingRun = <E>(failure: RunFailure, secrets: RunSecrets): ActionError | E => {
  const error = Cause.originalError(failure)
  // only the caller's hooks make a ForeignFailure, and the run's `RunContext<E>` types them E;
  // what it carries may have been failed within a span too
  if (error._tag === "ForeignFailure") return Cause.originalError(error.failure) as E
  return error._tag === "ProviderTransportError" ? error : redactError(error, secrets.textForms())
}
