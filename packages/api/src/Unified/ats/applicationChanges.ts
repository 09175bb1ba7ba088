import { Schema } from "effect"
import { CreatedAfterFilter, listParams, RawParam } from "../common/queryParams.js"
import { DateTimeString, enumValue, optionalNullable, UnifiedCustomFields } from "../common/recordFields.js"
import { ListResponse } from "../common/responses.js"
import { unifiedQuery } from "../common/unifiedQuery.js"
import { ApplicationStatus } from "./applications.js"
import { withFields } from "./recordQuery.js"

/* The changes of an ATS application: the record (identified by `event_id`), its list envelope and query. */

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

export const ApplicationChangeTypeValue = enumValue("AtsApplicationChangeTypeValue", APPLICATION_CHANGE_TYPES)

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

/** Field names accepted by `fields` (spec, Unified resource conventions). */
export const ATS_APPLICATION_CHANGE_FIELDS = Object.keys(AtsApplicationChange.fields) as ReadonlyArray<
  keyof typeof AtsApplicationChange.fields
>

export const AtsApplicationChangesList = ListResponse(AtsApplicationChange, "AtsApplicationChangesList")

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
