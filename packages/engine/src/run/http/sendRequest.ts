import { Effect } from "effect"
import type { StepPlan } from "../../actionPlan.js"
import type { ProviderRequest, ProviderResponse } from "../../ProviderTransport.js"
import { ActionLimitError, type RunFailure } from "../../RunErrors.js"
import { renewStoredToken } from "../auth/renewStoredToken.js"
import { authorization, forgetCachedToken } from "../auth/resolveAuth.js"
import { noAuth, type ResolvedAuth } from "../auth/ResolvedAuth.js"
import type { RunState } from "../RunState.js"
import { byteLength, isSuccess } from "../wireValues.js"
import type { BuiltRequest } from "./BuiltRequest.js"

/**
 * Sends a built request with the run's authentication applied. A 401 on a cached
 * client-credentials token fetches a new token and sends once more; a 401 on the account's
 * stored OAuth2 token asks the caller's `refreshAccessToken` (once per run) and sends once
 * more with its token. A text or binary answer larger than `maxResponseBytes` fails the step.
 */
export const sendRequest = (
  run: RunState,
  step: StepPlan | undefined,
  built: BuiltRequest
): Effect.Effect<ProviderResponse, RunFailure> =>
  Effect.gen(function*() {
    const auth = built.bare === true || built.withoutAuthentication === true ? noAuth : yield* authorization(run)
    let response = yield* sendWith(run, built, auth)
    if (response.status === 401 && auth.cacheKey !== undefined) {
      forgetCachedToken(run, auth)
      response = yield* sendWith(run, built, yield* authorization(run))
    } else if (response.status === 401) {
      const renewed = yield* renewStoredToken(run, auth)
      if (renewed !== undefined) response = yield* sendWith(run, built, renewed)
    }
    if (isSuccess(response.status)) run.answered = { status: response.status, url: run.secrets.redact(built.url.toString()) }
    const size = byteLength(response.body)
    if (size !== undefined && size > run.limits.maxResponseBytes) {
      return yield* Effect.fail(
        new ActionLimitError({
          limit: "maxResponseBytes",
          message: `response of ${size} bytes from ${built.url.origin + built.url.pathname} exceeds ${run.limits.maxResponseBytes} bytes`,
          stepId: step?.stepId
        })
      )
    }
    return response
  })

const sendWith = (run: RunState, built: BuiltRequest, auth: ResolvedAuth) => {
  const url = new URL(built.url)
  for (const [name, value] of auth.query) if (!url.searchParams.has(name)) url.searchParams.append(name, value)
  const request: ProviderRequest = {
    method: built.method,
    url: url.toString(),
    headers: { ...auth.headers, ...built.headers },
    body: built.body,
    responseType: built.responseType,
    ...(built.bare === true ? { foreign: true } : {}),
    secrets: run.secrets.list()
  }
  return run.send(request)
}
