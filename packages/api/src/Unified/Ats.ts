import { HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authentication } from "../Authentication.js"
import { PreconditionFailedBody } from "../Errors.js"
import {
  codeEnumValue,
  CreatedAfterFilter,
  CustomField,
  DateTimeInput,
  DateTimeString,
  documentUnifiedQuery,
  enumValue,
  ExpandParam,
  fieldsParam,
  GetResponse,
  IncludeParam,
  listParams,
  ListResponse,
  optionalNullable,
  Passthrough,
  RawParam,
  UnifiedCustomFields,
  unifiedQuery,
  UpdatedAfterFilter
} from "./Common.js"
import { unifiedEndpoint } from "./unifiedEndpoint.js"

/*
 * Unified ATS: applications (and their offers, scorecards, changes, notes, scheduled
 * interviews, documents), candidates and assessment results. Record field names follow the
 * spec's tables; types and enumerations follow the reference StackOne documents.
 */

// ---------------------------------------------------------------------------
// Enumerations (documented, not enforced: see `enumValue`)
// ---------------------------------------------------------------------------

export const APPLICATION_STATUS_VALUES = [
  "active",
  "assessment",
  "background_check",
  "converted",
  "declined_by_candidate",
  "hired",
  "interview",
  "lead",
  "offer",
  "reference_check",
  "rejected",
  "review",
  "screen",
  "new",
  "onboarding",
  "created",
  "accepted",
  "short_list",
  "approved",
  "unmapped_value"
] as const

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

/** The `change_type` values of application changes (spec, States and transitions). */
export const APPLICATION_CHANGE_TYPES = [
  "application_status",
  "interview_stage",
  "rejected_reasons",
  "unmapped_value"
] as const
export const ApplicationChangeType = Schema.Literal(...APPLICATION_CHANGE_TYPES).annotations({
  identifier: "AtsApplicationChangeType"
})
export type ApplicationChangeType = typeof ApplicationChangeType.Type

export const ApplicationStatus = enumValue("AtsApplicationStatus", APPLICATION_STATUS_VALUES)
export const RejectedReasonType = enumValue("AtsRejectedReasonType", [
  "rejected_by_candidate",
  "rejected_by_organization",
  "other",
  "unknown",
  "unmapped_value"
])
export const AnswerType = enumValue("AtsAnswerType", [
  "short_text",
  "long_text",
  "attachment",
  "multi_select",
  "single_select",
  "boolean",
  "number",
  "date",
  "video",
  "reference_check",
  "url",
  "unmapped_value"
])
export const AttachmentContentType = enumValue(
  "AtsAttachmentContentType",
  ["text", "pdf", "video", "other", "unmapped_value"]
)
export const DocumentType = enumValue("AtsDocumentType", DOCUMENT_CATEGORY_VALUES)
export const DocumentCategory = enumValue("AtsDocumentCategory", DOCUMENT_CATEGORY_VALUES)
export const FileFormat = codeEnumValue(
  "FileFormat",
  "The file format as a file extension (e.g. pdf, docx, csv, png), or unmapped_value",
  "pdf"
)
export const OfferStatus = enumValue("AtsOfferStatus", [
  "pending",
  "retracted",
  "accepted",
  "rejected",
  "created",
  "approved",
  "not_approved",
  "unmapped_value"
])
export const ApplicationChangeTypeValue = enumValue("AtsApplicationChangeTypeValue", APPLICATION_CHANGE_TYPES)
export const InterviewStatus = enumValue("AtsInterviewStatus", [
  "unscheduled",
  "scheduled",
  "completed",
  "cancelled",
  "pending_feedback",
  "unmapped_value"
])
export const InterviewType = enumValue("AtsInterviewType", [
  "screening",
  "lunch",
  "on_site",
  "presentation",
  "sell",
  "culture",
  "informal",
  "test",
  "phone",
  "video",
  "unmapped_value"
])
export const NoteVisibility = enumValue("AtsNoteVisibility", ["private", "public", "unmapped_value"])
export const DocumentConfidential = enumValue("AtsDocumentConfidential", ["true", "false", "unmapped_value"])
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

const knownValues = (values: ReadonlyArray<string>) =>
  Schema.String.annotations({ description: `Known values: ${values.join(", ")}` })

// ---------------------------------------------------------------------------
// Nested objects
// ---------------------------------------------------------------------------

export const InterviewStage = Schema.Struct({
  id: optionalNullable(Schema.String),
  remote_id: optionalNullable(Schema.String),
  name: optionalNullable(Schema.String),
  order: optionalNullable(Schema.Number),
  created_at: optionalNullable(DateTimeString),
  updated_at: optionalNullable(DateTimeString),
  unified_custom_fields: optionalNullable(UnifiedCustomFields)
}).annotations({ identifier: "AtsInterviewStage" })

export const ApplicationStage = Schema.Struct({
  id: optionalNullable(Schema.String),
  remote_id: optionalNullable(Schema.String),
  name: optionalNullable(Schema.String),
  order: optionalNullable(Schema.Number),
  created_at: optionalNullable(DateTimeString),
  updated_at: optionalNullable(DateTimeString),
  unified_custom_fields: optionalNullable(UnifiedCustomFields)
}).annotations({ identifier: "AtsApplicationStage" })

