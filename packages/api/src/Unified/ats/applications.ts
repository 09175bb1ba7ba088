import { Schema } from "effect"
import {
  CreatedAfterFilter,
  ExpandParam,
  IncludeParam,
  listParams,
  RawParam,
  UpdatedAfterFilter
} from "../common/queryParams.js"
import {
  CustomField,
  DateTimeString,
  enumValue,
  optionalNullable,
  Passthrough,
  UnifiedCustomFields
} from "../common/recordFields.js"
import { GetResponse, ListResponse } from "../common/responses.js"
import { unifiedQuery } from "../common/unifiedQuery.js"
import { CandidateEmail, PhoneNumber, SocialLink } from "./candidateContacts.js"
import { candidateInputFields } from "./candidateInput.js"
import { AtsDocument, AtsUploadDocumentRequest } from "./documents.js"
import { withFields } from "./recordQuery.js"

/*
 * ATS applications: the record and its nested objects, envelopes, queries, and the create,
 * update, move and reject bodies. The stage and attachment types here are shared with
 * scheduled interviews and assessments.
 */

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

/** Field names accepted by `fields` (spec, Unified resource conventions). */
export const ATS_APPLICATION_FIELDS = Object.keys(AtsApplication.fields) as ReadonlyArray<
  keyof typeof AtsApplication.fields
>

export const AtsApplicationsList = ListResponse(AtsApplication, "AtsApplicationsList")
export const AtsApplicationResult = GetResponse(AtsApplication, "AtsApplicationResult")

// Request bodies accept unknown extra keys and drop them.

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
