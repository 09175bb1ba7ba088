import { Schema } from "effect"
import { DateTimeInput, enumValue, optionalNullable, Passthrough } from "../common/recordFields.js"
import { AttachmentContentType } from "./applications.js"

/* ATS assessment results: the update body of an assessment order's result. */

export const AssessmentResultValue = enumValue("AtsAssessmentResult", [
  "initiated",
  "in_progress",
  "cancelled",
  "completed",
  "expired",
  "failed",
  "passed",
  "unmapped_value"
])

// Request bodies accept unknown extra keys and drop them.

export const AssessmentScore = Schema.Struct({
  label: optionalNullable(Schema.String),
  value: optionalNullable(Schema.String),
  min: optionalNullable(Schema.String),
  max: optionalNullable(Schema.String)
}).annotations({ identifier: "AtsAssessmentScore" })

export const AssessmentAttachment = Schema.Struct({
  url: optionalNullable(Schema.String),
  content_type: optionalNullable(AttachmentContentType)
}).annotations({ identifier: "AtsAssessmentAttachment" })

export const AssessmentCandidate = Schema.Struct({
  id: optionalNullable(Schema.String),
  profile_url: optionalNullable(Schema.String)
}).annotations({ identifier: "AtsAssessmentCandidate" })

/** Assessment result update body (spec table): every field optional; only some nullable. */
export const AtsUpdateAssessmentResultRequest = Schema.Struct({
  score: Schema.optional(AssessmentScore),
  start_date: optionalNullable(DateTimeInput),
  submission_date: optionalNullable(DateTimeInput),
  summary: optionalNullable(Schema.String),
  result: Schema.optional(AssessmentResultValue),
  result_url: optionalNullable(Schema.String),
  attachments: optionalNullable(Schema.Array(AssessmentAttachment)),
  candidate: Schema.optional(AssessmentCandidate),
  passthrough: Schema.optional(Passthrough)
}).annotations({ identifier: "AtsUpdateAssessmentResultRequest" })
export type AtsUpdateAssessmentResultRequest = typeof AtsUpdateAssessmentResultRequest.Type
