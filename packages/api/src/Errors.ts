import { HttpApiSchema } from "@effect/platform"
import { Schema, Struct } from "effect"

/*
 * One tagged class per documented status. On the wire every error is exactly
 * `{statusCode, message, timestamp}` (400 may add `data` and `provider_errors`):
 * `onTheWire` drops `_tag` (and any header-only field) when encoding and restores
 * it when the client decodes.
 */

const statusCode = <const N extends number>(code: N) =>
  Schema.Literal(code).pipe(Schema.propertySignature, Schema.withConstructorDefault(() => code))

const timestamp = Schema.String.pipe(
  Schema.propertySignature,
  Schema.withConstructorDefault(() => new Date().toISOString())
)

/** Seconds after which the caller may retry; sent as the `Retry-After` header, not in the body. */
const retryAfter = Schema.optional(Schema.Number)

export const ProviderCallSummary = Schema.Struct({
  statusCode: Schema.Number,
  message: Schema.String,
  headers: Schema.Record({ key: Schema.String, value: Schema.String })
})

export const ProviderError = Schema.Struct({
  status: Schema.Number,
  url: Schema.String,
  raw: Schema.Unknown,
  headers: Schema.Record({ key: Schema.String, value: Schema.String })
})

export class BadRequest extends Schema.TaggedError<BadRequest>()("BadRequest", {
  statusCode: statusCode(400),
  message: Schema.String,
  timestamp,
  data: Schema.optional(ProviderCallSummary),
  provider_errors: Schema.optional(Schema.Array(ProviderError))
}) {}

export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", {
  statusCode: statusCode(401),
  message: Schema.String,
  timestamp
}) {}

export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", {
  statusCode: statusCode(403),
  message: Schema.String,
  timestamp
}) {}

export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  statusCode: statusCode(404),
  message: Schema.String,
  timestamp
}) {}

export class RequestTimeout extends Schema.TaggedError<RequestTimeout>()("RequestTimeout", {
  statusCode: statusCode(408),
  message: Schema.String,
  timestamp,
  retryAfter
}) {}

export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()("MethodNotAllowed", {
  statusCode: statusCode(405),
  message: Schema.String,
  timestamp,
  /** The methods the path does allow; sent as the `Allow` header, not in the body. */
  allow: Schema.optional(Schema.Array(Schema.String))
}) {}

export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", {
  statusCode: statusCode(409),
  message: Schema.String,
  timestamp,
  retryAfter
}) {}

/** A resource that existed and is no longer usable (an expired connect session token). */
export class Gone extends Schema.TaggedError<Gone>()("Gone", {
  statusCode: statusCode(410),
  message: Schema.String,
  timestamp
}) {}

export class PreconditionFailed extends Schema.TaggedError<PreconditionFailed>()("PreconditionFailed", {
  statusCode: statusCode(412),
  message: Schema.String,
  timestamp
}) {}

export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PayloadTooLarge", {
  statusCode: statusCode(413),
  message: Schema.String,
  timestamp
}) {}

export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()("UnsupportedMediaType", {
  statusCode: statusCode(415),
  message: Schema.String,
  timestamp
}) {}

export class UnprocessableEntity extends Schema.TaggedError<UnprocessableEntity>()("UnprocessableEntity", {
  statusCode: statusCode(422),
  message: Schema.String,
  timestamp
}) {}

export class TooManyRequests extends Schema.TaggedError<TooManyRequests>()("TooManyRequests", {
  statusCode: statusCode(429),
  message: Schema.String,
  timestamp,
  retryAfter
}) {}

export class RequestHeaderFieldsTooLarge
  extends Schema.TaggedError<RequestHeaderFieldsTooLarge>()("RequestHeaderFieldsTooLarge", {
    statusCode: statusCode(431),
    message: Schema.String,
    timestamp
  })
{}

export class InternalServerError extends Schema.TaggedError<InternalServerError>()("InternalServerError", {
  statusCode: statusCode(500),
  message: Schema.String,
  timestamp
}) {}

export class NotImplemented extends Schema.TaggedError<NotImplemented>()("NotImplemented", {
  statusCode: statusCode(501),
  message: Schema.String,
  timestamp
}) {}

export class BadGateway extends Schema.TaggedError<BadGateway>()("BadGateway", {
  statusCode: statusCode(502),
  message: Schema.String,
  timestamp
}) {}

/**
 * The server cannot serve now (not ready, or shutting down); another process may. Only the
 * readiness probe answers it, so it is not one of `ApiError`, which every handler may fail with.
 */
export class ServiceUnavailable extends Schema.TaggedError<ServiceUnavailable>()("ServiceUnavailable", {
  statusCode: statusCode(503),
  message: Schema.String,
  timestamp
}) {}