export const RejectedReason = Schema.Struct({
  id: optionalNullable(Schema.String),
  remote_id: optionalNullable(Schema.String),
  label: optionalNullable(Schema.String),
  type: optionalNullable(Schema.String).annotations({ description: "Deprecated: use rejected_reason_type" }),
  rejected_reason_type: optionalNullable(RejectedReasonType),
  unified_custom_fields: optionalNullable(UnifiedCustomFields)
}).annotations({ identifier: "AtsRejectedReason" })

export const Answer = Schema.Struct({
  id: optionalNullable(Schema.String),
  remote_id: optionalNullable(Schema.String),
  type: optionalNullable(AnswerType),
  values: optionalNullable(Schema.Array(Schema.String))
}).annotations({ identifier: "AtsAnswer" })

export const Questionnaire = Schema.Struct({
  id: optionalNullable(Schema.String),
  remote_id: optionalNullable(Schema.String),
  answers: optionalNullable(Schema.Array(Answer))
}).annotations({ identifier: "AtsQuestionnaire" })

export const CandidateEmail = Schema.Struct({
  type: optionalNullable(Schema.String),
  value: optionalNullable(Schema.String)
}).annotations({ identifier: "AtsCandidateEmail" })

export const PhoneNumber = Schema.Struct({
  type: optionalNullable(knownValues(["personal", "work", "mobile", "home", "unknown", "other", "unmapped_value"])),
  phone: optionalNullable(Schema.String)
}).annotations({ identifier: "AtsPhoneNumber" })

export const SocialLink = Schema.Struct({
  type: optionalNullable(Schema.String),
  url: optionalNullable(Schema.String)
}).annotations({ identifier: "AtsSocialLink" })

export const ApplicationCandidate = Schema.Struct({
  name: optionalNullable(Schema.String),
  first_name: optionalNullable(Schema.String),
  last_name: optionalNullable(Schema.String),
  email: optionalNullable(Schema.String),
  emails: optionalNullable(Schema.Array(CandidateEmail)),
  phone_numbers: optionalNullable(Schema.Array(PhoneNumber)),
  social_links: optionalNullable(Schema.Array(SocialLink)),
  company: optionalNullable(Schema.String),
  title: optionalNullable(Schema.String)
}).annotations({ identifier: "AtsApplicationCandidate" })

export const ApplicationAttachment = Schema.Struct({
  file_name: optionalNullable(Schema.String),
  content: optionalNullable(Schema.String),
  url: optionalNullable(Schema.String),
  content_type: optionalNullable(AttachmentContentType)
}).annotations({ identifier: "AtsApplicationAttachment", description: "Deprecated: use the documents expansion" })

export const ResultLink = Schema.Struct({
  label: optionalNullable(Schema.String),
  url: optionalNullable(Schema.String)
}).annotations({ identifier: "AtsResultLink" })

export const ApplicationSource = Schema.Struct({
  id: optionalNullable(Schema.String),
  remote_id: optionalNullable(Schema.String),
  name: optionalNullable(Schema.String)
}).annotations({ identifier: "AtsApplicationSource" })

export const DocumentContent = Schema.Struct({
  url: optionalNullable(Schema.String),
  unified_url: optionalNullable(Schema.String),
  file_format: optionalNullable(FileFormat)
}).annotations({ identifier: "AtsDocumentContent" })

export const Tag = Schema.Struct({
  remote_id: optionalNullable(Schema.String),
  name: optionalNullable(Schema.String)
}).annotations({ identifier: "AtsTag" })

// ---------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------

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

export const AtsApplication = Schema.Struct({
  id: Schema.String,
  remote_id: optionalNullable(Schema.String),
  candidate_id: optionalNullable(Schema.String),
  remote_candidate_id: optionalNullable(Schema.String),
  job_id: optionalNullable(Schema.String),
  remote_job_id: optionalNullable(Schema.String),
  job_posting_id: optionalNullable(Schema.String),
  remote_job_posting_id: optionalNullable(Schema.String),
  interview_stage: optionalNullable(InterviewStage),
  interview_stage_id: optionalNullable(Schema.String),
  remote_interview_stage_id: optionalNullable(Schema.String),
  application_stage: optionalNullable(ApplicationStage),
  application_stage_id: optionalNullable(Schema.String),
  remote_application_stage_id: optionalNullable(Schema.String),
  rejected_reason: optionalNullable(Schema.Union(Schema.String, RejectedReason)).annotations({
    description: "Single rejection reason (label or reason object); see rejected_reasons"
  }),
  rejected_reason_id: optionalNullable(Schema.String),
  remote_rejected_reason_id: optionalNullable(Schema.String),
  rejected_reason_ids: optionalNullable(Schema.Array(Schema.String)),
  remote_rejected_reason_ids: optionalNullable(Schema.Array(Schema.String)),
  rejected_reasons: optionalNullable(Schema.Array(RejectedReason)),
  rejected_at: optionalNullable(DateTimeString),
  location_id: optionalNullable(Schema.String),
  remote_location_id: optionalNullable(Schema.String),
  location_ids: optionalNullable(Schema.Array(Schema.String)),
  remote_location_ids: optionalNullable(Schema.Array(Schema.String)),
  status: optionalNullable(ApplicationStatus),
  application_status: optionalNullable(ApplicationStatus),
  questionnaires: optionalNullable(Schema.Array(Questionnaire)),
  attachments: optionalNullable(Schema.Array(ApplicationAttachment)),
  result_links: optionalNullable(Schema.Array(ResultLink)),
  source: optionalNullable(ApplicationSource),
  created_at: optionalNullable(DateTimeString),
  updated_at: optionalNullable(DateTimeString),
  documents: optionalNullable(Schema.Array(AtsDocument)),
  custom_fields: optionalNullable(Schema.Array(CustomField)),
  candidate: optionalNullable(ApplicationCandidate),
  unified_custom_fields: optionalNullable(UnifiedCustomFields)
}).annotations({ identifier: "AtsApplication" })
export type AtsApplication = typeof AtsApplication.Type

