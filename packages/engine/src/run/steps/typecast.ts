import { Effect, Either } from "effect"
import type { StepPlan } from "../../actionPlan.js"
import { coercionFor } from "../../coerce.js"
import type { ActionError } from "../../RunErrors.js"
import type { RunState, StepOutput } from "../RunState.js"
import { isRecord } from "../wireValues.js"
import type { StepKindOf } from "./StepInterpreter.js"

/** `typecast`: the named fields of each record coerced to their declared types. */
export const typecast = (run: RunState, step: StepPlan, kind: StepKindOf<"typecast">): Effect.Effect<StepOutput, ActionError> =>
  run.attempt(step, () => {
    const data = kind.dataSource(run.scope)
    const casts = kind.fields.map((field) => ({ key: field.key, coerce: coercionFor(field.type) }))
    const cast = (record: unknown): unknown => {
      if (!isRecord(record)) return record
      const out = { ...record }
      for (const { coerce, key } of casts) if (Object.prototype.hasOwnProperty.call(out, key)) out[key] = coerce(out[key])
      return out
    }
    if (!Array.isArray(data)) return Either.right({ data: cast(data) })
    if (data.length > run.limits.maxRecords) return Either.left(run.tooManyRecords(step, data.length))
    return Either.right({ data: data.map(cast) })
  })
