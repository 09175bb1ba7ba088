import { HttpApiSchema } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import {
  BadGateway,
  BadGatewayBody,
  BadRequest,
  BadRequestBody,
  Conflict,
  ConflictBody,
  Forbidden,
  ForbiddenBody,
  Gone,
  GoneBody,
  InternalServerError,
  InternalServerErrorBody,
  NotFound,
  NotFoundBody,
  NotImplemented,
  NotImplementedBody,
  PreconditionFailed,
  PreconditionFailedBody,
  RequestTimeout,
  RequestTimeoutBody,
  TooManyRequests,
  TooManyRequestsBody,
  Unauthorized,
  UnauthorizedBody,
  UnprocessableEntity,
  UnprocessableEntityBody
} from "../src/Errors.js"

type WireSchema = Schema.Schema<any, Record<string, unknown>>

interface Row {
  readonly tag: string
  readonly status: number
  readonly make: (fields: { readonly message: string; readonly timestamp?: string }) => {
    readonly _tag: string
    readonly statusCode: number
    readonly message: string
    readonly timestamp: string
  }
  readonly errorClass: new(...args: ReadonlyArray<any>) => unknown
  readonly body: WireSchema
}

const row = <C extends new(fields: any) => any>(
  tag: string,
  status: number,
  errorClass: C,
  body: Schema.Schema<any, Record<string, unknown>>
): Row => ({ tag, status, make: (fields) => new errorClass(fields), errorClass, body })

/** Every documented status (spec, Errors) with its class and wire schema. */
const table: ReadonlyArray<Row> = [
  row("BadRequest", 400, BadRequest, BadRequestBody),
  row("Unauthorized", 401, Unauthorized, UnauthorizedBody),
  row("Forbidden", 403, Forbidden, ForbiddenBody),
  row("NotFound", 404, NotFound, NotFoundBody),
  row("RequestTimeout", 408, RequestTimeout, RequestTimeoutBody),
  row("Conflict", 409, Conflict, ConflictBody),
  row("Gone", 410, Gone, GoneBody),
  row("PreconditionFailed", 412, PreconditionFailed, PreconditionFailedBody),
  row("UnprocessableEntity", 422, UnprocessableEntity, UnprocessableEntityBody),
  row("TooManyRequests", 429, TooManyRequests, TooManyRequestsBody),
  row("InternalServerError", 500, InternalServerError, InternalServerErrorBody),
  row("NotImplemented", 501, NotImplemented, NotImplementedBody),
  row("BadGateway", 502, BadGateway, BadGatewayBody)
]

const FIXED_TIME = "2024-05-06T07:08:09.010Z"