export const OfferHistory = Schema.Struct({
  start_date: optionalNullable(DateTimeString),
  salary: optionalNullable(Schema.Number),
  currency: optionalNullable(Schema.String),
  created_at: optionalNullable(DateTimeString),
  updated_at: optionalNullable(DateTimeString)
}).annotations({ identifier: "AtsOfferHistory" })

export const AtsOffer = Schema.Struct({
  id: Schema.String,
  remote_id: optionalNullable(Schema.String),
  application_id: optionalNullable(Schema.String),
  remote_application_id: optionalNullable(Schema.String),
  start_date: optionalNullable(DateTimeString),
  offer_status: optionalNullable(OfferStatus),
  salary: optionalNullable(Schema.Number),
  currency: optionalNullable(Schema.String),
  created_at: optionalNullable(DateTimeString),
  updated_at: optionalNullable(DateTimeString),
  offer_history: optionalNullable(Schema.Array(OfferHistory)),
  unified_custom_fields: optionalNullable(UnifiedCustomFields)
}).annotations({ identifier: "AtsOffer" })
export type AtsOffer = typeof AtsOffer.Type

export const ScorecardField = Schema.Struct({
  id: optionalNullable(Schema.String),
  remote_id: optionalNullable(Schema.String),
  label: optionalNullable(Schema.String),
  type: optionalNullable(knownValues([
    "short_text",
    "long_text",
    "multi_select",
    "single_select",
    "boolean",
    "number",
    "date",
    "phone",
    "email",
    "score",
    "location",
    "unmapped_value"
  ])),
  values: optionalNullable(Schema.Array(Schema.String)),
  required: optionalNullable(Schema.Union(Schema.Boolean, Schema.Literal("true", "false")))
}).annotations({ identifier: "AtsScorecardField" })

export const ScorecardSection = Schema.Struct({
  id: optionalNullable(Schema.String),
  remote_id: optionalNullable(Schema.String),
  label: optionalNullable(Schema.String),
  fields: optionalNullable(Schema.Array(ScorecardField))
}).annotations({ identifier: "AtsScorecardSection" })

export const AtsScorecard = Schema.Struct({
  id: Schema.String,
  remote_id: optionalNullable(Schema.String),
  sections: optionalNullable(Schema.Array(ScorecardSection)),
  label: optionalNullable(Schema.String),
  candidate_id: optionalNullable(Schema.String),
  remote_candidate_id: optionalNullable(Schema.String),
  application_id: optionalNullable(Schema.String),
  remote_application_id: optionalNullable(Schema.String),
  interview_id: optionalNullable(Schema.String),
  remote_interview_id: optionalNullable(Schema.String),
  author_id: optionalNullable(Schema.String),
  remote_author_id: optionalNullable(Schema.String),
  overall_recommendation: optionalNullable(
    knownValues(["strong_yes", "yes", "no", "strong_no", "no_decision", "unmapped_value"])
  ),
  created_at: optionalNullable(DateTimeString),
  updated_at: optionalNullable(DateTimeString),
  unified_custom_fields: optionalNullable(UnifiedCustomFields)
}).annotations({ identifier: "AtsScorecard" })
export type AtsScorecard = typeof AtsScorecard.Type

export const ChangeActor = Schema.Struct({
  id: optionalNullable(Schema.String),
  remote_id: optionalNullable(Schema.String)
}).annotations({ identifier: "AtsChangeActor" })

export const ApplicationChangeValues = Schema.Struct({
  interview_stage_id: optionalNullable(Schema.String),
  rejected_reason_ids: optionalNullable(Schema.Array(Schema.String)),
  application_status: optionalNullable(ApplicationStatus)
}).annotations({
  identifier: "AtsApplicationChangeValues",
  description: "New values of the application properties that changed"
})

