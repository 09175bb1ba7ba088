import { Schema } from "effect"
import {
  DateTimeString,
  enumValue,
  optionalNullable,
  Passthrough,
  UnifiedCustomFields
} from "../common/recordFields.js"
import { GetResponse } from "../common/responses.js"
import { getQuery } from "./recordQuery.js"

/* The notes of an ATS application: the record, its envelope and query, and the update body. */

export const NoteVisibility = enumValue("AtsNoteVisibility", ["private", "public", "unmapped_value"])

export const NoteContent = Schema.Struct({
  body: optionalNullable(Schema.String)
}).annotations({ identifier: "AtsNoteContent" })

/** A note under an application (fields from the reference: the spec lists none). */
export const AtsNote = Schema.Struct({
  id: Schema.String,
  remote_id: optionalNullable(Schema.String),
  content: optionalNullable(Schema.Array(NoteContent)),
  author_id: optionalNullable(Schema.String),
  remote_author_id: optionalNullable(Schema.String),
  visibility: optionalNullable(NoteVisibility),
  created_at: optionalNullable(DateTimeString),
  updated_at: optionalNullable(DateTimeString),
  deleted_at: optionalNullable(DateTimeString),
  unified_custom_fields: optionalNullable(UnifiedCustomFields)
}).annotations({ identifier: "AtsNote" })
export type AtsNote = typeof AtsNote.Type

/** Field names accepted by `fields` (spec, Unified resource conventions). */
export const ATS_NOTE_FIELDS = Object.keys(AtsNote.fields) as ReadonlyArray<keyof typeof AtsNote.fields>

export const AtsNoteResult = GetResponse(AtsNote, "AtsNoteResult")

// Request bodies accept unknown extra keys and drop them.

export const AtsUpdateNoteRequest = Schema.Struct({
  content: optionalNullable(Schema.Array(NoteContent)),
  author_id: optionalNullable(Schema.String),
  visibility: optionalNullable(NoteVisibility),
  passthrough: optionalNullable(Passthrough)
}).annotations({ identifier: "AtsUpdateNoteRequest" })
export type AtsUpdateNoteRequest = typeof AtsUpdateNoteRequest.Type

export const AtsGetNoteParams = getQuery(ATS_NOTE_FIELDS)
export type AtsGetNoteParams = typeof AtsGetNoteParams.Type
