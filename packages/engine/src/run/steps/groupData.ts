import { Effect, Either } from "effect"
import type { StepPlan } from "../../actionPlan.js"
import type { ActionError } from "../../RunErrors.js"
import type { RunState, StepOutput } from "../RunState.js"
import { isRecord } from "../wireValues.js"
import type { StepKindOf } from "./StepInterpreter.js"

/**
 * `group_data`: the outputs of earlier steps side by side, one record per index (or one
 * record keyed by step id when `isSingleRecord`).
 */
export const groupData = (run: RunState, step: StepPlan, kind: StepKindOf<"group_data">): Effect.Effect<StepOutput, ActionError> =>
  run.attempt(step, (): Either.Either<StepOutput, ActionError> => {
    const sources = kind.stepIds.map((id) => {
      const state = run.steps[id]
      const output = isRecord(state) && isRecord(state.output) ? state.output : undefined
      return [id, output?.data] as const
    })
    if (kind.isSingleRecord) return Either.right({ data: Object.fromEntries(sources) })
    const length = Math.max(1, ...sources.map(([, data]) => (Array.isArray(data) ? data.length : 1)))
    if (length > run.limits.maxRecords) return Either.left(run.tooManyRecords(step, length))
    const data = Array.from({ length }, (_, index) => {
      const record: Record<string, unknown> = {}
      for (const [id, value] of sources) record[id] = Array.isArray(value) ? value[index] : value
      return record
    })
    return Either.right({ data })
  })
