import { DAY } from "../clock.js"
import { FileStore, MEDIA, makeDocx, makePdf, makePng, makeText } from "../files.js"
import { rngFor, type Rng } from "../prng.js"
import * as W from "../words.js"
import { generateCandidates, type CandidateRec } from "./generateCandidates.js"
import { generateInterview, type InterviewRec } from "./generateInterview.js"
import { generateJobs, type JobRec, type StageRec } from "./generateJobs.js"
import { generateOffer, type OfferRec } from "./generateOffer.js"
import type { ScorecardRec } from "./generateScorecard.js"
import { generateUsers, type UserRec } from "./generateUsers.js"
import { ID_BASE } from "./idBase.js"
import { fullName, slug, usDate } from "./recordText.js"
import { rejectionReasonRecords, sourceRecords, type ReasonRec, type SourceRec } from "./sourcesAndReasons.js"

export { ID_BASE } from "./idBase.js"
export { fullName, usDate } from "./recordText.js"
export { STAGE_TEMPLATE } from "./generateJobs.js"
export type { CandidateRec } from "./generateCandidates.js"
export type { InterviewRec } from "./generateInterview.js"
export type { InterviewStepRec, JobRec, StageRec } from "./generateJobs.js"
export type { OfferRec } from "./generateOffer.js"
export { SCORECARD_ATTRIBUTES } from "./generateScorecard.js"
export type { ScorecardRec } from "./generateScorecard.js"
export type { UserRec } from "./generateUsers.js"
export type { ReasonRec, SourceRec } from "./sourcesAndReasons.js"

/** The ATS's in-memory records (Greenhouse Harvest v1 model). Times are epoch ms. */

export interface AtsCounts {
  readonly applications: number
  readonly candidates: number
  readonly jobs: number
  readonly users: number
}

export interface AttachmentRec {
  file_id: number
  candidate_id: number
  application_id: number | null
  filename: string
  type: string
  content_type: string
  created_at: number
}

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

export interface NoteRec {
  id: number
  candidate_id: number
  application_id: number | null
  created_at: number
  updated_at: number
  body: string
  user_id: number
  visibility: "admin_only" | "private" | "public"
}

export interface EmailRec {
  id: number
  candidate_id: number
  application_id: number | null
  created_at: number
  subject: string
  body: string
  from: string
  to: string
  cc: Array<string> | null
  user_id: number
}

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

export interface AtsState {
  readonly users: Map<number, UserRec>
  readonly jobs: Map<number, JobRec>
  readonly stages: Map<number, StageRec>
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
  readonly next: Record<"candidate" | "application" | "note" | "email" | "activity" | "file" | "offer" | "scorecard" | "interview", number>
}

/** Registers a generated attachment file in the store: bytes depend only on (seed, file id). */
const registerGeneratedFile = (
  files: FileStore,
  seed: number,
  id: number,
  kind: "pdf" | "docx" | "png" | "txt",
  filename: string,
  person: { first_name: string; last_name: string; title: string | null; company: string | null; email: string }
): void => {
  const name = fullName(person)
  const lines = [
    person.email,
    `Current role: ${person.title ?? "n/a"} at ${person.company ?? "n/a"}`,
    "Experience: building reliable systems, collaborating across teams, shipping often.",
    `Reference: sandbox file ${id}`
  ]
  const build = (): Buffer => {
    switch (kind) {
      case "pdf":
        return makePdf(`${name} - Resume`, lines)
      case "docx":
        return makeDocx([`${name} - Resume`, ...lines])
      case "png":
        return makePng(rngFor(seed, "file", id))
      case "txt":
        return makeText([`Dear Hiring Team,`, "", `I am excited to apply. ${lines[1]}.`, "", "Best regards,", name, `(sandbox file ${id})`])
    }
  }
  files.add({ id, filename, contentType: MEDIA[kind], build })
}