/** An application change: identified by `event_id` (it has no `id`). */
export const AtsApplicationChange = Schema.Struct({
  event_id: Schema.String,
  remote_event_id: optionalNullable(Schema.String),
  created_at: optionalNullable(DateTimeString),
  effective_at: optionalNullable(DateTimeString),
  change_type: optionalNullable(ApplicationChangeTypeValue),
  actor: optionalNullable(ChangeActor),
  new_values: optionalNullable(ApplicationChangeValues),
  unified_custom_fields: optionalNullable(UnifiedCustomFields)
}).annotations({ identifier: "AtsApplicationChange" })
export type AtsApplicationChange = typeof AtsApplicationChange.Type

export const InterviewPart = Schema.Struct({
  id: optionalNullable(Schema.String),
  remote_id: optionalNullable(Schema.String),
  type: optionalNullable(InterviewType),
  title: optionalNullable(Schema.String),
  interviewer_ids: optionalNullable(Schema.Array(Schema.String)),
  remote_interviewer_ids: optionalNullable(Schema.Array(Schema.String)),
  meeting_url: optionalNullable(Schema.String),
  meeting_provider: optionalNullable(Schema.String),
  start_at: optionalNullable(DateTimeString),
  end_at: optionalNullable(DateTimeString),
  created_at: optionalNullable(DateTimeString),
  updated_at: optionalNullable(DateTimeString)
}).annotations({ identifier: "AtsInterviewPart" })

export const Interviewer = Schema.Struct({
  id: optionalNullable(Schema.String),
  remote_id: optionalNullable(Schema.String),
  first_name: optionalNullable(Schema.String),
  last_name: optionalNullable(Schema.String),
  name: optionalNullable(Schema.String),
  email: optionalNullable(Schema.String)
}).annotations({ identifier: "AtsInterviewer" })

export const AtsScheduledInterview = Schema.Struct({
  id: Schema.String,
  remote_id: optionalNullable(Schema.String),
  application_id: optionalNullable(Schema.String),
  remote_application_id: optionalNullable(Schema.String),
  interview_stage_id: optionalNullable(Schema.String),
  remote_interview_stage_id: optionalNullable(Schema.String),
  interview_stage: optionalNullable(InterviewStage),
  status: optionalNullable(InterviewStatus),
  interview_status: optionalNullable(InterviewStatus),
  interviewer_ids: optionalNullable(Schema.Array(Schema.String)),
  remote_interviewer_ids: optionalNullable(Schema.Array(Schema.String)),
  interview_parts: optionalNullable(Schema.Array(InterviewPart)),
  interviewers: optionalNullable(Schema.Array(Interviewer)),
  start_at: optionalNullable(DateTimeString),
  end_at: optionalNullable(DateTimeString),
  meeting_url: optionalNullable(Schema.String),
  created_at: optionalNullable(DateTimeString),
  updated_at: optionalNullable(DateTimeString),
  unified_custom_fields: optionalNullable(UnifiedCustomFields)
}).annotations({ identifier: "AtsScheduledInterview" })
export type AtsScheduledInterview = typeof AtsScheduledInterview.Type

export const AtsCandidate = Schema.Struct({
  id: Schema.String,
  remote_id: optionalNullable(Schema.String),
  name: optionalNullable(Schema.String),
  first_name: optionalNullable(Schema.String),
  last_name: optionalNullable(Schema.String),
  email: optionalNullable(Schema.String),
  emails: optionalNullable(Schema.Array(CandidateEmail)),
  social_links: optionalNullable(Schema.Array(SocialLink)),
  phone: optionalNullable(Schema.String).annotations({ description: "Deprecated: use phone_numbers" }),
  phone_numbers: optionalNullable(Schema.Array(PhoneNumber)),
  company: optionalNullable(Schema.String),
  country: optionalNullable(Schema.String),
  title: optionalNullable(Schema.String),
  application_ids: optionalNullable(Schema.Array(Schema.String)),
  remote_application_ids: optionalNullable(Schema.Array(Schema.String)),
  hired_at: optionalNullable(DateTimeString),
  custom_fields: optionalNullable(Schema.Array(CustomField)),
  tags: optionalNullable(Schema.Array(Tag)),
  created_at: optionalNullable(DateTimeString),
  updated_at: optionalNullable(DateTimeString),
  unified_custom_fields: optionalNullable(UnifiedCustomFields)
}).annotations({ identifier: "AtsCandidate" })
export type AtsCandidate = typeof AtsCandidate.Type

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

/** Field names accepted by `fields`, per record (spec, Unified resource conventions). */
export const ATS_APPLICATION_FIELDS = Object.keys(AtsApplication.fields) as ReadonlyArray<
  keyof typeof AtsApplication.fields
>
export const ATS_OFFER_FIELDS = Object.keys(AtsOffer.fields) as ReadonlyArray<keyof typeof AtsOffer.fields>
export const ATS_SCORECARD_FIELDS = Object.keys(AtsScorecard.fields) as ReadonlyArray<keyof typeof AtsScorecard.fields>
export const ATS_APPLICATION_CHANGE_FIELDS = Object.keys(AtsApplicationChange.fields) as ReadonlyArray<
  keyof typeof AtsApplicationChange.fields
