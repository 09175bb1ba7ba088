import {
  type ApiError,
  BadGateway,
  BadRequest,
  Conflict,
  Forbidden,
  InternalServerError,
  NotFound,
  PreconditionFailed,
  RequestTimeout,
  TooManyRequests,
  UnprocessableEntity
} from "@switchyard/api"
import type { ActionError, ActionLimitError, ProviderTransportError } from "@switchyard/engine"
import { Match } from "effect"

const DEFAULT_RETRY_AFTER = 5

const byStatus = (status: number, message: string): ApiError => {
  switch (status) {
    case 400:
      return new BadRequest({ message })
    case 403:
      return new Forbidden({ message })
    case 404:
      return new NotFound({ message })
    case 408:
      return new RequestTimeout({ message, retryAfter: DEFAULT_RETRY_AFTER })
    case 409:
      return new Conflict({ message })
    case 412:
      return new PreconditionFailed({ message })
    case 422:
      return new UnprocessableEntity({ message })
    case 429:
      return new TooManyRequests({ message, retryAfter: DEFAULT_RETRY_AFTER })
    case 500:
      return new InternalServerError({ message })
    default:
      return status >= 500 ? new BadGateway({ message }) : new BadRequest({ message })
  }
}

/** Our own time bounds are a 408; the other run bounds (records, sizes) guard against the provider: 502. */
const isTimeLimit = (limit: ActionLimitError["limit"]) => limit === "actionTimeout" || limit === "stepTimeout"

const fromTransport = (failure: ProviderTransportError, message: string): ApiError => {
  switch (failure.reason) {
    case "timeout":
      return new RequestTimeout({ message, retryAfter: failure.retryAfter ?? DEFAULT_RETRY_AFTER })
    case "rate_limited":
      return new TooManyRequests({ message, retryAfter: failure.retryAfter ?? DEFAULT_RETRY_AFTER })
    case "unreachable":
    case "too_large":
    case "unavailable":
    case "invalid_response":
      return new BadGateway({ message })
  }
}

/**
 * Maps an action failure (already redacted) to the documented errors, one case per engine
 * failure (the compiler checks that every tag and transport reason has one): provider 4xx →
 * 400 with `data` and `provider_errors`; provider 5xx or unreachable → 502; our deadline → 408
 * and provider 429 after retries → 429, both with Retry-After.
 */
export const actionFailureToApiError = (failure: ActionError): ApiError => {
  const message = failure.message
  return Match.value(failure).pipe(
    Match.tagsExhaustive({
      ActionInputError: (): ApiError => new BadRequest({ message }),
      ProviderHttpError: (failure): ApiError => {
        const { headers, status, url } = failure
        if (status >= 500) return new BadGateway({ message: `Provider error: ${status} from ${url}` })
        return new BadRequest({
          message: `Provider rejected the request: ${status} from ${url}`,
          data: { statusCode: status, message, headers },
          provider_errors: [{ status, url, raw: failure.body, headers }]
        })
      },
      ProviderTransportError: (failure) => fromTransport(failure, message),
      CustomProviderError: (failure) => byStatus(failure.targetStatus, message),
      ActionLimitError: (failure): ApiError =>
        isTimeLimit(failure.limit)
          ? new RequestTimeout({ message, retryAfter: DEFAULT_RETRY_AFTER })
          : new BadGateway({ message }),
      ActionDefinitionError: (): ApiError => new InternalServerError({ message: `Connector action failed: ${message}` })
    })
  )
}