export const generateAts = (seed: number, counts: AtsCounts, files: FileStore): AtsState => {
  const users = generateUsers(seed, counts.users)
  const userIds = [...users.keys()]
  const { jobs, stages } = generateJobs(seed, counts.jobs, userIds)
  const jobIds = [...jobs.keys()]
  const sources = sourceRecords()
  const reasons = rejectionReasonRecords()

  const state: AtsState = {
    users,
    jobs,
    stages,
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
      interview: ID_BASE.interview
    }
  }

  generateCandidates(state, seed, counts.candidates, userIds)
  const candidateIds = [...state.candidates.keys()]

  const nApplications = Math.max(0, counts.applications)
  for (let j = 0; j < nApplications; j++) {
    const rng = rngFor(seed, "ats-application", j)
    const candidateId = j < candidateIds.length ? (candidateIds[j] as number) : rng.pick(candidateIds)
    const candidate = state.candidates.get(candidateId) as CandidateRec
    const first = candidate.application_ids.length === 0
    const appliedAt = first ? candidate.created_at + rng.int(1, 50) * 60000 : candidate.created_at + rng.int(1, 30) * DAY + rng.int(0, 86399) * 1000
    generateApplication(state, files, seed, rng, candidate, appliedAt, jobIds)
  }

  // Candidates without any application (only when counts.applications < counts.candidates) still
  // get a last_activity of their creation time; the rest take it from their applications.
  for (const c of state.candidates.values()) {
    const apps = c.application_ids.map((id) => state.applications.get(id) as ApplicationRec)
    const last = Math.max(c.created_at, ...apps.map((a) => a.last_activity_at))
    c.last_activity = last
    c.updated_at = last
  }
  return state
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

  const activity = (at: number, type: ActivityType, body: string, userId: number | null, changes: ActivityRec["changes"] = {}): void => {
    const actId = state.next.activity++
    state.activities.set(actId, { id: actId, candidate_id: candidate.id, application_id: id, created_at: at, subject: null, body, user_id: userId, type, changes })
    if (at > app.last_activity_at) app.last_activity_at = at
  }
  const userName = (uid: number): string => fullName(state.users.get(uid) as UserRec)
  activity(
    appliedAt,
    "application_created",
    prospect ? `${name} was added as a prospect for ${job.name} by ${userName(actor)}` : `${name} applied online to ${job.name} via ${sourceRec.name}`,
    prospect ? actor : null,
    { status: { from: null, to: "active" } }
  )

  if (candidate.application_ids.length === 1) {
    // The candidate's documents come in with the first application.
    const resumeKind = rng.chance(0.7) ? "pdf" : "docx"
    const docs: Array<["pdf" | "docx" | "png" | "txt", string, string]> = [[resumeKind, "resume", `${candidate.first_name}_${candidate.last_name}_Resume.${resumeKind}`]]
    if (rng.chance(0.4)) docs.push(["txt", "cover_letter", `${candidate.first_name}_${candidate.last_name}_Cover_Letter.txt`])
    if (rng.chance(0.25)) docs.push(["png", "other", `${candidate.first_name}_${candidate.last_name}_Portfolio.png`])
    const email = candidate.email_addresses[0]?.value ?? ""
    for (const [kind, type, filename] of docs) {
      const fileId = state.next.file++
      registerGeneratedFile(files, seed, fileId, kind, filename.replace(/\s+/g, "_"), { ...candidate, email })
      state.attachments.push({ file_id: fileId, candidate_id: candidate.id, application_id: id, filename: filename.replace(/\s+/g, "_"), type, content_type: MEDIA[kind], created_at: appliedAt })
    }
    const noteCount = rng.int(0, 2)
    for (let n = 0; n < noteCount; n++) {
      const noteId = state.next.note++
      const at = appliedAt + rng.int(1, 20) * 3600000
      state.notes.set(noteId, {
        id: noteId,
        candidate_id: candidate.id,
        application_id: id,
        created_at: at,
        updated_at: at,
        body: rng.pick(["Strong background, worth a closer look.", "Asked about remote work options.", "Great portfolio.", "Follow up next week about availability.", "Referred by a former colleague."]),
        user_id: rng.pick(userIds),
        visibility: rng.pick(["admin_only", "private", "public"] as const)
      })
    }
    if (rng.chance(0.5)) {
      const emailId = state.next.email++
      const uid = rng.pick(userIds)
      const at = appliedAt + rng.int(1, 48) * 3600000
      state.emails.set(emailId, {
        id: emailId,
        candidate_id: candidate.id,
        application_id: id,
        created_at: at,
        subject: `Your application for ${job.name}`,
        body: `Hi ${candidate.first_name}, thanks for applying! We will be in touch soon.`,
        from: (state.users.get(uid) as UserRec).email,
        to: email,
        cc: null,
        user_id: uid
      })
    }
  }
  if (prospect) return

  const status = rng.weighted<ApplicationStatus>([["active", 55], ["rejected", 30], ["hired", 15]])
  const lastIndex = job.stage_ids.length - 1
  const reach = status === "hired" ? lastIndex : status === "rejected" ? rng.int(0, lastIndex) : rng.weighted([[0, 30], [1, 20], [2, 15], [3, 15], [4, 10], [5, 10]] as const)
  let t = appliedAt
  for (let s = 1; s <= reach; s++) {
    const prev = state.stages.get(job.stage_ids[s - 1] as number) as StageRec
    // Interviews of the stage being left: held, scored, complete.
    for (const step of prev.interviews.filter((x) => x.schedulable)) {
      const start = t + rng.int(1, 3) * DAY + rng.int(9, 16) * 3600000 - (t % 3600000)
      generateInterview(state, rng, app, step, start, "complete", true)
    }
    t += rng.int(2, 6) * DAY + rng.int(0, 36000) * 1000
    const stage = state.stages.get(job.stage_ids[s] as number) as StageRec
    const mover = rng.pick(userIds)
    activity(t, "stage_change", `${name} was moved into ${stage.name} for ${job.name} on ${usDate(t)} by ${userName(mover)}`, mover, {
      current_stage: { from: { id: prev.id, name: prev.name }, to: { id: stage.id, name: stage.name } }
    })
    app.stage_id = stage.id
  }
  const current = state.stages.get(app.stage_id as number) as StageRec
  if (status === "active") {
    for (const step of current.interviews.filter((x) => x.schedulable)) {
      const start = t + rng.int(2, 8) * DAY + 10 * 3600000 - (t % 3600000)
      generateInterview(state, rng, app, step, start, rng.chance(0.7) ? "scheduled" : "awaiting_feedback", false)
    }
    if (current.priority === lastIndex) generateOffer(state, rng, app, t + DAY, "unresolved")
  } else if (status === "rejected") {
    t += rng.int(1, 5) * DAY
    const reason = state.reasons.get(rng.pick([...state.reasons.keys()])) as ReasonRec
    const rejecter = rng.pick(userIds)
    app.status = "rejected"
    app.rejected_at = t
    app.rejection_reason_id = reason.id
    app.rejection_details = { custom_fields: { rejection_feedback: null }, keyed_custom_fields: { rejection_feedback: { name: "Rejection feedback", type: "short_text", value: null } } }
    if (current.priority === lastIndex) generateOffer(state, rng, app, t - DAY, "rejected", t)
    activity(t, "rejected", `${name} was rejected from ${job.name} by ${userName(rejecter)}\n\nReason: ${reason.name}`, rejecter, {
      status: { from: "active", to: "rejected" },
      rejection_reason: { from: null, to: { id: reason.id, name: reason.name } }
    })
  } else {
    generateOffer(state, rng, app, t + DAY, "accepted", t + 3 * DAY)
    t += 4 * DAY
    const hirer = rng.pick(userIds)
    app.status = "hired"
    app.stage_id = null
    activity(t, "hired", `${name} was hired into ${job.name} by ${userName(hirer)}`, hirer, {
      status: { from: "active", to: "hired" },
      current_stage: { from: { id: current.id, name: current.name }, to: null }
    })
  }
}
