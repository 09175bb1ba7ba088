import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { RawProviderCall } from "../Actions.js"
import { ProviderError } from "../Errors.js"
import { commaSeparated } from "../Params.js"

/*
 * Pieces shared by the unified API groups (ATS, HRIS, LMS): record building blocks,
 * response envelopes, the common query parameters and the `x-account-id` / `prefer` headers.
 */

// ---------------------------------------------------------------------------
// Record building blocks
// ---------------------------------------------------------------------------

/** A record field: providers vary, so every field may be absent or null. */
export const optionalNullable = <S extends Schema.Schema.Any>(schema: S) => Schema.optional(Schema.NullOr(schema))

/**
 * A timestamp in a record or a response: documented as an ISO 8601 date-time but not
 * re-validated on the way out (a provider's odd value must not turn a read into a 500).
 */
export const DateTimeString = Schema.String.annotations({
  jsonSchema: { type: "string", format: "date-time" },
  description: "ISO 8601 date-time (UTC, milliseconds)"
})

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i

/** A date-time the caller sends (query filter or request body): validated, kept as the given string. */
export const DateTimeInput = Schema.String.pipe(
  Schema.filter((value) => ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)), {
    message: () => "must be an ISO 8601 date-time, e.g. 2020-01-01T00:00:00.000Z"
  })
).annotations({
  jsonSchema: { type: "string", format: "date-time", example: "2020-01-01T00:00:00.000Z" }
})

/**
 * An enumerated value: `value` is the normalized value (null when the provider value has
 * no mapping), `source_value` the provider's original (any JSON).
 */
export const EnumValue = Schema.Struct({
  value: optionalNullable(Schema.String),
  source_value: Schema.optional(Schema.Unknown)
}).annotations({ identifier: "EnumValue", description: "Normalized value and the provider's original" })
export type EnumValue = typeof EnumValue.Type

/**
 * An `EnumValue` whose normalized values are documented. The values are not enforced:
 * providers add new ones faster than the contract changes (`unmapped_value` covers the rest).
 */
export const enumValue = (identifier: string, known: ReadonlyArray<string>, description?: string) =>
  Schema.Struct({
    value: optionalNullable(
      Schema.String.annotations({
        description: `Normalized value. Known values: ${known.join(", ")}`,
        examples: [known[0]!]
      })
    ),
    source_value: Schema.optional(Schema.Unknown)
  }).annotations({ identifier, ...(description === undefined ? {} : { description }) })

/** An `EnumValue` whose normalized value is a code from a large standard list (countries, languages). */
export const codeEnumValue = (identifier: string, description: string, example: string) =>
  Schema.Struct({
    value: optionalNullable(Schema.String.annotations({ description, examples: [example] })),
    source_value: Schema.optional(Schema.Unknown)
  }).annotations({ identifier, description })

/** An enumerated value that only carries the provider's original. */
export const SourceValueOnly = Schema.Struct({
  source_value: Schema.optional(Schema.Unknown)
}).annotations({ identifier: "SourceValueOnly", description: "The provider's original value" })
export type SourceValueOnly = typeof SourceValueOnly.Type

/** Custom unified fields configured in the project: name to value. */
export const UnifiedCustomFields = Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
  identifier: "UnifiedCustomFields",
  description: "Custom unified fields configured in the project: name to value"
})

/** An object passed through to the provider as is. */
export const Passthrough = Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
  identifier: "Passthrough",
  description: "Passed through to the provider as is"
})

/** A provider custom field (records and write bodies). */
export const CustomField = Schema.Struct({
  id: optionalNullable(Schema.String),
  remote_id: optionalNullable(Schema.String),
  name: optionalNullable(Schema.String),
  value: Schema.optional(Schema.Unknown),
  value_id: optionalNullable(Schema.String),
  remote_value_id: optionalNullable(Schema.String)
}).annotations({ identifier: "CustomField" })

// ---------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------

const writeFields = {
  statusCode: Schema.Number,
  message: Schema.String,
  timestamp: DateTimeString
}

/** Update-style write response: exactly `{statusCode, message, timestamp}`. */
export const WriteResponse = Schema.Struct(writeFields).annotations({ identifier: "UnifiedWriteResponse" })
export type WriteResponse = typeof WriteResponse.Type

