import { Duration, Effect } from "effect"
import { validateInputs } from "./actionInputs.js"
import { planAction, planConnector } from "./actionPlan.js"
import { credentialSecrets } from "./credentialSecrets.js"
import type { ParsedConnector } from "./parseConnector.js"
import { ProviderTransport } from "./ProviderTransport.js"
import { actionResult } from "./run/actionResult.js"
import { failureLeavingRun } from "./run/failureLeavingRun.js"
import { type ActionOutput, type RunContext, resolveLimits } from "./run/RunLimits.js"
import { RunSecrets } from "./run/RunSecrets.js"
import { RunState } from "./run/RunState.js"
import { runStep } from "./run/runStep.js"
import { type ActionError, ActionLimitError } from "./RunErrors.js"

export { type ActionOutput, defaultRunLimits, type RunContext, type RunLimits } from "./run/RunLimits.js"

/*
 * The action runner: validates inputs, runs the compiled plan's steps in order through the
 * step interpreters (`run/steps/`), and evaluates the result. Every run is bounded (step and
 * action deadlines, pages, records, response and expression sizes); its failures are
 * tagged `ActionError`s, redacted once on the way out.
 */

/**
 * Runs one action of a connector version against the provider transport.
 *
 * Inputs are validated first (`ActionInputError`); steps run in order; `result.data` and
 * `result.next` are evaluated at the end (a list action always answers an array). The
 * whole run is bounded by `limits.actionTimeoutMs`, each step by `limits.stepTimeoutMs`.
 * A failure of the caller's hooks (`E`, see `ForeignFailure`) fails the run as it is.
 */
export const runAction = <E = never>(
  parsed: ParsedConnector,
  actionId: string,
  inputs: Readonly<Record<string, unknown>>,
  context: RunContext<E>
): Effect.Effect<ActionOutput, ActionError | E, ProviderTransport> => {
  const limits = resolveLimits(context.limits)
  const secrets = new RunSecrets(credentialSecrets(parsed, context.credentials))
  return Effect.gen(function*() {
    const plan = yield* planAction(parsed, actionId)
    const validated = yield* validateInputs(plan.action, inputs)
    const transport = yield* ProviderTransport
    const run = new RunState(parsed, planConnector(parsed), plan, validated, context, limits, transport, secrets)
    for (const step of plan.steps) yield* runStep(run, step)
    return yield* actionResult(run)
  }).pipe(
    Effect.timeoutFail({
      duration: Duration.millis(limits.actionTimeoutMs),
      onTimeout: () =>
        new ActionLimitError({
          limit: "actionTimeout",
          message: `action "${actionId}" took longer than ${limits.actionTimeoutMs} ms (actionTimeoutMs)`
        })
    }),
    Effect.withSpan("switchyard.action", {
      captureStackTrace: false,
      attributes: { "connector.key": parsed.definition.info.key, "action.id": actionId }
    }),
    // the run's boundary: nothing it reports carries a credential
    Effect.mapError((failure) => failureLeavingRun<E>(failure, secrets))
  )
}