>
export const ATS_SCHEDULED_INTERVIEW_FIELDS = Object.keys(AtsScheduledInterview.fields) as ReadonlyArray<
  keyof typeof AtsScheduledInterview.fields
>
export const ATS_DOCUMENT_FIELDS = Object.keys(AtsDocument.fields) as ReadonlyArray<keyof typeof AtsDocument.fields>
export const ATS_CANDIDATE_FIELDS = Object.keys(AtsCandidate.fields) as ReadonlyArray<keyof typeof AtsCandidate.fields>
export const ATS_NOTE_FIELDS = Object.keys(AtsNote.fields) as ReadonlyArray<keyof typeof AtsNote.fields>

// ---------------------------------------------------------------------------
// Envelopes
// ---------------------------------------------------------------------------

export const AtsApplicationsList = ListResponse(AtsApplication, "AtsApplicationsList")
export const AtsApplicationResult = GetResponse(AtsApplication, "AtsApplicationResult")
export const AtsOffersList = ListResponse(AtsOffer, "AtsOffersList")
export const AtsOfferResult = GetResponse(AtsOffer, "AtsOfferResult")
export const AtsScorecardsList = ListResponse(AtsScorecard, "AtsScorecardsList")
export const AtsScorecardResult = GetResponse(AtsScorecard, "AtsScorecardResult")
export const AtsApplicationChangesList = ListResponse(AtsApplicationChange, "AtsApplicationChangesList")
export const AtsNoteResult = GetResponse(AtsNote, "AtsNoteResult")
export const AtsScheduledInterviewsList = ListResponse(AtsScheduledInterview, "AtsScheduledInterviewsList")
export const AtsScheduledInterviewResult = GetResponse(AtsScheduledInterview, "AtsScheduledInterviewResult")
export const AtsDocumentsList = ListResponse(AtsDocument, "AtsDocumentsList")
export const AtsDocumentResult = GetResponse(AtsDocument, "AtsDocumentResult")
export const AtsCandidatesList = ListResponse(AtsCandidate, "AtsCandidatesList")
export const AtsCandidateResult = GetResponse(AtsCandidate, "AtsCandidateResult")

// ---------------------------------------------------------------------------
// Request bodies (unknown extra keys are accepted and dropped)
// ---------------------------------------------------------------------------

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

export const CreateAnswer = Schema.Struct({
  id: optionalNullable(Schema.String),
  type: optionalNullable(AnswerType),
  values: optionalNullable(Schema.Array(Schema.String))
}).annotations({ identifier: "AtsCreateAnswer" })

export const CreateQuestionnaire = Schema.Struct({
  id: optionalNullable(Schema.String),
  answers: optionalNullable(Schema.Array(CreateAnswer))
}).annotations({ identifier: "AtsCreateQuestionnaire" })

export const CreateSource = Schema.Struct({
  id: optionalNullable(Schema.String),
  name: optionalNullable(Schema.String)
}).annotations({ identifier: "AtsCreateSource" })

const candidateInputFields = {
  passthrough: optionalNullable(Passthrough),
  unified_custom_fields: optionalNullable(UnifiedCustomFields),
  phone_number: optionalNullable(Schema.String).annotations({ description: "Deprecated: use phone_numbers" }),
  phone_numbers: optionalNullable(Schema.Array(PhoneNumber)),
  name: optionalNullable(Schema.String),
  first_name: optionalNullable(Schema.String),
  last_name: optionalNullable(Schema.String),
  email: optionalNullable(Schema.String),
  social_links: optionalNullable(Schema.Array(SocialLink)),
  company: optionalNullable(Schema.String),
  title: optionalNullable(Schema.String),
  hired_at: optionalNullable(DateTimeInput),
  country: optionalNullable(Schema.String),
  custom_fields: optionalNullable(Schema.Array(CustomField))
}

export const AtsCreateCandidateRequest = Schema.Struct(candidateInputFields).annotations({
  identifier: "AtsCreateCandidateRequest"
})
export type AtsCreateCandidateRequest = typeof AtsCreateCandidateRequest.Type

export const AtsCreateApplicationRequest = Schema.Struct({
  passthrough: optionalNullable(Passthrough),
  job_id: optionalNullable(Schema.String),
  job_posting_id: optionalNullable(Schema.String),
  location_id: optionalNullable(Schema.String),
  application_status: optionalNullable(ApplicationStatus),
  questionnaires: optionalNullable(Schema.Array(CreateQuestionnaire)),
  source: optionalNullable(CreateSource),
  candidate_id: optionalNullable(Schema.String).annotations({
    description: "The candidate applying: give this or candidate, not both"
  }),
  candidate: optionalNullable(
    Schema.Struct(candidateInputFields).annotations({
      identifier: "AtsApplicationCandidateInput",
      description: "A candidate created with the application: give this or candidate_id, not both"
    })
  ),
  documents: optionalNullable(Schema.Array(AtsUploadDocumentRequest)).annotations({
    description: "Files uploaded with the application"
  })
}).annotations({ identifier: "AtsCreateApplicationRequest" })
export type AtsCreateApplicationRequest = typeof AtsCreateApplicationRequest.Type

