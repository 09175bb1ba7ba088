import { HttpApi, OpenApi } from "@effect/platform"
import { AccountsGroup } from "./Accounts.js"
import { ApiKeysGroup } from "./ApiKeys.js"
import { ActionsGroup } from "./Actions.js"
import { API_INTRODUCTION } from "./ApiIntroduction.js"
import { ConnectorProfilesGroup } from "./ConnectorProfiles.js"
import { ConnectorsGroup } from "./Connectors.js"
import { ConnectSessionsGroup } from "./ConnectSessions.js"
import {
  BadGatewayBody,
  BadRequestBody,
  ConflictBody,
  ForbiddenBody,
  GoneBody,
  InternalServerErrorBody,
  MethodNotAllowedBody,
  NotFoundBody,
  NotImplementedBody,
  PayloadTooLargeBody,
  PreconditionFailedBody,
  RequestHeaderFieldsTooLargeBody,
  RequestTimeoutBody,
  TooManyRequestsBody,
  UnauthorizedBody,
  UnprocessableEntityBody,
  UnsupportedMediaTypeBody
} from "./Errors.js"
import { documentDecodeErrorsAsBadRequest } from "./OpenApiFixes.js"
import { RequestLogsGroup } from "./RequestLogs.js"
import { SystemGroup } from "./System.js"
import { UnifiedAtsGroup } from "./Unified/Ats.js"
import { documentOpenUnifiedRequestBodies } from "./Unified/Common.js"
import { UnifiedHrisGroup } from "./Unified/Hris.js"
import { UnifiedLmsGroup } from "./Unified/Lms.js"
import { UnifiedProxyGroup } from "./Unified/Proxy.js"
import { WebhooksGroup } from "./Webhooks.js"

/** The whole Switchyard API: the server implements it, the client is derived from it. */
export class Api extends HttpApi.make("switchyard")
  .add(SystemGroup)
  .add(AccountsGroup)
  .add(ConnectorsGroup)
  .add(ConnectorProfilesGroup)
  .add(ActionsGroup)
  .add(ConnectSessionsGroup)
  .add(WebhooksGroup)
  .add(RequestLogsGroup)
  .add(ApiKeysGroup)
  .add(UnifiedAtsGroup)
  .add(UnifiedHrisGroup)
  .add(UnifiedLmsGroup)
  .add(UnifiedProxyGroup)
  .addError(BadRequestBody)
  .addError(UnauthorizedBody)
  .addError(ForbiddenBody)
  .addError(NotFoundBody)
  .addError(RequestTimeoutBody)
  .addError(MethodNotAllowedBody)
  .addError(ConflictBody)
  .addError(GoneBody)
  .addError(PreconditionFailedBody)
  .addError(PayloadTooLargeBody)
  .addError(UnsupportedMediaTypeBody)
  .addError(UnprocessableEntityBody)
  .addError(TooManyRequestsBody)
  .addError(RequestHeaderFieldsTooLargeBody)
  .addError(InternalServerErrorBody)
  .addError(NotImplementedBody)
  .addError(BadGatewayBody)
  .annotate(OpenApi.Title, "Switchyard")
  // No OpenApi.Version here: the server sets its package's version where it serves the
  // document (server/src/app/HttpApiLive.ts), read from its package.json when the bundle is built. Read
  // here, it would be a JSON import at run time in this package's dist/, for every client.
  .annotate(OpenApi.Description, API_INTRODUCTION)
  .annotate(OpenApi.Transform, (spec) => documentOpenUnifiedRequestBodies(documentDecodeErrorsAsBadRequest(spec)))
{}
