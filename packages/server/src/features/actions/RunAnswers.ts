import { Context } from "effect"
import type { ActionRunError } from "./ActionRunErrors.js"

/**
 * How a failed run is answered to its caller: the status and message the request log keeps.
 * The mapping from failures to the documented API errors is the edge's (`toApiError`), so the
 * app provides it (`RunAnswersLive`) and the runner only asks.
 */
export class RunAnswers extends Context.Tag("Switchyard/RunAnswers")<RunAnswers, {
  readonly answerOf: (failure: ActionRunError) => { readonly status: number; readonly message: string }
}>() {}