/** Identifiers of a created record. */
export const CreatedRecord = Schema.Struct({
  id: optionalNullable(Schema.String),
  remote_id: optionalNullable(Schema.String)
}).annotations({ identifier: "UnifiedCreatedRecord" })

const recordWriteFields = { ...writeFields, data: CreatedRecord }

/** Create response: the write response plus the new record's identifiers. */
export const CreateResponse = Schema.Struct(recordWriteFields).annotations({ identifier: "UnifiedCreateResponse" })
export type CreateResponse = typeof CreateResponse.Type

/**
 * Move and reject response: the write response plus the affected record's identifiers
 * (StackOne's MoveApplicationResult and RejectApplicationResult; their SDK requires `data`).
 */
export const RecordWriteResponse = Schema.Struct(recordWriteFields).annotations({
  identifier: "UnifiedRecordWriteResponse",
  description: "The write response plus the identifiers of the record moved or rejected"
})
export type RecordWriteResponse = typeof RecordWriteResponse.Type

export const UnifiedWarning = Schema.Struct({
  message: optionalNullable(Schema.String)
}).annotations({ identifier: "UnifiedWarning" })

/** Write result model (document upload): the write response plus provider errors and warnings. */
export const WriteResult = Schema.Struct({
  statusCode: Schema.Number,
  message: Schema.String,
  timestamp: DateTimeString,
  provider_errors: optionalNullable(Schema.Array(ProviderError)),
  unified_warnings: optionalNullable(Schema.Array(UnifiedWarning))
}).annotations({ identifier: "UnifiedWriteResult" })
export type WriteResult = typeof WriteResult.Type

/** The provider calls made, credentials redacted; null unless `raw=true`. */
const RawCalls = Schema.NullOr(Schema.Array(RawProviderCall)).annotations({
  description: "Provider calls made (credentials redacted) when raw=true, else null"
})

/** Cursor-paginated list envelope `{data, next, raw}`. */
export const ListResponse = <A, I, R>(record: Schema.Schema<A, I, R>, identifier: string) =>
  Schema.Struct({
    data: Schema.Array(record),
    next: Schema.NullOr(Schema.String).annotations({
      description: "Cursor for the following page (pass as `next`); null on the last page"
    }),
    raw: RawCalls
  }).annotations({ identifier })

/** Single-record envelope `{data, raw}`. */
export const GetResponse = <A, I, R>(record: Schema.Schema<A, I, R>, identifier: string) =>
  Schema.Struct({ data: record, raw: RawCalls }).annotations({ identifier })

// ---------------------------------------------------------------------------
// Headers and path parameters
// ---------------------------------------------------------------------------

/** Headers of every unified operation (lowercase keys). */
export const UnifiedHeaders = Schema.Struct({
  "x-account-id": Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({
    description: "The linked account the call runs against",
    jsonSchema: { type: "string", minLength: 1, maxLength: 200 }
  }),
  prefer: Schema.optional(Schema.String).annotations({
    description:
      "RFC 7240. `heartbeat` sends newline keep-alives while a long request runs; the response then carries `Preference-Applied: heartbeat`"
  })
})
export type UnifiedHeaders = typeof UnifiedHeaders.Type

export const RecordId = HttpApiSchema.param("id", Schema.String)
export const SubResourceId = HttpApiSchema.param("subResourceId", Schema.String)

// ---------------------------------------------------------------------------
// Query parameters
// ---------------------------------------------------------------------------

/** Largest accepted `page_size` on unified list operations (the spec leaves it open). */
export const UNIFIED_MAX_PAGE_SIZE = 200
/** `page_size` used when the caller gives none. */
export const UNIFIED_DEFAULT_PAGE_SIZE = 25

export const RawParam = Schema.transform(
  Schema.Literal("true", "false").annotations({
    message: () => ({ message: "raw must be true or false", override: true })
  }),
  Schema.Boolean,
  { strict: true, decode: (raw) => raw === "true", encode: (raw) => (raw ? "true" : "false") }
).annotations({
  description: "When true, the provider calls made are returned in `raw` beside the mapped result (default false)"
})

