import { type HttpApiEndpoint, HttpApiSchema, HttpServerResponse } from "@effect/platform"
import { Either, ParseResult, Schema } from "effect"
import { compileEncoder, Mismatch } from "./compileEncoder.js"

/**
 * How an endpoint's handler answers a value: through the endpoint's success schema, checked
 * and encoded by an encoder compiled once (see `compileEncoder`), then one `JSON.stringify`.
 */
export interface JsonAnswer {
  /** The success schema as the platform encodes it, when the endpoint has a single JSON one. */
  readonly schema: Schema.Schema.Any | undefined
  /** Why values are left to the platform's `Schema.encode`; undefined when compiled. */
  readonly uncompiled: string | undefined
  /**
   * The JSON body of a value that conforms; undefined when it does not (or has no JSON,
   * like a bigint), so `Schema.encode` must run to say what is wrong.
   */
  readonly json: (value: unknown) => string | undefined
  /**
   * The handler's answer: a conforming value as a finished 200 (the schema's status and
   * content type, as the platform would send it); any other value unchanged, for the
   * platform to encode (its failure names the field, as before), and responses as they are.
   */
  readonly respond: (value: unknown) => unknown
  /**
   * The JSON body of a value (right), or what keeps it from its schema (left, the issues'
   * paths and expectations): for answers whose status is already sent (`Prefer: heartbeat`).
   */
  readonly body: (value: unknown) => Either.Either<string, string>
}

const MAX_ISSUES = 10

/**
 * The issues of a value that `Schema.encode` refuses, by path, without the offending values
 * (a value may be anything the provider sent). An optional field's "Expected undefined" is
 * left out beside the real problem.
 */
const describeMismatch = (error: ParseResult.ParseError) => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const within = (inner: ParseResult.ArrayFormatterIssue, outer: ParseResult.ArrayFormatterIssue) =>
    inner.path.length >= outer.path.length && outer.path.every((segment, i) => segment === inner.path[i])
  const useful = issues.filter((issue) =>
    !(issue.message.startsWith("Expected undefined") && issues.some((other) => other !== issue && within(other, issue)))
  )
  return useful.slice(0, MAX_ISSUES).map(({ message, path }) => {
    const at = message.indexOf(", actual ")
    const expected = (at >= 0 ? message.slice(0, at) : message).replace(/\s+/g, " ")
    return path.length > 0 ? `${path.map(String).join(".")}: ${expected}` : expected
  }).join("; ")
}

const stringify = (value: unknown): Either.Either<string, string> => {
  try {
    const text = JSON.stringify(value)
    return text === undefined ? Either.left("Could not encode to JSON") : Either.right(text)
  } catch {
    return Either.left("Could not encode to JSON")
  }
}

/** The body of a value through the schema's own encoding (or as it is, without a schema). */
const slowBody = (schema: Schema.Schema.Any | undefined) => {
  if (schema === undefined) return stringify
  const encode = Schema.encodeUnknownEither(schema as Schema.Schema<unknown, unknown, never>)
  return (value: unknown): Either.Either<string, string> =>
    Either.match(encode(value), { onLeft: (error) => Either.left(describeMismatch(error)), onRight: stringify })
}

const uncompiled = (schema: Schema.Schema.Any | undefined, reason: string): JsonAnswer => ({
  schema,
  uncompiled: reason,
  json: () => undefined,
  respond: (value) => value,
  body: slowBody(schema)
})

/** The answer of `endpoint`, built once when its handler is registered. */
export const jsonAnswer = (endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps): JsonAnswer => {
  const schemas = new Set<Schema.Schema.Any>()
  HttpApiSchema.deunionize(schemas, endpoint.successSchema)
  const [schema, ...others] = schemas
  if (schema === undefined || others.length > 0) return uncompiled(undefined, "more than one success schema")
  if (HttpApiSchema.isVoid(schema.ast)) return uncompiled(schema, "no body")
  const encoding = HttpApiSchema.getEncoding(schema.ast)
  if (encoding.kind !== "Json") return uncompiled(schema, `${encoding.kind} encoding`)
  const compiled = compileEncoder(schema)
  if (Either.isLeft(compiled)) return uncompiled(schema, compiled.left)
  const encode = compiled.right
  const options = { status: HttpApiSchema.getStatusSuccess(schema), contentType: encoding.contentType }
  const slow = slowBody(schema)
  const json = (value: unknown): string | undefined => {
    const encoded = encode(value)
    if (encoded === Mismatch) return undefined
    try {
      return JSON.stringify(encoded)
    } catch {
      // cycles and bigints: the platform's own JSON step fails on them with its own answer
      return undefined
    }
  }
  return {
    schema,
    uncompiled: undefined,
    json,
    respond: (value) => {
      if (HttpServerResponse.isServerResponse(value)) return value
      const body = json(value)
      return body === undefined ? value : HttpServerResponse.text(body, options)
    },
    body: (value) => {
      const fast = json(value)
      return fast === undefined ? slow(value) : Either.right(fast)
    }
  }
}
