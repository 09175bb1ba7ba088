import type { FileStore } from "../files.js"
import type { ActivityRec } from "./generateActivity.js"
import { generateApplications, type ApplicationRec } from "./generateApplications.js"
import { generateCandidates, type CandidateRec } from "./generateCandidates.js"
import type { AttachmentRec } from "./generateDocuments.js"
import type { EmailRec } from "./generateEmails.js"
import type { InterviewRec } from "./generateInterview.js"
import { fieldDefinitionRecords, type FieldDefinitionRec } from "./customFieldDefinitions.js"
import { generateJobs, type JobPostRec, type JobRec, type StageRec } from "./generateJobs.js"
import type { NoteRec } from "./generateNotes.js"
import type { OfferRec } from "./generateOffer.js"
import type { ScorecardRec } from "./generateScorecard.js"
import { generateUsers, type UserRec } from "./generateUsers.js"
import { ID_BASE } from "./idBase.js"
import { departmentRecords, officeRecords, type DepartmentRec, type OfficeRec } from "./organization.js"
import { rejectionReasonRecords, sourceRecords, type ReasonRec, type SourceRec } from "./sourcesAndReasons.js"

/**
 * The ATS's in-memory records (Greenhouse Harvest v1 model; times are epoch ms): the store type
 * and generateAts, which fills it from the seed. Each record family has its generator module,
 * which also defines its record type; they are re-exported here, so the routes, index.ts and the
 * MCP server keep importing the whole model from this one place.
 */

export { ID_BASE } from "./idBase.js"
export { fullName, usDate } from "./recordText.js"
export type { ActivityRec, ActivityType } from "./generateActivity.js"
export type { ApplicationRec, ApplicationStatus } from "./generateApplications.js"
export type { CandidateRec } from "./generateCandidates.js"
export type { AttachmentRec } from "./generateDocuments.js"
export type { EmailRec } from "./generateEmails.js"
export type { InterviewRec } from "./generateInterview.js"
export { STAGE_TEMPLATE } from "./generateJobs.js"
export type { InterviewStepRec, JobPostRec, JobRec, StageRec } from "./generateJobs.js"
export type { DepartmentRec, OfficeRec } from "./organization.js"
export type { FieldDefinitionRec } from "./customFieldDefinitions.js"
export type { NoteRec } from "./generateNotes.js"
export type { OfferRec } from "./generateOffer.js"
export { SCORECARD_ATTRIBUTES } from "./generateScorecard.js"
export type { ScorecardRec } from "./generateScorecard.js"
export type { UserRec } from "./generateUsers.js"
export type { ReasonRec, SourceRec } from "./sourcesAndReasons.js"

export interface AtsCounts {
  readonly applications: number
  readonly candidates: number
  readonly jobs: number
  readonly users: number
}

export interface AtsState {
  readonly users: Map<number, UserRec>
  readonly jobs: Map<number, JobRec>
  readonly stages: Map<number, StageRec>
  readonly jobPosts: Map<number, JobPostRec>
  readonly departments: Map<number, DepartmentRec>
  readonly offices: Map<number, OfficeRec>
  readonly fieldDefinitions: Map<number, FieldDefinitionRec>
  readonly sources: Map<number, SourceRec>
  readonly reasons: Map<number, ReasonRec>
  readonly candidates: Map<number, CandidateRec>
  readonly applications: Map<number, ApplicationRec>
  readonly notes: Map<number, NoteRec>
  readonly emails: Map<number, EmailRec>
  readonly activities: Map<number, ActivityRec>
  readonly scorecards: Map<number, ScorecardRec>
  readonly interviews: Map<number, InterviewRec>
  readonly offers: Map<number, OfferRec>
  readonly attachments: Array<AttachmentRec>
  /** The next id to hand out, per kind. */
  readonly next: Record<"candidate" | "application" | "note" | "email" | "activity" | "file" | "offer" | "scorecard" | "interview" | "job" | "jobPost", number>
}

/**
 * Same seed and counts, same records. Each user, job, candidate and application draws from its
 * own generator, seeded by (seed, kind, index), so more records of one kind leave the others as
 * they were; what hangs off an application (documents, notes, interviews, offers ...) draws from
 * the application's generator, in the order generateApplications keeps.
 */
export const generateAts = (seed: number, counts: AtsCounts, files: FileStore): AtsState => {
  const users = generateUsers(seed, counts.users)
  const userIds = [...users.keys()]
  const { jobs, stages, jobPosts } = generateJobs(seed, counts.jobs, userIds)
  const jobIds = [...jobs.keys()]
  const sources = sourceRecords()
  const reasons = rejectionReasonRecords()

  const state: AtsState = {
    users,
    jobs,
    stages,
    jobPosts,
    departments: departmentRecords(),
    offices: officeRecords(),
    fieldDefinitions: fieldDefinitionRecords(),
    sources,
    reasons,
    candidates: new Map(),
    applications: new Map(),
    notes: new Map(),
    emails: new Map(),
    activities: new Map(),
    scorecards: new Map(),
    interviews: new Map(),
    offers: new Map(),
    attachments: [],
    next: {
      candidate: ID_BASE.candidate,
      application: ID_BASE.application,
      note: ID_BASE.note,
      email: ID_BASE.email,
      activity: ID_BASE.activity,
      file: ID_BASE.file,
      offer: ID_BASE.offer,
      scorecard: ID_BASE.scorecard,
      interview: ID_BASE.interview,
      job: Math.max(...jobs.keys()) + 1,
      jobPost: Math.max(...jobPosts.keys()) + 1
    }
  }

  generateCandidates(state, seed, counts.candidates, userIds)
  generateApplications(state, files, seed, counts.applications, jobIds)

  // Candidates without any application (only when counts.applications < counts.candidates) still
  // get a last_activity of their creation time; the rest take it from their applications.
  for (const candidate of state.candidates.values()) {
    const applications = candidate.application_ids.map((id) => state.applications.get(id) as ApplicationRec)
    const last = Math.max(candidate.created_at, ...applications.map((application) => application.last_activity_at))
    candidate.last_activity = last
    candidate.updated_at = last
  }
  return state
}
