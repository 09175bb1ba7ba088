import { Effect } from "effect"
import type { StepPlan } from "../../actionPlan.js"
import { RecordScope } from "../../evaluate.js"
import { mapRange, mapRecord } from "../../mapping.js"
import type { ActionError } from "../../RunErrors.js"
import type { RunState, StepOutput } from "../RunState.js"
import type { StepKindOf } from "./StepInterpreter.js"

/** Records mapped between two yields, so a deadline can interrupt a long mapping. */
const MAP_CHUNK = 2_000

/** `map_fields`: each record of `dataSource` through the field mapping (CPU only, bounded by maxRecords). */
export const mapFields = (run: RunState, step: StepPlan, kind: StepKindOf<"map_fields">): Effect.Effect<StepOutput, ActionError> =>
  Effect.gen(function*() {
    const data = yield* run.evaluate(step, () => kind.dataSource(run.scope))
    const fields = kind.fields
    if (fields === undefined || data === undefined || data === null) return { data }
    const scope = new RecordScope(run.scope, kind.aliases)
    if (!Array.isArray(data)) return { data: yield* run.evaluate(step, () => mapRecord(fields, scope.set(data))) }
    if (data.length > run.limits.maxRecords) return yield* Effect.fail(run.tooManyRecords(step, data.length))
    const out = new Array<unknown>(data.length)
    if (data.length <= MAP_CHUNK) {
      yield* run.evaluate(step, () => mapRange(fields, scope, data, out, 0, data.length))
      return { data: out }
    }
    // long lists map in chunks, yielding in between, so deadlines can interrupt them
    const chunks = Effect.gen(function*() {
      for (let from = 0; from < data.length; from += MAP_CHUNK) {
        const to = Math.min(data.length, from + MAP_CHUNK)
        yield* run.evaluate(step, () => mapRange(fields, scope, data, out, from, to))
        if (to < data.length) yield* Effect.yieldNow()
      }
    })
    yield* chunks.pipe(run.stepDeadline(step))
    return { data: out }
  })
