import { Either } from "effect"
import type { BodyReader, HttpPlan, StepPlan } from "../../actionPlan.js"
import { type ExpressionBounds, isTruthy, RecordScope, ValueScope } from "../../evaluate.js"
import type { ProviderResponse } from "../../ProviderTransport.js"
import { CustomProviderError, ProviderHttpError } from "../../RunErrors.js"
import type { RunState } from "../RunState.js"
import { isSuccess } from "../wireValues.js"
import type { BuiltRequest } from "./BuiltRequest.js"

/* Reading a provider's answer: its status (with the connector's `customErrors`) and its body. */

/** A non-2xx answer as an error; its URL, body and headers are redacted when the run ends. */
export const httpError = (
  step: StepPlan | undefined,
  method: string,
  url: string,
  response: ProviderResponse,
  message?: string
): ProviderHttpError => {
  const where = step === undefined ? "" : `step "${step.stepId}": `
  return new ProviderHttpError({
    message: `${where}${message ?? `provider answered ${response.status}`} (${method} ${url.split("?")[0]!})`,
    status: response.status,
    url,
    method,
    body: response.body,
    headers: response.headers,
    stepId: step?.stepId
  })
}

/** `customErrors` first (any status), then any non-2xx status fails. */
export const checkResponse = (
  run: RunState,
  step: StepPlan,
  http: HttpPlan,
  built: BuiltRequest,
  response: ProviderResponse
): Either.Either<ProviderResponse, CustomProviderError | ProviderHttpError> => {
  const url = built.url.toString()
  if (http.customErrors.length > 0) {
    const scope = new RecordScope(run.scope, ["response"]).set({
      status: response.status,
      headers: response.headers,
      body: response.body
    })
    for (const rule of http.customErrors) {
      if (rule.receivedStatus !== response.status) continue
      if (rule.condition !== undefined && !isTruthy(rule.condition(scope))) continue
      const message = rule.message?.(scope)
      return Either.left(
        new CustomProviderError({
          message: typeof message === "string" && message !== "" ? message : `provider answered ${response.status}`,
          targetStatus: rule.targetStatus,
          receivedStatus: response.status,
          url,
          body: response.body,
          stepId: step.stepId
        })
      )
    }
  }
  return isSuccess(response.status) ? Either.right(response) : Either.left(httpError(step, built.method, url, response))
}

/** `response.dataKey` / `nextKey`: a key path or an expression over the body. */
export const readBody = (reader: BodyReader, body: unknown, bounds: ExpressionBounds): unknown => {
  if (reader._tag === "Expression") return reader.evaluate(new ValueScope(body, bounds))
  let current = body
  for (const key of reader.keys) {
    if (!current || !Object.prototype.hasOwnProperty.call(current, key)) return undefined
    current = (current as Record<string, unknown>)[key]
  }
  return current
}
