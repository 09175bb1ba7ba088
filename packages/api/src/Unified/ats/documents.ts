import { Schema } from "effect"
import { listParams, UpdatedAfterFilter } from "../common/queryParams.js"
import {
  codeEnumValue,
  DateTimeString,
  enumValue,
  optionalNullable,
  UnifiedCustomFields
} from "../common/recordFields.js"
import { GetResponse, ListResponse } from "../common/responses.js"
import { unifiedQuery } from "../common/unifiedQuery.js"
import { getQuery, withFields } from "./recordQuery.js"

/* ATS documents: the record, its envelopes and queries, and the upload body. */

export const DOCUMENT_CATEGORY_VALUES = [
  "resume",
  "avatar",
  "cover_letter",
  "profile_picture",
  "policy",
  "passport",
  "assessment",
  "interview_attachment",
  "take_home_test",
  "offer_letter",
  "signed_offer_letter",
  "national_id",
  "offer_packet",
  "other",
  "unmapped_value"
] as const

export const DocumentType = enumValue("AtsDocumentType", DOCUMENT_CATEGORY_VALUES)
export const DocumentCategory = enumValue("AtsDocumentCategory", DOCUMENT_CATEGORY_VALUES)
export const FileFormat = codeEnumValue(
  "FileFormat",
  "The file format as a file extension (e.g. pdf, docx, csv, png), or unmapped_value",
  "pdf"
)

export const DocumentConfidential = enumValue("AtsDocumentConfidential", ["true", "false", "unmapped_value"])

export const DocumentContent = Schema.Struct({
  url: optionalNullable(Schema.String),
  unified_url: optionalNullable(Schema.String),
  file_format: optionalNullable(FileFormat)
}).annotations({ identifier: "AtsDocumentContent" })

export const AtsDocument = Schema.Struct({
  id: Schema.String,
  remote_id: optionalNullable(Schema.String),
  name: optionalNullable(Schema.String),
  type: optionalNullable(DocumentType),
  category: optionalNullable(DocumentCategory),
  category_id: optionalNullable(Schema.String),
  remote_category_id: optionalNullable(Schema.String),
  contents: optionalNullable(Schema.Array(DocumentContent)).annotations({
    description: "Deprecated: use remote_url and file_format"
  }),
  created_at: optionalNullable(DateTimeString),
  updated_at: optionalNullable(DateTimeString),
  remote_url: optionalNullable(Schema.String),
  file_format: optionalNullable(FileFormat),
  unified_custom_fields: optionalNullable(UnifiedCustomFields)
}).annotations({ identifier: "AtsDocument" })
export type AtsDocument = typeof AtsDocument.Type

/** Field names accepted by `fields` (spec, Unified resource conventions). */
export const ATS_DOCUMENT_FIELDS = Object.keys(AtsDocument.fields) as ReadonlyArray<keyof typeof AtsDocument.fields>

export const AtsDocumentsList = ListResponse(AtsDocument, "AtsDocumentsList")
export const AtsDocumentResult = GetResponse(AtsDocument, "AtsDocumentResult")

// Request bodies accept unknown extra keys and drop them.

/** Base64 file content: decoded to bytes, so malformed base64 is a 400. */
const Base64Content = Schema.Uint8ArrayFromBase64.annotations({
  description: "The base64 encoded content of the file",
  jsonSchema: { type: "string", contentEncoding: "base64" }
})

export const UploadDocumentCategory = Schema.Struct({
  value: optionalNullable(
    Schema.String.annotations({ description: `Known values: ${DOCUMENT_CATEGORY_VALUES.join(", ")}` })
  ),
  source_value: optionalNullable(Schema.String).annotations({
    description: "The provider's category; takes precedence over value when given"
  })
}).annotations({ identifier: "AtsUploadDocumentCategory" })

export const AtsUploadDocumentRequest = Schema.Struct({
  name: optionalNullable(Schema.String).annotations({ description: "File name of the file to upload" }),
  file_format: optionalNullable(FileFormat),
  content: optionalNullable(Base64Content),
  category_id: optionalNullable(Schema.String),
  path: optionalNullable(Schema.String).annotations({ description: "Path the file is uploaded to" }),
  confidential: optionalNullable(DocumentConfidential),
  category: optionalNullable(UploadDocumentCategory)
}).annotations({ identifier: "AtsUploadDocumentRequest" })
export type AtsUploadDocumentRequest = typeof AtsUploadDocumentRequest.Type

export const AtsListDocumentsParams = unifiedQuery({
  params: { ...listParams, ...withFields(ATS_DOCUMENT_FIELDS) },
  filter: {
    updated_after: UpdatedAfterFilter,
    type: Schema.String.annotations({ description: "Documents of this type" })
  }
})
export type AtsListDocumentsParams = typeof AtsListDocumentsParams.Type
export const AtsGetDocumentParams = getQuery(ATS_DOCUMENT_FIELDS)
export type AtsGetDocumentParams = typeof AtsGetDocumentParams.Type
