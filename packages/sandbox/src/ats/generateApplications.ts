import { DAY } from "../clock.js"
import type { FileStore } from "../files.js"
import { rngFor, type Rng } from "../prng.js"
import * as W from "../words.js"
import type { AtsState } from "./data.js"
import { generateActivity } from "./generateActivity.js"
import { generateApplicationHistory } from "./generateApplicationHistory.js"
import type { CandidateRec } from "./generateCandidates.js"
import { generateDocuments } from "./generateDocuments.js"
import { generateEmails } from "./generateEmails.js"
import type { JobRec } from "./generateJobs.js"
import { generateNotes } from "./generateNotes.js"
import type { UserRec } from "./generateUsers.js"
import { ID_BASE } from "./idBase.js"
import { fullName, slug } from "./recordText.js"
import type { SourceRec } from "./sourcesAndReasons.js"

/**
 * The ATS's applications and everything hanging off them. Each application draws from its own
 * generator, in this order: the application itself, then (for a candidate's first application)
 * documents, notes and an e-mail, then, unless it is a prospect, its history of stage moves,
 * interviews, scorecards, offers and outcome. The order is what keeps the records the same.
 */

export type ApplicationStatus = "active" | "rejected" | "hired" | "converted"

export interface ApplicationRec {
  id: number
  candidate_id: number
  prospect: boolean
  applied_at: number
  rejected_at: number | null
  last_activity_at: number
  location: string | null
  source_id: number | null
  credited_to_id: number | null
  referrer: { type: string; value: string } | null
  rejection_reason_id: number | null
  rejection_details: Record<string, unknown> | null
  job_id: number | null
  job_post_id: number | null
  status: ApplicationStatus
  stage_id: number | null
  answers: Array<{ question: string; answer: string }>
  custom_fields: Record<string, unknown>
  prospect_pool: { id: number; name: string } | null
  prospect_stage: { id: number; name: string } | null
  prospect_owner_id: number | null
}

/**
 * `count` applications: the first goes to the first candidate, and so on while candidates last;
 * the rest go to candidates picked at random, as their later applications.
 */
export const generateApplications = (state: AtsState, files: FileStore, seed: number, count: number, jobIds: ReadonlyArray<number>): void => {
  const candidateIds = [...state.candidates.keys()]
  const total = Math.max(0, count)
  for (let index = 0; index < total; index++) {
    const rng = rngFor(seed, "ats-application", index)
    const candidateId = index < candidateIds.length ? (candidateIds[index] as number) : rng.pick(candidateIds)
    const candidate = state.candidates.get(candidateId) as CandidateRec
    const first = candidate.application_ids.length === 0
    const appliedAt = first ? candidate.created_at + rng.int(1, 50) * 60000 : candidate.created_at + rng.int(1, 30) * DAY + rng.int(0, 86399) * 1000
    generateApplication(state, files, seed, rng, candidate, appliedAt, jobIds)
  }
}

const generateApplication = (
  state: AtsState,
  files: FileStore,
  seed: number,
  rng: Rng,
  candidate: CandidateRec,
  appliedAt: number,
  jobIds: ReadonlyArray<number>
): void => {
  const id = state.next.application++
  const userIds = [...state.users.keys()]
  const job = state.jobs.get(rng.pick(jobIds)) as JobRec
  const prospect = rng.chance(0.05)
  const source = rng.int(1, state.sources.size)
  const sourceRec = state.sources.get(source) as SourceRec
  const name = fullName(candidate)
  const actor = rng.pick(userIds)
  const city = rng.pick(W.CITIES)
  const app: ApplicationRec = {
    id,
    candidate_id: candidate.id,
    prospect,
    applied_at: appliedAt,
    rejected_at: null,
    last_activity_at: appliedAt,
    location: rng.chance(0.7) ? `${city[0]}, ${city[1] || city[2]}, ${city[2]}` : null,
    source_id: source,
    credited_to_id: rng.chance(0.6) ? rng.pick(userIds) : null,
    referrer: null,
    rejection_reason_id: null,
    rejection_details: null,
    job_id: job.id,
    job_post_id: prospect || rng.chance(0.3) ? null : 20000 + (job.id - ID_BASE.job),
    status: "active",
    stage_id: prospect ? null : (job.stage_ids[0] as number),
    answers: [
      { question: "How did you hear about this job?", answer: sourceRec.name },
      { question: "Are you legally authorized to work in this location?", answer: rng.chance(0.85) ? "Yes" : "No" },
      { question: "LinkedIn Profile", answer: `https://linkedin.example.com/in/${slug(candidate.first_name)}-${candidate.id}` }
    ],
    custom_fields: { notice_period: rng.pick(["Immediately", "2 weeks", "1 month", "3 months"]) },
    prospect_pool: prospect ? { id: 227, name: "Opted In: In-Person Event" } : null,
    prospect_stage: prospect ? { id: 826, name: rng.pick(["Contacted", "In Discussion", "Not Interested"]) } : null,
    prospect_owner_id: prospect ? actor : null
  }
  state.applications.set(id, app)
  candidate.application_ids.push(id)

  const actorName = fullName(state.users.get(actor) as UserRec)
  generateActivity(
    state,
    app,
    appliedAt,
    "application_created",
    prospect ? `${name} was added as a prospect for ${job.name} by ${actorName}` : `${name} applied online to ${job.name} via ${sourceRec.name}`,
    prospect ? actor : null,
    { status: { from: null, to: "active" } }
  )

  if (candidate.application_ids.length === 1) {
    // The candidate's documents, the first notes and e-mail come in with the first application.
    generateDocuments(state, files, seed, rng, candidate, id, appliedAt)
    generateNotes(state, rng, candidate.id, id, appliedAt, userIds)
    generateEmails(state, rng, candidate, id, job, appliedAt, userIds)
  }
  if (prospect) return
  generateApplicationHistory(state, rng, app, job, name)
}