const FIELDS_DESCRIPTION =
  "Comma-separated field names to return; all fields when empty. The record's identifier (id, or event_id of changes) is always returned"

export const FieldsParam = commaSeparated(Schema.String).annotations({ description: FIELDS_DESCRIPTION })

/** `fields` documented with the record's field names (names are not enforced). */
export const fieldsParam = (names: ReadonlyArray<string>) =>
  commaSeparated(Schema.String).annotations({ description: `${FIELDS_DESCRIPTION}. Fields: ${names.join(",")}` })

export const UnifiedPageSize = Schema.NumberFromString.pipe(
  Schema.int({ message: () => `page_size must be an integer between 1 and ${UNIFIED_MAX_PAGE_SIZE}` }),
  Schema.between(1, UNIFIED_MAX_PAGE_SIZE, {
    message: () => `page_size must be an integer between 1 and ${UNIFIED_MAX_PAGE_SIZE}`
  })
).annotations({
  jsonSchema: {
    type: "integer",
    minimum: 1,
    maximum: UNIFIED_MAX_PAGE_SIZE,
    default: UNIFIED_DEFAULT_PAGE_SIZE,
    description: `Results per page (default ${UNIFIED_DEFAULT_PAGE_SIZE}, at most ${UNIFIED_MAX_PAGE_SIZE})`
  }
})

export const NextParam = Schema.String.annotations({ description: "The cursor from the previous response's `next`" })

export const PageParam = Schema.String.pipe(
  Schema.pattern(/^[1-9]\d*$/, { message: () => "page must be a page number (1, 2, ...)" })
).annotations({ description: "Deprecated: page number, from 1 (use `next`); ignored when `next` is given" })

export const UpdatedAfterParam = DateTimeInput.annotations({
  jsonSchema: {
    type: "string",
    format: "date-time",
    description: "Deprecated: only results updated after this date (use filter[updated_after])"
  }
})

// Nothing issues sync tokens: the token a client keeps is the time of its previous sync.
export const SyncTokenParam = DateTimeInput.annotations({
  jsonSchema: {
    type: "string",
    format: "date-time",
    description:
      "Deprecated: selects only results updated after this sync token, the ISO 8601 date-time of the previous sync (use filter[updated_after], which wins, as does updated_after)"
  }
})

export const ExpandParam = commaSeparated(Schema.String).annotations({
  description: "Comma-separated fields to expand (e.g. documents)"
})

export const IncludeParam = commaSeparated(Schema.String).annotations({
  description: "Comma-separated fields to include (e.g. attachments,custom_fields)"
})

/** Value of a pass-through (`proxy[...]`) query parameter: repeated keys give an array. */
export const ProxyValue = Schema.Union(Schema.String, Schema.Array(Schema.String))
export const ProxyParams = Schema.Record({ key: Schema.String, value: ProxyValue }).annotations({
  identifier: "UnifiedProxyParams",
  description: "Query parameters passed through to the provider request"
})

/** Filter value: an updated-after style date-time. */
export const UpdatedAfterFilter = DateTimeInput.annotations({
  jsonSchema: {
    type: "string",
    format: "date-time",
    description: "Only results updated after this date"
  }
})

export const CreatedAfterFilter = DateTimeInput.annotations({
  jsonSchema: {
    type: "string",
    format: "date-time",
    description: "Only results created after this date"
  }
})

/** Query parameters common to list operations (each operation picks its own set). */
export const listParams = {
  raw: Schema.optional(RawParam),
  fields: Schema.optional(FieldsParam),
  page: Schema.optional(PageParam),
  page_size: Schema.optional(UnifiedPageSize),
  next: Schema.optional(NextParam),
  updated_after: Schema.optional(UpdatedAfterParam),
  sync_token: Schema.optional(SyncTokenParam)
} as const

/** Query parameters common to get operations. */
export const getParams = {
  raw: Schema.optional(RawParam),
  fields: Schema.optional(FieldsParam)
} as const

type FilterFields = Record<string, Schema.Schema.AnyNoContext>

type OptionalFields<F extends FilterFields> = { readonly [K in keyof F]: Schema.optional<F[K]> }

