import { Schema } from "effect"
import { fieldsParam, listParams, UpdatedAfterFilter } from "../common/queryParams.js"
import {
  DateTimeString,
  enumValue,
  optionalNullable,
  SourceValueOnly,
  UnifiedCustomFields
} from "../common/recordFields.js"
import { ListResponse } from "../common/responses.js"
import { unifiedQuery } from "../common/unifiedQuery.js"

/*
 * What the spec defines of the unified LMS itself: the assignment record (its `progress` is a
 * string) and the query of a user's assignments. The generated modules use these.
 */

/** Assignment status values (the reference's; the spec shows only `in_progress`). */
export const ASSIGNMENT_STATUS_VALUES = ["pending", "in_progress", "completed", "unmapped_value"] as const

export const AssignmentStatus = enumValue("LmsAssignmentStatus", ASSIGNMENT_STATUS_VALUES)

/** An LMS assignment (spec, LMS assignment record). */
export const LmsAssignment = Schema.Struct({
  id: Schema.String,
  remote_id: optionalNullable(Schema.String),
  external_reference: optionalNullable(Schema.String),
  unified_custom_fields: optionalNullable(UnifiedCustomFields),
  learning_object_id: optionalNullable(Schema.String),
  remote_learning_object_id: optionalNullable(Schema.String),
  learning_object_external_reference: optionalNullable(Schema.String),
  progress: optionalNullable(Schema.String),
  updated_at: optionalNullable(DateTimeString),
  created_at: optionalNullable(DateTimeString),
  assigned_at: optionalNullable(DateTimeString),
  due_date: optionalNullable(DateTimeString),
  completed_at: optionalNullable(DateTimeString),
  status: optionalNullable(AssignmentStatus),
  learning_object_type: optionalNullable(SourceValueOnly),
  user_id: optionalNullable(Schema.String),
  remote_user_id: optionalNullable(Schema.String),
  certificate_url: optionalNullable(Schema.String),
  result: optionalNullable(SourceValueOnly),
  course_id: optionalNullable(Schema.String),
  remote_course_id: optionalNullable(Schema.String)
}).annotations({ identifier: "LmsAssignment" })
export type LmsAssignment = typeof LmsAssignment.Type

export const LMS_ASSIGNMENT_FIELDS = Object.keys(LmsAssignment.fields) as ReadonlyArray<
  keyof typeof LmsAssignment.fields
>

export const LmsAssignmentsList = ListResponse(LmsAssignment, "LmsAssignmentsList")

/**
 * The filter and pass-through keys are also accepted without their prefix (`status=...`,
 * `custom=...`), as the reference serializes this operation's `filter` and `proxy` in form style.
 */
export const LmsListUserAssignmentsParams = unifiedQuery({
  params: {
    raw: listParams.raw,
    fields: Schema.optional(fieldsParam(LMS_ASSIGNMENT_FIELDS)),
    page: listParams.page,
    page_size: listParams.page_size,
    next: listParams.next,
    updated_after: listParams.updated_after,
    user_id: Schema.optional(Schema.String.annotations({ description: "The user the assignments belong to" })),
    remote_user_id: Schema.optional(
      Schema.String.annotations({ description: "The provider's identifier of the user the assignments belong to" })
    )
  },
  filter: {
    updated_after: UpdatedAfterFilter,
    status: Schema.Literal(...ASSIGNMENT_STATUS_VALUES).annotations({
      description: `Assignments in this status: ${ASSIGNMENT_STATUS_VALUES.join(", ")}`
    })
  },
  unprefixed: true
})
export type LmsListUserAssignmentsParams = typeof LmsListUserAssignmentsParams.Type
