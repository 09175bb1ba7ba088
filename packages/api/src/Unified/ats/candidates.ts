import { Schema } from "effect"
import { CreatedAfterFilter, IncludeParam, listParams, RawParam, UpdatedAfterFilter } from "../common/queryParams.js"
import { CustomField, DateTimeString, optionalNullable, UnifiedCustomFields } from "../common/recordFields.js"
import { GetResponse, ListResponse } from "../common/responses.js"
import { unifiedQuery } from "../common/unifiedQuery.js"
import { CandidateEmail, PhoneNumber, SocialLink } from "./candidateContacts.js"
import { candidateInputFields } from "./candidateInput.js"
import { withFields } from "./recordQuery.js"

/* ATS candidates: the record, its envelopes and queries, and the create body. */

export const Tag = Schema.Struct({
  remote_id: optionalNullable(Schema.String),
  name: optionalNullable(Schema.String)
}).annotations({ identifier: "AtsTag" })

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

/** Field names accepted by `fields` (spec, Unified resource conventions). */
export const ATS_CANDIDATE_FIELDS = Object.keys(AtsCandidate.fields) as ReadonlyArray<keyof typeof AtsCandidate.fields>

export const AtsCandidatesList = ListResponse(AtsCandidate, "AtsCandidatesList")
export const AtsCandidateResult = GetResponse(AtsCandidate, "AtsCandidateResult")

// Request bodies accept unknown extra keys and drop them.

export const AtsCreateCandidateRequest = Schema.Struct(candidateInputFields).annotations({
  identifier: "AtsCreateCandidateRequest"
})
export type AtsCreateCandidateRequest = typeof AtsCreateCandidateRequest.Type

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
