import type { Effect } from "effect"
import type { StepPlan } from "../../actionPlan.js"
import type { ActionError } from "../../RunErrors.js"
import type { RunState, StepOutput } from "../RunState.js"
import type { StepKindOf } from "./StepInterpreter.js"

/** `static_values`: the connector's values, evaluated. */
export const staticValues = (run: RunState, step: StepPlan, kind: StepKindOf<"static_values">): Effect.Effect<StepOutput, ActionError> =>
  run.evaluate(step, () => ({ data: kind.values(run.scope) }))