/** Fields that never appear in an error body. */
const offTheWire = ["_tag", "retryAfter", "allow"] as const

const onTheWire = <Self extends Schema.Schema.Any & { readonly fields: Schema.Struct.Fields }>(
  self: Self,
  tag: string,
  status: number,
  description: string
): Schema.Schema<Schema.Schema.Type<Self>, Record<string, unknown>, Schema.Schema.Context<Self>> => {
  const wire = Schema.Struct(Struct.omit(self.fields, ...offTheWire))
  const restoreTag = Schema.transform(wire, Schema.encodedSchema(self as Schema.Schema.Any), {
    strict: false,
    decode: (body) => ({ ...body, _tag: tag }),
    encode: (encoded) => Struct.omit(encoded as Record<string, unknown>, ...offTheWire)
  })
  const composed: Schema.Schema.Any = Schema.compose(restoreTag, self as Schema.Schema.Any)
  return composed.annotations(HttpApiSchema.annotations({ status, description, identifier: tag })) as any
}

export const BadRequestBody = onTheWire(BadRequest, "BadRequest", 400, "Bad Request")
export const UnauthorizedBody = onTheWire(Unauthorized, "Unauthorized", 401, "Unauthorized")
export const ForbiddenBody = onTheWire(Forbidden, "Forbidden", 403, "Forbidden resource")
export const NotFoundBody = onTheWire(NotFound, "NotFound", 404, "Not Found")
export const RequestTimeoutBody = onTheWire(RequestTimeout, "RequestTimeout", 408, "Request timed out")
export const MethodNotAllowedBody = onTheWire(MethodNotAllowed, "MethodNotAllowed", 405, "Method not allowed")
export const ConflictBody = onTheWire(Conflict, "Conflict", 409, "Conflict")
export const GoneBody = onTheWire(Gone, "Gone", 410, "Gone")
export const PreconditionFailedBody = onTheWire(
  PreconditionFailed,
  "PreconditionFailed",
  412,
  "Precondition failed"
)
export const PayloadTooLargeBody = onTheWire(PayloadTooLarge, "PayloadTooLarge", 413, "Payload too large")
export const UnsupportedMediaTypeBody = onTheWire(
  UnsupportedMediaType,
  "UnsupportedMediaType",
  415,
  "Unsupported media type"
)
export const UnprocessableEntityBody = onTheWire(
  UnprocessableEntity,
  "UnprocessableEntity",
  422,
  "Unprocessable Entity"
)
export const TooManyRequestsBody = onTheWire(TooManyRequests, "TooManyRequests", 429, "Too many requests")
export const RequestHeaderFieldsTooLargeBody = onTheWire(
  RequestHeaderFieldsTooLarge,
  "RequestHeaderFieldsTooLarge",
  431,
  "Request header fields too large"
)
export const InternalServerErrorBody = onTheWire(
  InternalServerError,
  "InternalServerError",
  500,
  "Internal server error"
)
export const NotImplementedBody = onTheWire(NotImplemented, "NotImplemented", 501, "Not Implemented")
export const BadGatewayBody = onTheWire(BadGateway, "BadGateway", 502, "Bad Gateway")
export const ServiceUnavailableBody = onTheWire(ServiceUnavailable, "ServiceUnavailable", 503, "Service unavailable")

export type ApiError =
  | BadRequest
  | Unauthorized
  | Forbidden
  | NotFound
  | RequestTimeout
  | MethodNotAllowed
  | Conflict
  | Gone
  | PreconditionFailed
  | PayloadTooLarge
  | UnsupportedMediaType
  | UnprocessableEntity
  | TooManyRequests
  | RequestHeaderFieldsTooLarge
  | InternalServerError
  | NotImplemented
  | BadGateway

/** One key per `ApiError` tag: the compiler refuses a missing or unknown one. */
const apiErrorTagRecord: { readonly [Tag in ApiError["_tag"]]: true } = {
  BadRequest: true,
  Unauthorized: true,
  Forbidden: true,
  NotFound: true,
  RequestTimeout: true,
  MethodNotAllowed: true,
  Conflict: true,
  Gone: true,
  PreconditionFailed: true,
  PayloadTooLarge: true,
  UnsupportedMediaType: true,
  UnprocessableEntity: true,
  TooManyRequests: true,
  RequestHeaderFieldsTooLarge: true,
  InternalServerError: true,
  NotImplemented: true,
  BadGateway: true
}

/** The tags of the documented errors, for code that must tell them from other failures. */
export const apiErrorTags: ReadonlySet<string> = new Set([...Object.keys(apiErrorTagRecord), "ServiceUnavailable"])
