import { Schema } from "effect"

/*
 * Building blocks of unified records (ATS, HRIS, LMS): optional fields, date-times,
 * enumerated values, custom and pass-through fields.
 */

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
