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
import type { ProviderResponse } from "@switchyard/engine"
import { redactHeaders, redactValue } from "../Provider/Redaction.js"

/** A failure of an action run, as the engine reports it (by tag). */
export interface EngineFailure {
  readonly _tag: string
  readonly message: string
  readonly status?: number
  readonly url?: string
  readonly body?: unknown
  readonly headers?: Readonly<Record<string, string>>
  readonly reason?: string
  readonly retryAfter?: number | undefined
  readonly response?: ProviderResponse | undefined
  readonly targetStatus?: number
}

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

/**
 * Maps an action failure to the documented errors: provider 4xx → 400 with `data` and
 * `provider_errors`; provider 5xx or unreachable → 502; our deadline → 408 and provider
 * 429 after retries → 429, both with Retry-After. Every value is redacted with `secrets`.
 */
export const toApiError = (failure: EngineFailure, secrets: ReadonlyArray<string>): ApiError => {
  const message = String(redactValue(failure.message, secrets))
  switch (failure._tag) {
    case "ActionInputError":
      return new BadRequest({ message })
    case "ProviderHttpError": {
      const status = failure.status ?? 502
      const headers = redactHeaders(failure.headers ?? {}, secrets)
      const url = String(redactValue(failure.url ?? "", secrets))
      if (status >= 500) return new BadGateway({ message: `Provider error: ${status} from ${url}` })
      return new BadRequest({
        message: `Provider rejected the request: ${status} from ${url}`,
        data: { statusCode: status, message, headers },
        provider_errors: [{ status, url, raw: redactValue(failure.body, secrets), headers }]
      })
    }
    case "ProviderTransportError":
      switch (failure.reason) {
        case "timeout":
          return new RequestTimeout({ message, retryAfter: failure.retryAfter ?? DEFAULT_RETRY_AFTER })
        case "rate_limited":
          return new TooManyRequests({ message, retryAfter: failure.retryAfter ?? DEFAULT_RETRY_AFTER })
        default:
          return new BadGateway({ message })
      }
    case "CustomProviderError":
      return byStatus(failure.targetStatus ?? 502, message)
    case "ActionLimitError":
      return message.includes("time")
        ? new RequestTimeout({ message, retryAfter: DEFAULT_RETRY_AFTER })
        : new BadGateway({ message })
    default:
      return new InternalServerError({ message: `Connector action failed: ${message}` })
  }
}