export const AtsUpdateApplicationRequest = Schema.Struct({
  passthrough: optionalNullable(Passthrough),
  custom_fields: optionalNullable(Schema.Array(CustomField)),
  application_status: optionalNullable(ApplicationStatus),
  source: optionalNullable(CreateSource)
}).annotations({ identifier: "AtsUpdateApplicationRequest" })
export type AtsUpdateApplicationRequest = typeof AtsUpdateApplicationRequest.Type

export const AtsMoveApplicationRequest = Schema.Struct({
  passthrough: optionalNullable(Passthrough),
  interview_stage_id: optionalNullable(Schema.String).annotations({
    description: "The stage to move the application to"
  })
}).annotations({ identifier: "AtsMoveApplicationRequest" })
export type AtsMoveApplicationRequest = typeof AtsMoveApplicationRequest.Type

export const AtsRejectApplicationRequest = Schema.Struct({
  passthrough: optionalNullable(Passthrough),
  rejected_reason_id: optionalNullable(Schema.String)
}).annotations({ identifier: "AtsRejectApplicationRequest" })
export type AtsRejectApplicationRequest = typeof AtsRejectApplicationRequest.Type

export const AtsUpdateNoteRequest = Schema.Struct({
  content: optionalNullable(Schema.Array(NoteContent)),
  author_id: optionalNullable(Schema.String),
  visibility: optionalNullable(NoteVisibility),
  passthrough: optionalNullable(Passthrough)
}).annotations({ identifier: "AtsUpdateNoteRequest" })
export type AtsUpdateNoteRequest = typeof AtsUpdateNoteRequest.Type

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

// ---------------------------------------------------------------------------
// Query parameters
// ---------------------------------------------------------------------------

const withFields = (names: ReadonlyArray<string>) => ({ fields: Schema.optional(fieldsParam(names)) })
const getQuery = (names: ReadonlyArray<string>) =>
  unifiedQuery({ params: { raw: Schema.optional(RawParam), ...withFields(names) } })

export const AtsListApplicationsParams = unifiedQuery({
  params: {
    ...listParams,
    ...withFields(ATS_APPLICATION_FIELDS),
    expand: Schema.optional(ExpandParam),
    include: Schema.optional(IncludeParam),
    job_id: Schema.optional(
      Schema.String.annotations({ description: "Deprecated: applications of this job (use filter[job_id])" })
    )
  },
  filter: {
    updated_after: UpdatedAfterFilter,
    created_after: CreatedAfterFilter,
    job_id: Schema.String.annotations({ description: "Applications of this job" }),
    stage: Schema.String.annotations({ description: "Applications in this stage" }),
    application_stage_id: Schema.String.annotations({ description: "Applications in this application stage" })
  }
})
export type AtsListApplicationsParams = typeof AtsListApplicationsParams.Type

export const AtsGetApplicationParams = unifiedQuery({
  params: {
    raw: Schema.optional(RawParam),
    ...withFields(ATS_APPLICATION_FIELDS),
    expand: Schema.optional(ExpandParam),
    include: Schema.optional(IncludeParam)
  }
})
export type AtsGetApplicationParams = typeof AtsGetApplicationParams.Type

const updatedAfterOnly = { updated_after: UpdatedAfterFilter }

export const AtsListOffersParams = unifiedQuery({
  params: { ...listParams, ...withFields(ATS_OFFER_FIELDS) },
  filter: updatedAfterOnly
})
export type AtsListOffersParams = typeof AtsListOffersParams.Type
export const AtsGetOfferParams = getQuery(ATS_OFFER_FIELDS)
export type AtsGetOfferParams = typeof AtsGetOfferParams.Type

export const AtsListScorecardsParams = unifiedQuery({
  params: { ...listParams, ...withFields(ATS_SCORECARD_FIELDS) },
  filter: updatedAfterOnly
})
export type AtsListScorecardsParams = typeof AtsListScorecardsParams.Type
export const AtsGetScorecardParams = getQuery(ATS_SCORECARD_FIELDS)
export type AtsGetScorecardParams = typeof AtsGetScorecardParams.Type

export const AtsListApplicationChangesParams = unifiedQuery({
  params: {
    raw: Schema.optional(RawParam),
    ...withFields(ATS_APPLICATION_CHANGE_FIELDS),
    page_size: listParams.page_size,
    next: listParams.next
  },
  filter: {
    created_after: CreatedAfterFilter,
    change_type: ApplicationChangeType.annotations({
      description: `Changes of this type: ${APPLICATION_CHANGE_TYPES.join(", ")}`
    })
  }
})
export type AtsListApplicationChangesParams = typeof AtsListApplicationChangesParams.Type

export const AtsGetNoteParams = getQuery(ATS_NOTE_FIELDS)
export type AtsGetNoteParams = typeof AtsGetNoteParams.Type

