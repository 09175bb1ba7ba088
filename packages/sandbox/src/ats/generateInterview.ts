import { DAY } from "../clock.js"
import type { Rng } from "../prng.js"
import type { ApplicationRec, AtsState } from "./data.js"
import type { InterviewStepRec } from "./generateJobs.js"
import { generateScorecard } from "./generateScorecard.js"

/**
 * Scheduled interviews, one per schedulable interview step of a stage. Those of stages the
 * application has already left were held and are scored; those of its current stage are still to
 * come. The scorecard's draws come between the interviewer's and the interview's own, as they did
 * before this was split out, so the generated records stay the same.
 */

export interface InterviewRec {
  id: number
  application_id: number
  external_event_id: string
  start: number
  end: number
  location: string
  video_conferencing_url: string | null
  status: "scheduled" | "awaiting_feedback" | "complete"
  created_at: number
  updated_at: number
  step: { id: number; name: string }
  organizer_id: number
  interviewers: Array<{ user_id: number; response_status: string; scorecard_id: number | null }>
}

/** Adds one interview for `step` starting at `start`; `scored` also files its scorecard. */
export const generateInterview = (
  state: AtsState,
  rng: Rng,
  app: ApplicationRec,
  step: InterviewStepRec,
  start: number,
  status: InterviewRec["status"],
  scored: boolean
): void => {
  const id = state.next.interview++
  const userIds = [...state.users.keys()]
  const interviewerId = step.interviewer_ids[0] ?? rng.pick(userIds)
  const end = start + (step.estimated_minutes ?? 30) * 60000
  const scorecardId = scored ? generateScorecard(state, rng, app, step, start, end, interviewerId) : null
  const created = start - rng.int(1, 4) * DAY
  state.interviews.set(id, {
    id,
    application_id: app.id,
    external_event_id: `sandbox-event-${id}`,
    start,
    end,
    location: rng.pick(["Video call", "Big Conference Room", "Small Conference Room", "Phone"]),
    video_conferencing_url: rng.chance(0.7) ? `https://meet.example.com/sandbox-${id}` : null,
    status,
    created_at: created,
    updated_at: scored ? end : created,
    step: { id: step.id, name: step.name },
    organizer_id: rng.pick(userIds),
    interviewers: [{ user_id: interviewerId, response_status: scored ? "accepted" : rng.pick(["needs_action", "accepted", "tentative"]), scorecard_id: scorecardId }]
  })
}

