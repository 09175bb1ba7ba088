/*
 * The typed errors every operation fails (or rejects) with, from the client itself: an
 * installed consumer depends on @switchyard/client only, and a strict node_modules (pnpm)
 * does not let it import the client's own dependency @switchyard/api.
 */
export {
  type ApiError,
  BadGateway,
  BadRequest,
  Conflict,
  Forbidden,
  Gone,
  InternalServerError,
  MethodNotAllowed,
  NotFound,
  NotImplemented,
  PayloadTooLarge,
  PreconditionFailed,
  RequestHeaderFieldsTooLarge,
  RequestTimeout,
  TooManyRequests,
  Unauthorized,
  UnprocessableEntity,
  UnsupportedMediaType
} from "@switchyard/api"