describe("error wire schemas", () => {
  it("cover the thirteen documented statuses, each once", () => {
    expect(table.map(({ status }) => status)).toEqual([400, 401, 403, 404, 408, 409, 410, 412, 422, 429, 500, 501, 502])
    expect(new Set(table.map(({ tag }) => tag)).size).toBe(13)
  })

  describe.each(table)("$tag ($status)", ({ body, errorClass, make, status, tag }) => {
    it("constructs with its status code, tag and a current ISO timestamp", () => {
      const before = Date.now()
      const error = make({ message: "boom" })
      expect(error).toBeInstanceOf(errorClass)
      expect(error).toBeInstanceOf(Error)
      expect(error._tag).toBe(tag)
      expect(error.statusCode).toBe(status)
      expect(error.message).toBe("boom")
      expect(new Date(error.timestamp).toISOString()).toBe(error.timestamp)
      expect(Date.parse(error.timestamp)).toBeGreaterThanOrEqual(before)
      expect(Date.parse(error.timestamp)).toBeLessThanOrEqual(Date.now())
    })

    it("encodes to exactly {statusCode, message, timestamp}", () => {
      const encoded = Schema.encodeSync(body)(make({ message: "x", timestamp: FIXED_TIME }))
      expect(encoded).toStrictEqual({ statusCode: status, message: "x", timestamp: FIXED_TIME })
      expect(Object.keys(encoded)).not.toContain("_tag")
      expect(JSON.parse(JSON.stringify(encoded))).toStrictEqual(encoded)
    })

    it("decodes a wire body back into the class, tag restored", () => {
      const wire = { statusCode: status, message: "from the wire", timestamp: FIXED_TIME }
      const decoded = Schema.decodeUnknownSync(body)(wire)
      expect(decoded).toBeInstanceOf(errorClass)
      expect(decoded._tag).toBe(tag)
      expect(decoded.statusCode).toBe(status)
      expect(decoded.message).toBe("from the wire")
      expect(decoded.timestamp).toBe(FIXED_TIME)
    })

    it("round-trips through JSON", () => {
      const original = make({ message: "round trip", timestamp: FIXED_TIME })
      const wire = JSON.parse(JSON.stringify(Schema.encodeSync(body)(original)))
      const decoded = Schema.decodeUnknownSync(body)(wire)
      expect(decoded).toBeInstanceOf(errorClass)
      expect({ ...decoded }).toStrictEqual({ ...original })
      expect(Schema.encodeSync(body)(decoded)).toStrictEqual(wire)
    })

    it("rejects a body of another status, or missing a field", () => {
      const other = status === 404 ? 400 : 404
      const decode = Schema.decodeUnknownEither(body)
      expect(Either.isLeft(decode({ statusCode: other, message: "m", timestamp: FIXED_TIME }))).toBe(true)
      expect(Either.isLeft(decode({ statusCode: status, timestamp: FIXED_TIME }))).toBe(true)
      expect(Either.isLeft(decode({ statusCode: status, message: "m" }))).toBe(true)
      expect(Either.isLeft(decode({ statusCode: String(status), message: "m", timestamp: FIXED_TIME }))).toBe(true)
      expect(Either.isLeft(decode("not an object"))).toBe(true)
    })

    it("carries its HTTP status as the HttpApi error status", () => {
      expect(HttpApiSchema.getStatusError(body)).toBe(status)
    })

    it("is not decoded by another status's schema", () => {
      const wire = Schema.encodeSync(body)(make({ message: "only mine", timestamp: FIXED_TIME }))
      for (const other of table) {
        if (other.tag === tag) continue
        expect({ other: other.tag, ok: Either.isRight(Schema.decodeUnknownEither(other.body)(wire)) })
          .toEqual({ other: other.tag, ok: false })
      }
    })
  })

  describe.each([
    {
      tag: "RequestTimeout",
      make: (retryAfter: number) => new RequestTimeout({ message: "slow", retryAfter, timestamp: FIXED_TIME }),
      body: RequestTimeoutBody,
      status: 408
    },
    {
      tag: "TooManyRequests",
      make: (retryAfter: number) => new TooManyRequests({ message: "busy", retryAfter, timestamp: FIXED_TIME }),
      body: TooManyRequestsBody,
      status: 429
    }
  ] as const)("$tag with retryAfter", ({ body, make, status }) => {
    it("keeps retryAfter on the error but leaves it out of the body (it is a header)", () => {
      const error = make(30)
      expect(error.retryAfter).toBe(30)
      const encoded = Schema.encodeSync(body as WireSchema)(error)
      expect(encoded).toStrictEqual({ statusCode: status, message: error.message, timestamp: FIXED_TIME })
      expect("retryAfter" in encoded).toBe(false)
      const decoded = Schema.decodeUnknownSync(body as WireSchema)(encoded)
      expect(decoded.retryAfter).toBeUndefined()
    })

    it("ignores a retryAfter found in a body", () => {
      const decoded = Schema.decodeUnknownSync(body as WireSchema)({
        statusCode: status,
        message: "m",
        timestamp: FIXED_TIME,
        retryAfter: 5
      })
      expect(decoded.retryAfter).toBeUndefined()
    })
  })

  describe("BadRequest with provider details", () => {
    const data = { statusCode: 422, message: "Provider rejected the call", headers: { "x-request-id": "abc" } }
    const provider_errors = [
      {
        status: 422,
        url: "https://provider.example/api/jobs",
        raw: { error: "invalid job" },
        headers: { "content-type": "application/json" }
      }
    ]

    it("keeps data and provider_errors in the body", () => {
      const encoded = Schema.encodeSync(BadRequestBody)(
        new BadRequest({ message: "Provider error", timestamp: FIXED_TIME, data, provider_errors })
      )
      expect(encoded).toStrictEqual({
        statusCode: 400,
        message: "Provider error",
        timestamp: FIXED_TIME,
        data,
        provider_errors
      })
    })

    it("decodes them back", () => {
      const decoded = Schema.decodeUnknownSync(BadRequestBody)({
        statusCode: 400,
        message: "Provider error",
        timestamp: FIXED_TIME,
        data,
        provider_errors
      })
      expect(decoded).toBeInstanceOf(BadRequest)
      expect(decoded._tag).toBe("BadRequest")
      expect(decoded.data).toStrictEqual(data)
      expect(decoded.provider_errors).toStrictEqual(provider_errors)
    })

    it("omits them when absent", () => {
      const encoded = Schema.encodeSync(BadRequestBody)(new BadRequest({ message: "plain", timestamp: FIXED_TIME }))
      expect(Object.keys(encoded).sort()).toEqual(["message", "statusCode", "timestamp"])
    })

    it("rejects malformed provider details", () => {
      const decode = Schema.decodeUnknownEither(BadRequestBody)
      expect(Either.isLeft(decode({ statusCode: 400, message: "m", timestamp: FIXED_TIME, data: { statusCode: 1 } })))
        .toBe(true)
      expect(
        Either.isLeft(decode({ statusCode: 400, message: "m", timestamp: FIXED_TIME, provider_errors: [{ url: "u" }] }))
      ).toBe(true)
    })
  })
})
