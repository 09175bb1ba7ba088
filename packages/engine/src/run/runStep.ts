import { Effect, Either } from "effect"
import type { StepPlan } from "../actionPlan.js"
import { isTruthy } from "../evaluate.js"
import type { RunFailure } from "../RunErrors.js"
import { redactError } from "./redactError.js"
import type { RunState } from "./RunState.js"
import { interpret } from "./steps/StepInterpreter.js"

/**
 * Runs one step into the run's `steps` state: skipped when its condition is false; with
 * `ignoreError`, a failure (other than a run bound, or the caller's own) is recorded,
 * redacted, for later steps to read instead of ending the run.
 */
export const runStep = (run: RunState, step: StepPlan): Effect.Effect<void, RunFailure> =>
  Effect.gen(function*() {
    const condition = step.condition
    if (condition !== undefined && !(yield* run.evaluate(step, () => isTruthy(condition(run.scope))))) {
      run.steps[step.stepId] = { skipped: true }
      return
    }
    const outcome = yield* Effect.either(interpret(run, step))
    if (Either.isRight(outcome)) {
      run.steps[step.stepId] = { output: outcome.right }
      run.lastStep = { plan: step, output: outcome.right }
      return
    }
    const error = outcome.left
    // the caller's failure (a claim taken over, an account blocked) is no provider answer to read on
    if (error._tag === "ForeignFailure") return yield* Effect.fail(error)
    const ignorable = step.ignoreError && (error._tag !== "ActionLimitError" || error.limit === "stepTimeout")
    if (!ignorable) return yield* Effect.fail(error)
    const recorded: Record<string, unknown> = { tag: error._tag, message: redactError(error, run.secrets.textForms()).message }
    if (error._tag === "ProviderHttpError") recorded.status = error.status
    if (error._tag === "CustomProviderError") recorded.status = error.targetStatus
    run.steps[step.stepId] = { output: undefined, error: recorded }
  }).pipe(
    Effect.withSpan("switchyard.step", {
      // no call-site stack per span: capturing one cost more than the step's own work
      captureStackTrace: false,
      attributes: { "step.id": step.stepId, "step.function": step.functionName }
    })
  )
