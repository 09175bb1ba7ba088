import { type ApiError, Conflict, NotFound, UnprocessableEntity } from "@switchyard/api"
import { Match } from "effect"
import type { ConnectorProfileError } from "./ConnectorProfiles/ConnectorProfileErrors.js"

/** Every failure a service reports to a caller; defects and SQL faults are not among them. */
export type DomainError = ConnectorProfileError

/**
 * The one place domain failures become the documented API errors: a status per tag (the
 * compiler checks that every tag has one), the message as the error states it.
 */
export const toApiError = (error: DomainError): ApiError =>
  Match.value(error).pipe(
    Match.tagsExhaustive({
      ConnectorProfileNotFound: ({ message }): ApiError => new NotFound({ message }),
      ConnectorProfileInUse: ({ message }): ApiError => new Conflict({ message }),
      InvalidConnectorProfile: ({ message }): ApiError => new UnprocessableEntity({ message })
    })
  )
