import { DAY, SANDBOX_NOW } from "../clock.js"
import { rngFor } from "../prng.js"
import * as W from "../words.js"
import { LEVER_STAGES, LEVER_STAGE_TEXT, uuid, type LeverOpportunity } from "./data.js"

/**
 * What Lever keeps on an opportunity besides itself (Lever API v1, hire.lever.co/developer/documentation:
 * Notes, Offers, Interviews, Feedback, Files), and the account's Stages and Users. Times are epoch ms.
 */

export interface LeverStage {
  id: string
  text: string
}

/** Users: "anyone who has been invited to join in on recruiting efforts". */
export interface LeverUser {
  id: string
  name: string
  username: string
  email: string
  createdAt: number
  deactivatedAt: number | null
  externalDirectoryId: string | null
  accessRole: "super admin" | "admin" | "team member" | "limited team member" | "interviewer"
  photo: string | null
  linkedContactIds: Array<string>
  jobTitle: string | null
}

/** A form field as Lever answers it in notes and feedback (`type`, `text`, `value`, ...). */
export interface LeverFormField {
  type: string
  text: string
  description?: string
  required?: boolean
  value: string | number | boolean | null
}

export interface LeverNote {
  id: string
  text: string
  fields: Array<LeverFormField>
  user: string
  secret: boolean
  completedAt: number
  createdAt: number
  deletedAt: number | null
}

export interface LeverOffer {
  id: string
  posting: string
  createdAt: number
  status: "draft" | "approval-sent" | "approved" | "sent" | "sent-manually" | "opened" | "denied" | "signed"
  creator: string
  fields: Array<{ text: string; identifier: string; value: string | number | null }>
  signatures: { candidate: { firstOpenedAt: number | null; lastOpenedAt: number | null; signedAt: number | null } }
  approved: boolean
  approvedAt: number | null
  sentAt: number | null
  sentDocument: null
  signedDocument: null
}

export interface LeverInterview {
  id: string
  panel: string
  subject: string
  note: string
  interviewers: Array<{ id: string; name: string; email: string; feedbackTemplate: string }>
  timezone: string
  createdAt: number
  date: number
  duration: number
  location: string
  feedbackTemplate: string
  feedbackForms: Array<string>
  feedbackReminder: "once" | "daily" | "frequently" | "none"
  user: string
  stage: string
  canceledAt: number | null
  postings: Array<string>
  gcalEventUrl: string | null
}

export interface LeverFeedback {
  id: string
  type: "interview"
  text: string
  instructions: string
  fields: Array<LeverFormField>
  baseTemplateId: string
  interview: string
  panel: string
  user: string
  createdAt: number
  completedAt: number
  updatedAt: number
  deletedAt: number | null
}

export interface LeverFile {
  id: string
  downloadUrl: string
  ext: string
  name: string
  uploadedAt: number
  status: "processing" | "processed" | "unsupported" | "error" | null
  size: number
}

/** A file with its bytes (not in Lever's answer). */
export interface StoredFile extends LeverFile {
  readonly content: string
  readonly contentType: string
}

/** Everything on one opportunity, newest first as Lever lists it. */
export interface LeverActivity {
  notes: Array<LeverNote>
  offers: Array<LeverOffer>
  interviews: Array<LeverInterview>
  feedback: Array<LeverFeedback>
  files: Array<StoredFile>
}

export const emptyActivity = (): LeverActivity => ({ notes: [], offers: [], interviews: [], feedback: [], files: [] })

const ROLES: ReadonlyArray<LeverUser["accessRole"]> = ["super admin", "admin", "team member", "team member", "limited team member", "interviewer"]

/** The account's users: the ids are those of `generateLever` (owners, followers, perform_as). */
export const generateUsers = (seed: number, ids: ReadonlyArray<string>): Array<LeverUser> =>
  ids.map((id, i) => {
    const rng = rngFor(seed, "lever-user-profile", i)
    const first = rng.pick(W.FIRST_NAMES)
    const last = rng.pick(W.LAST_NAMES)
    const username = `${first}.${last}`.toLowerCase()
    return {
      id,
      name: `${first} ${last}`,
      username,
      email: `${username}@sandbox-recruiting.example`,
      createdAt: SANDBOX_NOW - rng.int(400, 900) * DAY,
      // the last user has left (Lever keeps deactivated users, listed only with includeDeactivated=true)
      deactivatedAt: i === ids.length - 1 ? SANDBOX_NOW - rng.int(10, 90) * DAY : null,
      externalDirectoryId: null,
      accessRole: ROLES[i % ROLES.length] as LeverUser["accessRole"],
      photo: null,
      linkedContactIds: [],
      jobTitle: rng.pick(["Recruiter", "Sourcer", "Hiring Manager", "Recruiting Coordinator", "Engineering Manager"])
    }
  })

export const generateStages = (): Array<LeverStage> => LEVER_STAGES.map((id) => ({ id, text: LEVER_STAGE_TEXT[id] as string }))

const NOTE_LINES = [
  "Strong communicator, asked good questions about the team.",
  "Prefers a hybrid setup; available from next month.",
  "Referred by a former colleague; follow up after the screen.",
  "Salary expectations are within the band.",
  "Needs a visa sponsorship conversation."
] as const

const noteField = (value: string): LeverFormField => ({ type: "note", text: "Note", value })

/** A note as POST /opportunities/:id/notes makes it. */
export const newNote = (id: string, user: string, value: string, secret: boolean, at: number): LeverNote => ({
  id,
  text: "Note",
  fields: [noteField(value)],
  user,
  secret,
  completedAt: at,
  createdAt: at,
  deletedAt: null
})

