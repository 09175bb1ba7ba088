import { Schema } from "effect"
import { RawProviderCall } from "../../Actions.js"
import { ProviderError } from "../../Errors.js"
import { DateTimeString, optionalNullable } from "./recordFields.js"

/*
 * Response envelopes of unified operations: the write answers (fixed per kind by
 * `unifiedEndpoint`) and the list and get envelopes around a record.
 */

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

/** Delete and cancel response: exactly `{statusCode, message, timestamp}` (StackOne's DeleteResult). */
export const DeleteResponse = Schema.Struct(writeFields).annotations({ identifier: "UnifiedDeleteResponse" })
export type DeleteResponse = typeof DeleteResponse.Type

/**
 * Batch response (202): the batch was accepted; `errors` holds, per item in order, what the provider
 * refused (an empty list for an item it took). StackOne's BatchResultApiModel.
 */
export const BatchResponse = Schema.Struct({
  ...writeFields,
  errors: optionalNullable(Schema.Array(Schema.Array(Schema.String)))
}).annotations({ identifier: "UnifiedBatchResponse" })
export type BatchResponse = typeof BatchResponse.Type

/** Upsert response (201): the write response plus the record's identifiers and its external reference. */
export const UpsertResponse = Schema.Struct({
  ...writeFields,
  data: Schema.Struct({
    id: optionalNullable(Schema.String),
    remote_id: optionalNullable(Schema.String),
    external_reference: optionalNullable(Schema.String)
  }).annotations({ identifier: "UnifiedUpsertedRecord" })
}).annotations({ identifier: "UnifiedUpsertResponse" })
export type UpsertResponse = typeof UpsertResponse.Type

/**
 * Order response (200): the order placed at the provider, `{id, remote_id, test_url}` without the write
 * envelope (StackOne's CreateAssessmentOrderResult and CreateBackgroundCheckOrderResult): `test_url` is
 * where the candidate takes the assessment or check, when the provider gives one.
 */
export const OrderResponse = Schema.Struct({
  id: optionalNullable(Schema.String),
  remote_id: optionalNullable(Schema.String),
  test_url: optionalNullable(Schema.String)
}).annotations({ identifier: "UnifiedOrderResponse" })
export type OrderResponse = typeof OrderResponse.Type

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
