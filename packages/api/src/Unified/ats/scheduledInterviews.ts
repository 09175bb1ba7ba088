import { Schema } from "effect"
import { listParams } from "../common/queryParams.js"
import { DateTimeString, enumValue, optionalNullable, UnifiedCustomFields } from "../common/recordFields.js"
import { GetResponse, ListResponse } from "../common/responses.js"
import { unifiedQuery } from "../common/unifiedQuery.js"
import { InterviewStage } from "./applications.js"
import { getQuery, updatedAfterOnly, withFields } from "./recordQuery.js"

/* The scheduled interviews of an ATS application: the record, its envelopes and queries. */

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

/** Field names accepted by `fields` (spec, Unified resource conventions). */
export const ATS_SCHEDULED_INTERVIEW_FIELDS = Object.keys(AtsScheduledInterview.fields) as ReadonlyArray<
  keyof typeof AtsScheduledInterview.fields
>

export const AtsScheduledInterviewsList = ListResponse(AtsScheduledInterview, "AtsScheduledInterviewsList")
export const AtsScheduledInterviewResult = GetResponse(AtsScheduledInterview, "AtsScheduledInterviewResult")

export const AtsListScheduledInterviewsParams = unifiedQuery({
  params: { ...listParams, ...withFields(ATS_SCHEDULED_INTERVIEW_FIELDS) },
  filter: updatedAfterOnly
})
export type AtsListScheduledInterviewsParams = typeof AtsListScheduledInterviewsParams.Type
export const AtsGetScheduledInterviewParams = getQuery(ATS_SCHEDULED_INTERVIEW_FIELDS)
export type AtsGetScheduledInterviewParams = typeof AtsGetScheduledInterviewParams.Type
