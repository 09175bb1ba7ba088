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
   * The JSON body of a value (right), or what keeps it from its schema (left, the issues'
   * paths and expectations, without the values).
   */
  readonly body: (value: unknown) => Either.Either<string, string>
  /**
   * A JSON body from `body` as the finished response the platform would send: the schema's
   * status and content type. (Endpoints with a JSON success schema only.)
   */
  readonly respond: (body: string) => HttpServerResponse.HttpServerResponse
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

/** The status and content type the platform answers a JSON success of `schema` with. */
const successOptions = (schema: Schema.Schema.Any | undefined) =>
  schema === undefined
    ? { status: 200, contentType: "application/json" }
    : { status: HttpApiSchema.getStatusSuccess(schema), contentType: HttpApiSchema.getEncoding(schema.ast).contentType }

const uncompiled = (schema: Schema.Schema.Any | undefined, reason: string): JsonAnswer => {
  const body = slowBody(schema)
  const options = successOptions(schema)
  return {
    schema,
    uncompiled: reason,
    json: () => undefined,
    body,
    respond: (text) => HttpServerResponse.text(text, options)
  }
}

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
  const options = successOptions(schema)
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
  const body = (value: unknown): Either.Either<string, string> => {
    const fast = json(value)
    return fast === undefined ? slow(value) : Either.right(fast)
  }
  return {
    schema,
    uncompiled: undefined,
    json,
    body,
    respond: (text) => HttpServerResponse.text(text, options)
  }
}
