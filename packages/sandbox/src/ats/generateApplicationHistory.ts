import { DAY } from "../clock.js"
import type { Rng } from "../prng.js"
import type { AtsState } from "./data.js"
import { generateActivity } from "./generateActivity.js"
import type { ApplicationRec, ApplicationStatus } from "./generateApplications.js"
import { generateInterview } from "./generateInterview.js"
import type { JobRec, StageRec } from "./generateJobs.js"
import { generateOffer } from "./generateOffer.js"
import type { UserRec } from "./generateUsers.js"
import { fullName, usDate } from "./recordText.js"
import type { ReasonRec } from "./sourcesAndReasons.js"

/**
 * What happened to a (non-prospect) application after it came in: it moves through its job's
 * stages, with the interviews of each stage it leaves held and scored, and then stays active
 * (with interviews to come, and an open offer at the Offer stage), is rejected, or is hired.
 */

export const generateApplicationHistory = (state: AtsState, rng: Rng, app: ApplicationRec, job: JobRec, candidateName: string): void => {
  const userIds = [...state.users.keys()]
  const userName = (userId: number): string => fullName(state.users.get(userId) as UserRec)
  const status = rng.weighted<ApplicationStatus>([["active", 55], ["rejected", 30], ["hired", 15]])
  const lastIndex = job.stage_ids.length - 1
  // How many stages it moves on: to the last for a hire, anywhere for a rejection, mostly early while active.
  const reach = status === "hired" ? lastIndex : status === "rejected" ? rng.int(0, lastIndex) : rng.weighted([[0, 30], [1, 20], [2, 15], [3, 15], [4, 10], [5, 10]] as const)
  let at = app.applied_at
  for (let stageIndex = 1; stageIndex <= reach; stageIndex++) {
    const previous = state.stages.get(job.stage_ids[stageIndex - 1] as number) as StageRec
    // Interviews of the stage being left: held, scored, complete.
    for (const step of previous.interviews.filter((interview) => interview.schedulable)) {
      const start = at + rng.int(1, 3) * DAY + rng.int(9, 16) * 3600000 - (at % 3600000)
      generateInterview(state, rng, app, step, start, "complete", true)
    }
    at += rng.int(2, 6) * DAY + rng.int(0, 36000) * 1000
    const stage = state.stages.get(job.stage_ids[stageIndex] as number) as StageRec
    const mover = rng.pick(userIds)
    generateActivity(state, app, at, "stage_change", `${candidateName} was moved into ${stage.name} for ${job.name} on ${usDate(at)} by ${userName(mover)}`, mover, {
      current_stage: { from: { id: previous.id, name: previous.name }, to: { id: stage.id, name: stage.name } }
    })
    app.stage_id = stage.id
  }
  const current = state.stages.get(app.stage_id as number) as StageRec
  if (status === "active") {
    for (const step of current.interviews.filter((interview) => interview.schedulable)) {
      const start = at + rng.int(2, 8) * DAY + 10 * 3600000 - (at % 3600000)
      generateInterview(state, rng, app, step, start, rng.chance(0.7) ? "scheduled" : "awaiting_feedback", false)
    }
    if (current.priority === lastIndex) generateOffer(state, rng, app, at + DAY, "unresolved")
  } else if (status === "rejected") {
    at += rng.int(1, 5) * DAY
    const reason = state.reasons.get(rng.pick([...state.reasons.keys()])) as ReasonRec
    const rejecter = rng.pick(userIds)
    app.status = "rejected"
    app.rejected_at = at
    app.rejection_reason_id = reason.id
    app.rejection_details = { custom_fields: { rejection_feedback: null }, keyed_custom_fields: { rejection_feedback: { name: "Rejection feedback", type: "short_text", value: null } } }
    if (current.priority === lastIndex) generateOffer(state, rng, app, at - DAY, "rejected", at)
    generateActivity(state, app, at, "rejected", `${candidateName} was rejected from ${job.name} by ${userName(rejecter)}\n\nReason: ${reason.name}`, rejecter, {
      status: { from: "active", to: "rejected" },
      rejection_reason: { from: null, to: { id: reason.id, name: reason.name } }
    })
  } else {
    generateOffer(state, rng, app, at + DAY, "accepted", at + 3 * DAY)
    at += 4 * DAY
    const hirer = rng.pick(userIds)
    app.status = "hired"
    app.stage_id = null
    generateActivity(state, app, at, "hired", `${candidateName} was hired into ${job.name} by ${userName(hirer)}`, hirer, {
      status: { from: "active", to: "hired" },
      current_stage: { from: { id: current.id, name: current.name }, to: null }
    })
  }
}