/** Decoded query of a unified operation: its flat parameters plus `filter` and `proxy` objects. */
export type UnifiedQuery<P extends Schema.Struct.Fields, F extends FilterFields> =
  & Schema.Struct.Type<P>
  & ([keyof F] extends [never] ? {} : { readonly filter?: Schema.Struct.Type<OptionalFields<F>> })
  & { readonly proxy?: { readonly [x: string]: string | ReadonlyArray<string> } }

/** What travels in the query string. */
export type WireQuery = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

export interface UnifiedQueryOptions<P extends Schema.Struct.Fields, F extends FilterFields> {
  /** Flat parameters (each `Schema.optional(...)`), named as on the wire. */
  readonly params: P
  /** Filter keys, without the `filter[...]` wrapper; other `filter[...]` keys are rejected. */
  readonly filter?: F
  /**
   * Also accept the filter keys and the pass-through keys without their prefix
   * (`status=...` for `filter[status]`, any other unknown key for `proxy[key]`).
   */
  readonly unprefixed?: boolean
}

const bracketed = (prefix: string, key: string): string | undefined =>
  key.startsWith(`${prefix}[`) && key.endsWith("]") ? key.slice(prefix.length + 1, -1) : undefined

/**
 * The query schema of a unified operation.
 *
 * On the wire the query is flat (`ParsedSearchParams`): filter keys are declared literally
 * (`"filter[updated_after]"`), pass-through keys match a `proxy[...]` template-literal record,
 * and any other `filter[...]` key matches a record whose value is `never`, so it fails with a
 * 400 naming the key. The decoded value nests them: `{...params, filter: {...}, proxy: {...}}`
 * (`filter` and `proxy` absent when none given). Encoding (the derived client) flattens back.
 */
export const unifiedQuery = <
  const P extends Schema.Struct.Fields,
  const F extends FilterFields = {}
>(options: UnifiedQueryOptions<P, F>): Schema.Schema<UnifiedQuery<P, F>, WireQuery> => {
  const filter: FilterFields = options.filter ?? {}
  const filterNames = Object.keys(filter)
  const paramNames = new Set(Object.keys(options.params))
  const allowedFilterKeys = filterNames.map((name) => `filter[${name}]`)

  const wireFields: Record<string, Schema.Struct.Field> = { ...options.params }
  for (const name of filterNames) wireFields[`filter[${name}]`] = Schema.optional(filter[name]!)

  const unsupportedFilter = Schema.Never.annotations({
    message: () =>
      allowedFilterKeys.length === 0
        ? "this operation accepts no filter"
        : `unsupported filter key; this operation accepts ${allowedFilterKeys.join(", ")}`
  })
  const records: Array<Schema.Schema.Any> = [
    Schema.Record({ key: Schema.TemplateLiteral("proxy[", Schema.String, "]"), value: ProxyValue }),
    Schema.Record({
      key: Schema.TemplateLiteral("filter[", Schema.String, "]").pipe(
        Schema.filter((key) => !allowedFilterKeys.includes(key))
      ),
      value: unsupportedFilter
    })
  ]
  if (options.unprefixed === true) {
    records.push(Schema.Record({
      key: Schema.String.pipe(
        Schema.filter((key) =>
          !paramNames.has(key) && bracketed("filter", key) === undefined && bracketed("proxy", key) === undefined
        )
      ),
      value: ProxyValue
    }))
  }
  const wire = Schema.Struct(wireFields, ...(records as [any, ...Array<any>]))

  const decodedFields: Record<string, Schema.Struct.Field> = { ...options.params }
  if (filterNames.length > 0) {
    const filterStruct: Record<string, Schema.Struct.Field> = {}
    for (const name of filterNames) filterStruct[name] = Schema.optional(filter[name]!)
    decodedFields.filter = Schema.optional(Schema.Struct(filterStruct))
  }
  decodedFields.proxy = Schema.optional(ProxyParams)
  const decoded = Schema.typeSchema(Schema.Struct(decodedFields))

  return Schema.transform(wire, decoded, {
    strict: false,
    decode: (input: Record<string, unknown>) => {
      const out: Record<string, unknown> = {}
      const filterOut: Record<string, unknown> = {}
      const proxyOut: Record<string, unknown> = {}
      for (const [key, value] of Object.entries(input)) {
        if (value === undefined) continue
        if (paramNames.has(key)) {
          out[key] = value
          continue
        }
        const filterName = bracketed("filter", key)
        if (filterName !== undefined) {
          filterOut[filterName] = value
          continue
        }
        const proxyName = bracketed("proxy", key)
        if (proxyName !== undefined) {
          proxyOut[proxyName] = value
          continue
        }
        if (options.unprefixed === true) {
          if (Object.hasOwn(filter, key)) {
            // the bracketed form wins when both are given
            if (!Object.hasOwn(filterOut, key)) filterOut[key] = value
          } else {
            proxyOut[key] = value
          }
        }
      }
      if (options.unprefixed === true) {
        // a later bracketed key must still win over an earlier bare one
        for (const name of filterNames) {
          const bracketedValue = input[`filter[${name}]`]
          if (bracketedValue !== undefined) filterOut[name] = bracketedValue
        }
      }
      if (Object.keys(filterOut).length > 0) out.filter = filterOut
      if (Object.keys(proxyOut).length > 0) out.proxy = proxyOut
      return out
    },
    encode: (query: Record<string, unknown>) => {
      const out: Record<string, unknown> = {}
      for (const [key, value] of Object.entries(query)) {
        if (value === undefined) continue
        if (key === "filter" || key === "proxy") {
          for (const [name, inner] of Object.entries(value as Record<string, unknown>)) {
            if (inner !== undefined) out[`${key}[${name}]`] = inner
          }
        } else {
          out[key] = value
        }
      }
      return out
    }
  }) as any
}

