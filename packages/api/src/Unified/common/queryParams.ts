import { Schema } from "effect"
import { commaSeparated } from "../../Params.js"
import { DateTimeInput } from "./recordFields.js"

/*
 * Query parameters shared by unified operations (paging, `fields`, `raw`, the deprecated
 * flat parameters, filter values) and the sets list and get operations pick from.
 */

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
