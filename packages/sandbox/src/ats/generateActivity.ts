import type { ApplicationRec, AtsState } from "./data.js"

/**
 * Entries of the activity feed. Generated histories add one for each thing that happened to an
 * application (created, moved, rejected, hired), which also keeps its last_activity_at current.
 * The API's own writes record theirs through AtsContext.recordActivity.
 */

export type ActivityType =
  | "application_created"
  | "stage_change"
  | "rejected"
  | "unrejected"
  | "hired"
  | "application_updated"
  | "candidate_created"
  | "candidate_updated"
  | "attachment_added"
  | "note_added"
  | "note_updated"

export interface ActivityRec {
  id: number
  candidate_id: number
  application_id: number | null
  created_at: number
  subject: string | null
  body: string
  user_id: number | null
  type: ActivityType
  changes: Record<string, { from: unknown; to: unknown }>
}

/** Adds an activity of `app` at `at`, by `userId` (null: the candidate or the system). Draws nothing. */
export const generateActivity = (
  state: AtsState,
  app: ApplicationRec,
  at: number,
  type: ActivityType,
  body: string,
  userId: number | null,
  changes: ActivityRec["changes"] = {}
): void => {
  const activityId = state.next.activity++
  state.activities.set(activityId, { id: activityId, candidate_id: app.candidate_id, application_id: app.id, created_at: at, subject: null, body, user_id: userId, type, changes })
  if (at > app.last_activity_at) app.last_activity_at = at
}
