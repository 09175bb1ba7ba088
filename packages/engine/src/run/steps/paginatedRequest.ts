import { Effect, Either } from "effect"
import type { StepPlan } from "../../actionPlan.js"
import type { RunFailure } from "../../RunErrors.js"
import { buildRequest } from "../http/buildRequest.js"
import { checkResponse, readBody } from "../http/providerAnswers.js"
import { sendRequest } from "../http/sendRequest.js"
import { stepAnswer } from "../http/xmlAnswer.js"
import { acceptsStartCursor, canFollow, cursorStrategyOf, requestForPage } from "../pagination/CursorStrategy.js"
import type { RunState, StepOutput } from "../RunState.js"
import { isEmptyCursor } from "../wireValues.js"
import type { StepKindOf } from "./StepInterpreter.js"

/**
 * `paginated_request`: follows the provider's cursor page by page, collecting the records,
 * until the cursor runs out, repeats itself, or `maxPages` is reached (then the cursor is
 * the step's `next`). The step deadline applies per page; the action deadline bounds the whole.
 */
export const paginatedRequest = (
  run: RunState,
  step: StepPlan,
  kind: StepKindOf<"paginated_request">
): Effect.Effect<StepOutput, RunFailure> =>
  Effect.gen(function*() {
    const { http, iterator } = kind
    const strategy = cursorStrategyOf(iterator)
    const { initial, maxPages } = yield* run.evaluate(step, () => {
      const own = kind.maxPages === undefined ? undefined : Number(kind.maxPages(run.scope))
      const maxPages = own !== undefined && Number.isFinite(own) && own >= 1
        ? Math.min(Math.floor(own), run.limits.maxPages)
        : run.limits.maxPages
      const given = run.plan.declaresCursor ? run.inputs.cursor : undefined
      const initial = iterator?.value !== undefined
        ? iterator.value(run.scope)
        : acceptsStartCursor(strategy, given)
        ? given
        : undefined
      return { maxPages, initial }
    })
    const records: Array<unknown> = []
    const seen = new Set<string>()
    const cursorKey = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value))
    let cursor: unknown = isEmptyCursor(initial) ? undefined : initial
    if (cursor !== undefined) seen.add(cursorKey(cursor))
    let pages = 0
    let lastStatus = 0
    let lastHeaders: Readonly<Record<string, string>> = {}
    for (;;) {
      const page = cursor
      const built = yield* run.attempt(step, () =>
        Either.flatMap(
          buildRequest(run, step, http, { method: "GET", proxy: true }),
          (first) => page === undefined ? Either.right(first) : requestForPage(run, step, strategy, first, page)
        ))
      const response = yield* sendRequest(run, step, built).pipe(
        run.stepDeadline(step),
        Effect.flatMap((sent) => stepAnswer(run, step, http, built, sent))
      )
      const { data, next } = yield* run.attempt(step, () =>
        Either.map(checkResponse(run, step, http, built, response), () => ({
          data: http.dataKey === undefined ? response.body : readBody(http.dataKey, response.body, run.bounds),
          next: http.nextKey === undefined ? undefined : readBody(http.nextKey, response.body, run.bounds)
        })))
      pages++
      lastStatus = response.status
      lastHeaders = response.headers
      const received = Array.isArray(data) ? data : data === undefined || data === null ? [] : [data]
      if (records.length + received.length > run.limits.maxRecords) {
        return yield* Effect.fail(run.tooManyRecords(step, records.length + received.length))
      }
      for (const item of received) records.push(item)
      // an empty cursor, or one the provider already gave (it would loop), ends the list
      if (isEmptyCursor(next) || seen.has(cursorKey(next))) {
        cursor = undefined
        break
      }
      seen.add(cursorKey(next))
      cursor = next
      if (pages >= maxPages || !canFollow(strategy, next)) break
    }
    return { data: records, next: cursor, pages, status: lastStatus, headers: lastHeaders }
  })
