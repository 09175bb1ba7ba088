import { Schema } from "effect"
import { listParams } from "../common/queryParams.js"
import { DateTimeString, optionalNullable, UnifiedCustomFields } from "../common/recordFields.js"
import { GetResponse, ListResponse } from "../common/responses.js"
import { unifiedQuery } from "../common/unifiedQuery.js"
import { knownValues } from "./knownValues.js"
import { getQuery, updatedAfterOnly, withFields } from "./recordQuery.js"

/* The scorecards of an ATS application: the record, its envelopes and queries. */

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

/** Field names accepted by `fields` (spec, Unified resource conventions). */
export const ATS_SCORECARD_FIELDS = Object.keys(AtsScorecard.fields) as ReadonlyArray<keyof typeof AtsScorecard.fields>

export const AtsScorecardsList = ListResponse(AtsScorecard, "AtsScorecardsList")
export const AtsScorecardResult = GetResponse(AtsScorecard, "AtsScorecardResult")

export const AtsListScorecardsParams = unifiedQuery({
  params: { ...listParams, ...withFields(ATS_SCORECARD_FIELDS) },
  filter: updatedAfterOnly
})
export type AtsListScorecardsParams = typeof AtsListScorecardsParams.Type
export const AtsGetScorecardParams = getQuery(ATS_SCORECARD_FIELDS)
export type AtsGetScorecardParams = typeof AtsGetScorecardParams.Type