export const AtsListScheduledInterviewsParams = unifiedQuery({
  params: { ...listParams, ...withFields(ATS_SCHEDULED_INTERVIEW_FIELDS) },
  filter: updatedAfterOnly
})
export type AtsListScheduledInterviewsParams = typeof AtsListScheduledInterviewsParams.Type
export const AtsGetScheduledInterviewParams = getQuery(ATS_SCHEDULED_INTERVIEW_FIELDS)
export type AtsGetScheduledInterviewParams = typeof AtsGetScheduledInterviewParams.Type

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

export const AtsDownloadDocumentParams = Schema.Struct({
  format: Schema.optional(Schema.String.annotations({ description: "Download format, e.g. base64" })),
  export_format: Schema.optional(
    Schema.String.annotations({ description: "Media type to export the document as, e.g. text/plain" })
  )
})
export type AtsDownloadDocumentParams = typeof AtsDownloadDocumentParams.Type

export const AtsListCandidatesParams = unifiedQuery({
  params: { ...listParams, ...withFields(ATS_CANDIDATE_FIELDS), include: Schema.optional(IncludeParam) },
  filter: {
    updated_after: UpdatedAfterFilter,
    created_after: CreatedAfterFilter,
    email: Schema.String.annotations({ description: "Candidates with this email" })
  }
})
export type AtsListCandidatesParams = typeof AtsListCandidatesParams.Type

export const AtsGetCandidateParams = unifiedQuery({
  params: {
    raw: Schema.optional(RawParam),
    ...withFields(ATS_CANDIDATE_FIELDS),
    include: Schema.optional(IncludeParam)
  }
})
export type AtsGetCandidateParams = typeof AtsGetCandidateParams.Type

// ---------------------------------------------------------------------------
// Binary download
// ---------------------------------------------------------------------------

/** Media types a downloaded document may carry (spec, ats_download_application_document). */
export const DOWNLOAD_MEDIA_TYPES = [
  "application/pdf",
  "application/msword",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.ms-excel",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.ms-powerpoint",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  "application/vnd.oasis.opendocument.text",
  "application/vnd.oasis.opendocument.spreadsheet",
  "application/vnd.oasis.opendocument.presentation",
  "application/rtf",
  "text/rtf",
  "text/plain",
  "text/csv",
  "text/html",
  "application/xml",
  "application/json",
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/tiff",
  "image/bmp",
  "image/heic",
  "image/webp",
  "application/zip",
  "application/gzip",
  "application/x-rar-compressed",
  "application/x-7z-compressed",
  "audio/mpeg",
  "audio/wav",
  "audio/mp4",
  "video/mp4",
  "video/webm",
  "video/avi",
  "video/quicktime",
  "message/rfc822",
  "application/vnd.ms-outlook",
  "application/octet-stream"
] as const

/**
 * The document's bytes. The schema names a generic content type; the server streams an
 * `HttpServerResponse` carrying the document's own media type instead.
 */
export const DocumentDownload = HttpApiSchema.Uint8Array({ contentType: "application/octet-stream" }).annotations({
  description: "The document's bytes, sent with the document's own media type"
})

const documentDownloadMediaTypes = (operation: Record<string, any>): Record<string, any> => {
  const ok = operation.responses?.["200"]
  if (ok === undefined) return operation
  const content: Record<string, unknown> = {}
  for (const mediaType of DOWNLOAD_MEDIA_TYPES) content[mediaType] = { schema: { type: "string", format: "binary" } }
  return { ...operation, responses: { ...operation.responses, "200": { ...ok, content } } }
}

// ---------------------------------------------------------------------------
// Group
// ---------------------------------------------------------------------------

const listDoc = (extraDeprecated: ReadonlyArray<string> = []) =>
  documentUnifiedQuery({ proxy: "deepObject", deprecated: ["page", "updated_after", "sync_token", ...extraDeprecated] })
const getDoc = documentUnifiedQuery({ proxy: "deepObject" })

