import { DATA_START, DAY, SANDBOX_NOW } from "../clock.js"
import { rngFor, type Rng } from "../prng.js"
import * as W from "../words.js"
import { generateActivity, generateStages, generateUsers, type LeverActivity, type LeverStage, type LeverUser } from "./activity.js"

/** The recruiting records behind the OAuth provider (Lever API v1 model); times are epoch ms, as in Lever. */

export interface LeverPosting {
  id: string
  text: string
  createdAt: number
  updatedAt: number
  user: string
  owner: string
  hiringManager: string
  confidentiality: "non-confidential"
  categories: { team: string; department: string; location: string; commitment: string; level: string; allLocations: Array<string> }
  content: { description: string; descriptionHtml: string; lists: Array<{ text: string; content: string }>; closing: string; closingHtml: string }
  country: string
  followers: Array<string>
  tags: Array<string>
  state: "published" | "internal" | "closed" | "draft"
  distributionChannels: Array<string>
  reqCode: string
  requisitionCodes: Array<string>
  workplaceType: "onsite" | "remote" | "hybrid"
  urls: { list: string; show: string; apply: string }
}

export interface LeverOpportunity {
  id: string
  name: string
  headline: string
  contact: string
  emails: Array<string>
  phones: Array<{ type: string; value: string }>
  confidentiality: "non-confidential"
  location: string
  links: Array<string>
  archived: { reason: string; archivedAt: number } | null
  createdAt: number
  updatedAt: number
  lastInteractionAt: number
  lastAdvancedAt: number
  snoozedUntil: null
  stage: string
  stageChanges: Array<{ toStageId: string; toStageIndex: number; updatedAt: number; userId: string }>
  owner: string
  followers: Array<string>
  applications: Array<string>
  sources: Array<string>
  origin: "applied" | "sourced" | "referred" | "agency" | "internal" | "university"
  sourcedBy: string | null
  tags: Array<string>
  isAnonymized: false
  dataProtection: null
  urls: { list: string; show: string }
  /** Not in Lever's answer: the posting applied to (the application's `posting`), "" without an application. */
  postingId: string
}

/** Lever's application: at most one per opportunity, derived from it when served (see `applicationView`). */
export interface LeverApplication {
  id: string
  /** Deprecated in Lever (the opportunity id); still sent. */
  candidateId: string
  opportunityId: string
  createdAt: number
  type: "posting" | "user" | "referral"
  posting: string
  postingOwner: string | null
  postingHiringManager: string | null
  user: string | null
  name: string
  email: string | null
  phone: { type: string; value: string } | null
  company: string | null
  links: Array<string>
  comments: string | null
  customQuestions: Array<unknown>
  archived: { reason: string; archivedAt: number } | null
  requisitionForHire: null
}

export interface LeverArchiveReason {
  id: string
  text: string
  status: "active" | "inactive"
  type: "hired" | "non-hired"
}

export interface LeverState {
  readonly seed: number
  readonly postings: Array<LeverPosting>
  readonly opportunities: Array<LeverOpportunity>
  readonly archiveReasons: ReadonlyArray<LeverArchiveReason>
  /** Lever user ids (owners, hiring managers, followers); any may be `perform_as`. */
  readonly users: ReadonlyArray<string>
  /** Opportunities created through the API so far (seeds their ids). */
  created: number
  /** The pipeline stages (GET /stages). */
  readonly stages: ReadonlyArray<LeverStage>
  /** The user records behind `users`, deactivated ones included (GET /users). */
  readonly people: ReadonlyArray<LeverUser>
  /** Notes, offers, interviews, feedback and files by opportunity id (absent: none yet). */
  readonly activity: Map<string, LeverActivity>
  /** Notes created through the API so far (seeds their ids). */
  notesCreated: number
}

/** Lever's default pipeline stage ids. */
export const LEVER_STAGES = ["lead-new", "lead-reached-out", "lead-responded", "applicant-new", "phone-screen", "on-site-interview", "offer"] as const

/** The stage names shown in Lever (`expand=stage` answers `{id, text}`). */
export const LEVER_STAGE_TEXT: Readonly<Record<string, string>> = {
  "lead-new": "New lead",
  "lead-reached-out": "Reached out",
  "lead-responded": "Responded",
  "applicant-new": "New applicant",
  "phone-screen": "Phone screen",
  "on-site-interview": "On-site interview",
  offer: "Offer"
}

