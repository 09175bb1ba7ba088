import { Schema } from "effect"
import { listParams } from "../common/queryParams.js"
import { DateTimeString, enumValue, optionalNullable, UnifiedCustomFields } from "../common/recordFields.js"
import { GetResponse, ListResponse } from "../common/responses.js"
import { unifiedQuery } from "../common/unifiedQuery.js"
import { getQuery, updatedAfterOnly, withFields } from "./recordQuery.js"

/* The offers of an ATS application: the record, its envelopes and queries. */

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

/** Field names accepted by `fields` (spec, Unified resource conventions). */
export const ATS_OFFER_FIELDS = Object.keys(AtsOffer.fields) as ReadonlyArray<keyof typeof AtsOffer.fields>

export const AtsOffersList = ListResponse(AtsOffer, "AtsOffersList")
export const AtsOfferResult = GetResponse(AtsOffer, "AtsOfferResult")

export const AtsListOffersParams = unifiedQuery({
  params: { ...listParams, ...withFields(ATS_OFFER_FIELDS) },
  filter: updatedAfterOnly
})
export type AtsListOffersParams = typeof AtsListOffersParams.Type
export const AtsGetOfferParams = getQuery(ATS_OFFER_FIELDS)
export type AtsGetOfferParams = typeof AtsGetOfferParams.Type
