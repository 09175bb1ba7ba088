import { Effect, Either } from "effect"
import type { StepPlan } from "../../actionPlan.js"
import type { RunFailure } from "../../RunErrors.js"
import { buildRequest } from "../http/buildRequest.js"
import { checkResponse, readBody } from "../http/providerAnswers.js"
import { sendRequest } from "../http/sendRequest.js"
import { stepAnswer } from "../http/xmlAnswer.js"
import type { RunState, StepOutput } from "../RunState.js"
import { isEmptyCursor } from "../wireValues.js"
import type { StepKindOf } from "./StepInterpreter.js"

/** `request`: one call; `data` and `next` read from the answer by `dataKey` / `nextKey`. */
export const httpRequest = (run: RunState, step: StepPlan, { http }: StepKindOf<"request">): Effect.Effect<StepOutput, RunFailure> =>
  Effect.gen(function*() {
    const built = yield* run.attempt(step, () => buildRequest(run, step, http, { method: "GET", proxy: true }))
    const response = yield* Effect.flatMap(sendRequest(run, step, built), (sent) => stepAnswer(run, step, http, built, sent))
    return yield* run.attempt(step, () =>
      Either.map(checkResponse(run, step, http, built, response), (): StepOutput => {
        const data = http.dataKey === undefined ? response.body : readBody(http.dataKey, response.body, run.bounds)
        const next = http.nextKey === undefined ? undefined : readBody(http.nextKey, response.body, run.bounds)
        return { data, next: isEmptyCursor(next) ? undefined : next, status: response.status, headers: response.headers }
      }))
  }).pipe(run.stepDeadline(step))