/** Lever's default archive reasons: one hired, the rest not (one of those inactive). */
const ARCHIVE_REASONS: ReadonlyArray<Omit<LeverArchiveReason, "id">> = [
  { text: "Underqualified", status: "active", type: "non-hired" },
  { text: "Culture Fit", status: "active", type: "non-hired" },
  { text: "Timing", status: "active", type: "non-hired" },
  { text: "Withdrew", status: "active", type: "non-hired" },
  { text: "Offer declined", status: "active", type: "non-hired" },
  { text: "Hired", status: "active", type: "hired" },
  { text: "Position filled", status: "inactive", type: "non-hired" }
]

/** The application type Lever gives an opportunity's application, by how the candidate came in. */
const applicationType = (origin: string): LeverApplication["type"] =>
  origin === "referred" ? "referral" : origin === "applied" || origin === "agency" ? "posting" : "user"

/** The opportunity's application as Lever answers it, or undefined when it has none. */
export const applicationView = (state: LeverState, opportunity: LeverOpportunity): LeverApplication | undefined => {
  const id = opportunity.applications[0]
  if (id === undefined) return undefined
  const posting = state.postings.find((p) => p.id === opportunity.postingId)
  const type = applicationType(opportunity.origin)
  return {
    id,
    candidateId: opportunity.id,
    opportunityId: opportunity.id,
    createdAt: opportunity.createdAt,
    type,
    posting: opportunity.postingId,
    postingOwner: posting?.owner ?? null,
    postingHiringManager: posting?.hiringManager ?? null,
    user: type === "posting" ? null : opportunity.owner,
    name: opportunity.name,
    email: opportunity.emails[0] ?? null,
    phone: opportunity.phones[0] ?? null,
    company: type === "posting" ? opportunity.headline : null,
    links: opportunity.links,
    comments: null,
    customQuestions: [],
    archived: opportunity.archived,
    requisitionForHire: null
  }
}

