import {
  type ApiError,
  BadRequest,
  Conflict,
  Forbidden,
  NotFound,
  PreconditionFailed,
  UnprocessableEntity
} from "@switchyard/api"
import { Match } from "effect"
import type { AccountError } from "./Accounts/AccountErrors.js"
import type { ConnectorProfileError } from "./ConnectorProfiles/ConnectorProfileErrors.js"
import type { ConnectorError } from "./Connectors/ConnectorErrors.js"

/** Every failure a service reports to a caller; defects and SQL faults are not among them. */
export type DomainError = AccountError | ConnectorError | ConnectorProfileError

/**
 * The one place domain failures become the documented API errors: a status per tag (the
 * compiler checks that every tag has one), the message as the error states it.
 */
export const toApiError = (error: DomainError): ApiError =>
  Match.value(error).pipe(
    Match.tagsExhaustive({
      AccountNotFound: ({ message }): ApiError => new NotFound({ message }),
      AccountBlocked: ({ message }): ApiError => new PreconditionFailed({ message }),
      AccountIntegrationDisabled: ({ message }): ApiError => new PreconditionFailed({ message }),
      AccountConnectorGone: ({ message }): ApiError => new PreconditionFailed({ message }),
      InvalidAccountRequest: ({ message }): ApiError => new UnprocessableEntity({ message }),
      InvalidAccountSetting: ({ message }): ApiError => new BadRequest({ message }),
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
      InvalidConnectorProfile: ({ message }): ApiError => new UnprocessableEntity({ message })
    })
  )