// ---------------------------------------------------------------------------
// OpenAPI
// ---------------------------------------------------------------------------

type Json = Record<string, any>

/**
 * Documents what the generator cannot see on a unified operation: the `proxy` parameter
 * (a template-literal record, left out of the generated parameters), and the deprecated
 * flat parameters.
 */
export const documentUnifiedQuery = (options: {
  readonly proxy?: "deepObject" | "form"
  readonly deprecated?: ReadonlyArray<string>
}): ((operation: Json) => Json) =>
(operation) => {
  const parameters: Array<Json> = (operation.parameters ?? []).map((parameter: Json) =>
    parameter.in === "query" && options.deprecated?.includes(parameter.name)
      ? { ...parameter, deprecated: true }
      : parameter
  )
  if (options.proxy !== undefined) {
    parameters.push({
      name: "proxy",
      in: "query",
      required: false,
      style: options.proxy,
      explode: true,
      description: options.proxy === "deepObject"
        ? "Query parameters passed through to the provider request: proxy[name]=value"
        : "Query parameters passed through to the provider request: proxy[name]=value, or name=value for any name this operation does not define",
      schema: { type: "object", additionalProperties: true }
    })
  }
  return { ...operation, parameters }
}

/**
 * API-level OpenAPI transform: unified request bodies accept (and drop) properties they do
 * not declare, but the generator documents every struct with `additionalProperties: false`.
 * This marks the schemas reachable from the request bodies of `/unified/` operations as open.
 * Add it with `.annotate(OpenApi.Transform, ...)` on the HttpApi that holds the unified groups
 * (compose with any other transform).
 */
export const documentOpenUnifiedRequestBodies = (spec: Record<string, any>): Record<string, any> => {
  const document = structuredClone(spec)
  const schemas: Record<string, Json> = document.components?.schemas ?? {}
  const seen = new Set<string>()
  const open = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(open)
      return
    }
    if (typeof node !== "object" || node === null) return
    const json = node as Json
    if (typeof json.$ref === "string") {
      const name = json.$ref.replace("#/components/schemas/", "")
      if (!seen.has(name) && schemas[name] !== undefined) {
        seen.add(name)
        open(schemas[name])
      }
      return
    }
    if (json.type === "object" && json.additionalProperties === false) json.additionalProperties = true
    for (const value of Object.values(json)) open(value)
  }
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    if (!path.startsWith("/unified/")) continue
    for (const operation of Object.values(methods as Record<string, Json>)) {
      for (const media of Object.values((operation.requestBody?.content ?? {}) as Record<string, Json>)) {
        open(media.schema)
      }
    }
  }
  return document
}
