import {
  type ApiError,
  BadGateway,
  BadRequest,
  Conflict,
  Forbidden,
  Gone,
  NotFound,
  NotImplemented,
  PreconditionFailed,
  Unauthorized,
  UnprocessableEntity
} from "@switchyard/api"
import { Layer, Match } from "effect"
import { RunAnswers } from "../features/actions/RunAnswers.js"
import type { AccountError } from "../features/accounts/AccountErrors.js"
import type { ApiKeyError } from "../features/auth/ApiKeyErrors.js"
import type { DashboardSessionError } from "../features/auth/DashboardSessionErrors.js"
import { actionFailureToApiError } from "./actionFailureToApiError.js"
import type { ActionRunError } from "../features/actions/ActionRunErrors.js"
import type { ConnectSessionError } from "../features/connectSessions/ConnectSessionErrors.js"
import type { ConnectorProfileError } from "../features/connectorProfiles/ConnectorProfileErrors.js"
import type { ConnectorError } from "../features/connectors/ConnectorErrors.js"
import type { RequestLogError } from "../features/requestLogs/RequestLogErrors.js"
import type { UnifiedError } from "../features/unified/UnifiedErrors.js"
import type { WebhookError } from "../features/webhooks/WebhookErrors.js"

/** Every failure a service reports to a caller; defects and SQL faults are not among them. */
export type DomainError =
  | AccountError
  | ApiKeyError
  | DashboardSessionError
  | ActionRunError
  | ConnectSessionError
  | ConnectorError
  | ConnectorProfileError
  | RequestLogError
  | UnifiedError
  | WebhookError

/**
 * The one place domain failures become the documented API errors: a status per tag (the
 * compiler checks that every tag has one), the message as the error states it. The engine's
 * run failures have their own mapping (`actionFailureToApiError`).
 */
export const toApiError = (error: DomainError): ApiError =>
  Match.value(error).pipe(
    Match.tagsExhaustive({
      AccountNotFound: ({ message }): ApiError => new NotFound({ message }),
      AccountBlocked: ({ message }): ApiError => new PreconditionFailed({ message }),
      AccountIntegrationDisabled: ({ message }): ApiError => new PreconditionFailed({ message }),
      AccountConnectorGone: ({ message }): ApiError => new PreconditionFailed({ message }),
      InvalidAccountRequest: ({ message }): ApiError => new UnprocessableEntity({ message }),
      InvalidAccountCredentials: ({ message }): ApiError => new BadRequest({ message }),
      InvalidAccountSetting: ({ message }): ApiError => new BadRequest({ message }),
      ActionNotEnabled: ({ message }): ApiError => new Forbidden({ message }),
      IdempotencyConflict: ({ message, retryAfterSeconds }): ApiError =>
        new Conflict({ message, retryAfter: retryAfterSeconds }),
      IdempotencyKeyReused: ({ message }): ApiError => new UnprocessableEntity({ message }),
      AnswerMisfit: ({ message }): ApiError => new BadGateway({ message }),
      ConnectorNotFound: ({ message }): ApiError => new NotFound({ message }),
      ActionNotFound: ({ message }): ApiError => new NotFound({ message }),
      BuiltinConnectorReadOnly: ({ message }): ApiError => new Forbidden({ message }),
      ConnectorUsedByProfiles: ({ message }): ApiError => new Conflict({ message }),
      ConnectorPinnedByAccounts: ({ message }): ApiError => new Conflict({ message }),
      ConnectorConflict: ({ message }): ApiError => new Conflict({ message }),
      InvalidConnectorId: ({ message }): ApiError => new BadRequest({ message }),
      InvalidConnectorQuery: ({ message }): ApiError => new BadRequest({ message }),
      InvalidConnectorSource: ({ message }): ApiError => new UnprocessableEntity({ message }),
      ConnectorProfileNotFound: ({ message }): ApiError => new NotFound({ message }),
      ConnectorProfileInUse: ({ message }): ApiError => new Conflict({ message }),
      InvalidConnectorProfile: ({ message }): ApiError => new UnprocessableEntity({ message }),
      ConnectSessionNotFound: ({ message }): ApiError => new NotFound({ message }),
      ConnectTokenUnknown: ({ message }): ApiError => new Unauthorized({ message }),
      ConnectSessionGone: ({ message }): ApiError => new Gone({ message }),
      InvalidConnectSessionRequest: ({ message }): ApiError => new UnprocessableEntity({ message }),
      InvalidConnectLink: ({ message }): ApiError => new BadRequest({ message }),
      ConnectCredentialsRefused: (refused): ApiError => {
        // the provider's 4xx is the end user's to fix (400 with its reason); 5xx or unreachable stay 502
        const answer = actionFailureToApiError(refused.failure)
        return answer._tag === "BadRequest" ? new BadRequest({ ...answer, message: refused.message }) : answer
      },
      // a gateway's failure, in the end user's words (the detail went to the request log)
      ConnectProviderUnreachable: ({ message }): ApiError => new BadGateway({ message }),
      OperationNotImplemented: ({ message }): ApiError => new NotImplemented({ message }),
      ProxyNotSupported: ({ message }): ApiError => new NotImplemented({ message }),
      InvalidCursor: ({ message }): ApiError => new BadRequest({ message }),
      RequestLogNotFound: ({ message }): ApiError => new NotFound({ message }),
      InvalidRequestLogCursor: ({ message }): ApiError => new BadRequest({ message }),
      InvalidRequestLogStats: ({ message }): ApiError => new BadRequest({ message }),
      ActionInputError: actionFailureToApiError,
      ProviderHttpError: actionFailureToApiError,
      ProviderTransportError: actionFailureToApiError,
      CustomProviderError: actionFailureToApiError,
      ActionLimitError: actionFailureToApiError,
      ActionDefinitionError: actionFailureToApiError,
      WebhookEndpointNotFound: ({ message }): ApiError => new NotFound({ message }),
      WebhookDeliveryNotFound: ({ message }): ApiError => new NotFound({ message }),
      InvalidWebhookRequest: ({ message }): ApiError => new BadRequest({ message }),
      ApiKeyNotFound: ({ message }): ApiError => new NotFound({ message }),
      InvalidApiKeyRequest: ({ message }): ApiError => new BadRequest({ message }),
      TooManyApiKeys: ({ message }): ApiError => new Conflict({ message }),
      DashboardSignInRefused: ({ message }): ApiError => new Unauthorized({ message })
    })
  )

/** The runner's request log keeps the status and message a failed run is answered with: this mapping's. */
export const RunAnswersLive = Layer.succeed(RunAnswers, {
  answerOf: (failure) => {
    const answer = toApiError(failure)
    return { status: answer.statusCode, message: answer.message }
  }
})