export class UnifiedAtsGroup extends HttpApiGroup.make("unified_ats")
  .add(unifiedEndpoint({
    kind: "list", id: "ats_list_applications", path: "/unified/ats/applications", query: AtsListApplicationsParams,
    success: AtsApplicationsList, summary: "List applications", openApi: listDoc(["job_id"])
  }))
  .add(unifiedEndpoint({
    kind: "create", id: "ats_create_application", path: "/unified/ats/applications", body: AtsCreateApplicationRequest,
    summary: "Create an application"
  }))
  .add(unifiedEndpoint({
    kind: "get", id: "ats_get_application", path: "/unified/ats/applications/:id", query: AtsGetApplicationParams,
    success: AtsApplicationResult, summary: "Get an application", openApi: getDoc
  }))
  .add(unifiedEndpoint({
    kind: "update", id: "ats_update_application", path: "/unified/ats/applications/:id",
    body: AtsUpdateApplicationRequest, summary: "Update an application"
  }))
  .add(unifiedEndpoint({
    kind: "list", id: "ats_list_applications_offers", path: "/unified/ats/applications/:id/offers",
    query: AtsListOffersParams, success: AtsOffersList, summary: "List the offers of an application",
    openApi: listDoc()
  }))
  .add(unifiedEndpoint({
    kind: "get", id: "ats_get_application_offer", path: "/unified/ats/applications/:id/offers/:subResourceId",
    query: AtsGetOfferParams, success: AtsOfferResult, summary: "Get an offer of an application", openApi: getDoc
  }))
  .add(unifiedEndpoint({
    kind: "move", id: "ats_move_application", path: "/unified/ats/applications/:id/move",
    body: AtsMoveApplicationRequest, summary: "Move an application to another stage"
  }))
  .add(unifiedEndpoint({
    kind: "reject", id: "ats_reject_application", path: "/unified/ats/applications/:id/reject",
    body: AtsRejectApplicationRequest, summary: "Reject an application"
  }))
  .add(unifiedEndpoint({
    kind: "list", id: "ats_list_application_scorecards", path: "/unified/ats/applications/:id/scorecards",
    query: AtsListScorecardsParams, success: AtsScorecardsList, summary: "List the scorecards of an application",
    openApi: listDoc()
  }))
  .add(unifiedEndpoint({
    kind: "get", id: "ats_get_application_scorecard", path: "/unified/ats/applications/:id/scorecards/:subResourceId",
    query: AtsGetScorecardParams, success: AtsScorecardResult, summary: "Get a scorecard of an application",
    openApi: getDoc
  }))
  .add(unifiedEndpoint({
    kind: "list", id: "ats_list_application_changes", path: "/unified/ats/applications/:id/changes",
    query: AtsListApplicationChangesParams, success: AtsApplicationChangesList,
    summary: "List the changes of an application", openApi: getDoc
  }))
  .add(unifiedEndpoint({
    kind: "get", id: "ats_get_application_note", path: "/unified/ats/applications/:id/notes/:subResourceId",
    query: AtsGetNoteParams, success: AtsNoteResult, summary: "Get a note of an application", openApi: getDoc
  }))
  .add(unifiedEndpoint({
    kind: "update", id: "ats_update_application_note", path: "/unified/ats/applications/:id/notes/:subResourceId",
    body: AtsUpdateNoteRequest, summary: "Update a note of an application"
  }))
  .add(unifiedEndpoint({
    kind: "list", id: "ats_list_applications_scheduled_interviews",
    path: "/unified/ats/applications/:id/scheduled_interviews", query: AtsListScheduledInterviewsParams,
    success: AtsScheduledInterviewsList, summary: "List the scheduled interviews of an application",
    openApi: listDoc()
  }))
  .add(unifiedEndpoint({
    kind: "get", id: "ats_get_application_scheduled_interview",
    path: "/unified/ats/applications/:id/scheduled_interviews/:subResourceId", query: AtsGetScheduledInterviewParams,
    success: AtsScheduledInterviewResult, summary: "Get a scheduled interview of an application", openApi: getDoc
  }))
  .add(unifiedEndpoint({
    kind: "upload", id: "ats_upload_application_document", path: "/unified/ats/applications/:id/documents/upload",
    body: AtsUploadDocumentRequest, summary: "Upload a document to an application"
  }))
  .add(unifiedEndpoint({
    kind: "download", id: "ats_download_application_document",
    path: "/unified/ats/applications/:id/documents/:subResourceId/download", query: AtsDownloadDocumentParams,
    success: DocumentDownload, summary: "Download a document of an application",
    description: "Answers with the document's bytes; the content type is the document's own media type (one of the listed types), not application/octet-stream unless the document is untyped.",
    openApi: documentDownloadMediaTypes
  }))
  .add(unifiedEndpoint({
    kind: "list", id: "ats_list_application_documents", path: "/unified/ats/applications/:id/documents",
    query: AtsListDocumentsParams, success: AtsDocumentsList, summary: "List the documents of an application",
    openApi: listDoc()
  }))
  .add(unifiedEndpoint({
    kind: "get", id: "ats_get_application_document", path: "/unified/ats/applications/:id/documents/:subResourceId",
    query: AtsGetDocumentParams, success: AtsDocumentResult, summary: "Get a document of an application",
    openApi: getDoc
  }))
  .add(unifiedEndpoint({
    kind: "list", id: "ats_list_candidates", path: "/unified/ats/candidates", query: AtsListCandidatesParams,
    success: AtsCandidatesList, summary: "List candidates", openApi: listDoc()
  }))
  .add(unifiedEndpoint({
    kind: "create", id: "ats_create_candidate", path: "/unified/ats/candidates", body: AtsCreateCandidateRequest,
    summary: "Create a candidate"
  }))
  .add(unifiedEndpoint({
    kind: "get", id: "ats_get_candidate", path: "/unified/ats/candidates/:id", query: AtsGetCandidateParams,
    success: AtsCandidateResult, summary: "Get a candidate", openApi: getDoc
  }))
  .add(unifiedEndpoint({
    kind: "update", id: "ats_update_assessments_result", path: "/unified/ats/assessments/orders/:id/result",
    body: AtsUpdateAssessmentResultRequest, summary: "Update the result of an assessment order"
  }))
  .addError(PreconditionFailedBody)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Unified ATS: provider data in one normalized shape")
{}