const feedbackFields = (rating: number, summary: string): Array<LeverFormField> => [
  { type: "score-system", text: "Rating", description: "Overall rating", required: true, value: rating },
  { type: "textarea", text: "Summary", description: "Your impression of the candidate", required: true, value: summary },
  { type: "yes-no", text: "Would you work with them?", description: "", required: false, value: rating >= 3 ? "yes" : "no" }
]

/**
 * Notes for most opportunities, an interview per interview stage reached (phone screen, on-site) with
 * feedback from the completed ones, an offer for those at the offer stage, and a resume file for applicants.
 */
export const generateActivity = (seed: number, opportunity: LeverOpportunity, users: ReadonlyArray<LeverUser>): LeverActivity => {
  const rng = rngFor(seed, "lever-activity", opportunity.id)
  const activity = emptyActivity()
  const active = users.filter((u) => u.deactivatedAt === null)
  const lastChange = opportunity.stageChanges.at(-1)?.updatedAt ?? opportunity.createdAt
  const noteCount = rng.int(0, 3)
  for (let i = 0; i < noteCount; i++) {
    const at = Math.min(SANDBOX_NOW - 1, opportunity.createdAt + rng.int(0, 20) * DAY + rng.int(0, DAY - 1))
    activity.notes.push(newNote(uuid(rng), rng.pick(active).id, rng.pick(NOTE_LINES), rng.chance(0.2), at))
  }
  const stageIndex = (LEVER_STAGES as ReadonlyArray<string>).indexOf(opportunity.stage)
  for (const stage of ["phone-screen", "on-site-interview"] as const) {
    const reached = opportunity.stageChanges.find((c) => c.toStageId === stage)
    if (reached === undefined) continue
    const interviewers = rng.sample(active, stage === "phone-screen" ? 1 : 2)
    const date = reached.updatedAt + rng.int(1, 4) * DAY
    const id = uuid(rng)
    const panel = uuid(rng)
    const template = uuid(rng)
    const canceled = rng.chance(0.1)
    // feedback on interviews the candidate has moved past (or that are not the current stage's)
    const completed = !canceled && (stageIndex > (LEVER_STAGES as ReadonlyArray<string>).indexOf(stage) || rng.chance(0.5))
    const forms = completed
      ? interviewers.map((interviewer): LeverFeedback => {
          const done = date + rng.int(1, 48) * 3_600_000
          return {
            id: uuid(rng),
            type: "interview",
            text: `${LEVER_STAGE_TEXT[stage]} feedback`,
            instructions: "Rate the candidate and summarize the conversation.",
            fields: feedbackFields(rng.int(1, 4), rng.pick(NOTE_LINES)),
            baseTemplateId: template,
            interview: id,
            panel,
            user: interviewer.id,
            createdAt: done,
            completedAt: done,
            updatedAt: done,
            deletedAt: null
          }
        })
      : []
    activity.feedback.push(...forms)
    activity.interviews.push({
      id,
      panel,
      subject: `${LEVER_STAGE_TEXT[stage]} with ${opportunity.name}`,
      note: "",
      interviewers: interviewers.map((u) => ({ id: u.id, name: u.name, email: u.email, feedbackTemplate: template })),
      timezone: "America/New_York",
      createdAt: reached.updatedAt,
      date,
      duration: stage === "phone-screen" ? 30 : 60,
      location: stage === "phone-screen" ? "Phone" : rng.pick(W.OFFICES),
      feedbackTemplate: template,
      feedbackForms: forms.map((f) => f.id),
      feedbackReminder: "frequently",
      user: opportunity.owner,
      stage,
      canceledAt: canceled ? reached.updatedAt + DAY : null,
      postings: opportunity.postingId === "" ? [] : [opportunity.postingId],
      gcalEventUrl: null
    })
  }
  if (opportunity.stage === "offer" && opportunity.postingId !== "") {
    const createdAt = lastChange + rng.int(0, 2) * DAY
    const status = opportunity.archived !== null ? "signed" : rng.pick(["draft", "approval-sent", "approved", "sent", "opened", "denied"] as const)
    const sent = !["draft", "approval-sent", "approved"].includes(status)
    const approved = status !== "draft" && status !== "approval-sent"
    activity.offers.push({
      id: uuid(rng),
      posting: opportunity.postingId,
      createdAt,
      status,
      creator: opportunity.owner,
      fields: [
        { text: "Anticipated start date", identifier: "anticipated_start_date", value: createdAt + 30 * DAY },
        { text: "Salary", identifier: "salary_amount", value: 1000 * rng.int(60, 180) },
        { text: "Currency", identifier: "compensation_currency", value: "USD" }
      ],
      signatures: { candidate: { firstOpenedAt: null, lastOpenedAt: null, signedAt: status === "signed" ? createdAt + 2 * DAY : null } },
      approved,
      approvedAt: approved ? createdAt + DAY / 2 : null,
      sentAt: sent ? createdAt + DAY : null,
      sentDocument: null,
      signedDocument: null
    })
  }
  if (opportunity.applications.length > 0) {
    const id = uuid(rng)
    const content = `Resume of ${opportunity.name}\n${opportunity.headline}\n${opportunity.emails.join(", ")}\n`
    activity.files.push({
      id,
      downloadUrl: `https://api.lever.co/v1/opportunities/${opportunity.id}/files/${id}/download`,
      ext: "txt",
      name: `${opportunity.name.replace(/ /g, "_")}_resume.txt`,
      uploadedAt: opportunity.createdAt,
      status: "processed",
      size: Buffer.byteLength(content),
      content,
      contentType: "text/plain"
    })
  }
  for (const list of [activity.notes, activity.interviews, activity.feedback, activity.offers] as const) {
    ;(list as Array<{ createdAt: number }>).sort((a, b) => b.createdAt - a.createdAt)
  }
  return activity
}