/** A UUID (v4 layout) drawn from `rng`. */
export const uuid = (rng: Rng): string => {
  const h = rng.hex(32)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${"89ab"[rng.int(0, 3)]}${h.slice(17, 20)}-${h.slice(20, 32)}`
}

const HIRE_URL = "https://hire.lever.co"

/** The `urls` of an opportunity: its list and its profile in Lever's app. */
export const opportunityUrls = (id: string): LeverOpportunity["urls"] => ({ list: `${HIRE_URL}/candidates`, show: `${HIRE_URL}/candidates/${id}` })
const JOBS_URL = "https://jobs.lever.co/sandbox"

export const generateLever = (seed: number, counts: { readonly opportunities: number; readonly postings: number }): LeverState => {
  const users = Array.from({ length: 6 }, (_, i) => uuid(rngFor(seed, "lever-user", i)))
  const archiveReasons = ARCHIVE_REASONS.map((reason, i) => ({ id: uuid(rngFor(seed, "lever-archive-reason", i)), ...reason }))
  const hired = archiveReasons.find((r) => r.type === "hired") as LeverArchiveReason
  const rejections = archiveReasons.filter((r) => r.type === "non-hired" && r.status === "active")
  const postings: Array<LeverPosting> = []
  for (let i = 0; i < counts.postings; i++) {
    const rng = rngFor(seed, "lever-posting", i)
    const id = uuid(rng)
    const text = W.JOB_NAMES[i % W.JOB_NAMES.length] as string
    const department = rng.pick(W.DEPARTMENTS)
    const location = rng.pick(W.OFFICES)
    const createdAt = DATA_START + rng.int(0, 120) * DAY + rng.int(0, DAY - 1)
    const description = `${text} in ${department}, ${location}.`
    postings.push({
      id,
      text,
      createdAt,
      updatedAt: createdAt + rng.int(0, 60) * DAY,
      user: rng.pick(users),
      owner: rng.pick(users),
      hiringManager: rng.pick(users),
      confidentiality: "non-confidential",
      categories: { team: department, department, location, commitment: rng.pick(["Full-time", "Part-time", "Contract"]), level: rng.pick(["Junior", "Mid", "Senior"]), allLocations: [location] },
      content: { description, descriptionHtml: `<p>${description}</p>`, lists: [{ text: "Requirements", content: "<li>Curiosity</li><li>Care</li>" }], closing: "Apply today.", closingHtml: "<p>Apply today.</p>" },
      country: location === "London" ? "GB" : location === "Berlin" ? "DE" : location === "Toronto" ? "CA" : "US",
      followers: rng.sample(users, 2),
      tags: rng.sample(W.TAGS, 2),
      state: rng.weighted([["published", 6], ["internal", 1], ["closed", 1]] as const),
      distributionChannels: ["public", "internal"],
      reqCode: `REQ-${1000 + i}`,
      requisitionCodes: [`REQ-${1000 + i}`],
      workplaceType: location === "Remote" ? "remote" : rng.pick(["onsite", "hybrid"] as const),
      urls: { list: `${JOBS_URL}`, show: `${JOBS_URL}/${id}`, apply: `${JOBS_URL}/${id}/apply` }
    })
  }
  const opportunities: Array<LeverOpportunity> = []
  for (let i = 0; i < counts.opportunities; i++) {
    const rng = rngFor(seed, "lever-opportunity", i)
    const id = uuid(rng)
    const first = rng.pick(W.FIRST_NAMES)
    const last = rng.pick(W.LAST_NAMES)
    const createdAt = DATA_START + rng.int(0, 300) * DAY + rng.int(0, DAY - 1)
    const stageIndex = rng.int(0, LEVER_STAGES.length - 1)
    const owner = rng.pick(users)
    let at = createdAt
    const stageChanges = Array.from({ length: stageIndex + 1 }, (_, index) => {
      if (index > 0) at = Math.min(SANDBOX_NOW - 1, at + rng.int(1, 10) * DAY)
      return { toStageId: LEVER_STAGES[index] as string, toStageIndex: index, updatedAt: at, userId: owner }
    })
    // offers end in a hire half the time; otherwise one in five opportunities is archived for a non-hired reason
    const reason = stageIndex === LEVER_STAGES.length - 1 && rng.chance(0.5) ? hired : rng.chance(0.2) ? rng.pick(rejections) : undefined
    const archived = reason === undefined ? null : { reason: reason.id, archivedAt: Math.min(SANDBOX_NOW - 1, at + DAY) }
    const updatedAt = archived?.archivedAt ?? at
    const origin = rng.weighted([["applied", 5], ["sourced", 3], ["referred", 1], ["agency", 1]] as const)
    // half of the sourced leads are not applied to any posting yet: no application
    const unapplied = origin === "sourced" && stageIndex < 3 && rng.chance(0.5)
    const posting = postings.length > 0 && !unapplied ? rng.pick(postings) : undefined
    opportunities.push({
      id,
      name: `${first} ${last}`,
      headline: rng.pick(W.COMPANIES),
      contact: uuid(rng),
      emails: [`${first}.${last}${i}@example.com`.toLowerCase()],
      phones: [{ type: "mobile", value: `+1 555 ${rng.digits(3)} ${rng.digits(4)}` }],
      confidentiality: "non-confidential",
      location: rng.pick(W.CITIES)[0],
      links: [`https://www.linkedin.com/in/${first}-${last}-${i}`.toLowerCase()],
      archived,
      createdAt,
      updatedAt,
      lastInteractionAt: updatedAt,
      lastAdvancedAt: at,
      snoozedUntil: null,
      stage: LEVER_STAGES[stageIndex] as string,
      stageChanges,
      owner,
      followers: [owner],
      applications: posting === undefined ? [] : [uuid(rng)],
      sources: [origin === "applied" ? "Company website" : origin === "referred" ? "Referral" : origin === "agency" ? "Agency" : "LinkedIn"],
      origin,
      sourcedBy: origin === "sourced" ? owner : null,
      tags: rng.sample(W.TAGS, rng.int(0, 2)),
      isAnonymized: false,
      dataProtection: null,
      urls: opportunityUrls(id),
      postingId: posting?.id ?? ""
    })
  }
  // Lever lists newest first.
  opportunities.sort((a, b) => b.createdAt - a.createdAt || a.id.localeCompare(b.id))
  postings.sort((a, b) => b.createdAt - a.createdAt || a.id.localeCompare(b.id))
  const people = generateUsers(seed, users)
  const activity = new Map(opportunities.map((o) => [o.id, generateActivity(seed, o, people)]))
  return { seed, postings, opportunities, archiveReasons, users, created: 0, stages: generateStages(), people, activity, notesCreated: 0 }
}
