import { DATA_START, DAY, SANDBOX_NOW } from "../clock.js"
import { rngFor, type Rng } from "../prng.js"
import * as W from "../words.js"

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
  origin: "applied" | "sourced" | "referred" | "agency"
  sourcedBy: string | null
  tags: Array<string>
  isAnonymized: false
  dataProtection: null
  urls: { list: string; show: string }
  /** Not in Lever's answer: the posting applied to (the application's `posting`), for `posting_id` filtering. */
  postingId: string
}

export interface LeverState {
  readonly postings: Array<LeverPosting>
  readonly opportunities: Array<LeverOpportunity>
}

/** Lever's default pipeline stage ids. */
export const LEVER_STAGES = ["lead-new", "lead-reached-out", "lead-responded", "applicant-new", "phone-screen", "on-site-interview", "offer"] as const

/** A UUID (v4 layout) drawn from `rng`. */
const uuid = (rng: Rng): string => {
  const h = rng.hex(32)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${"89ab"[rng.int(0, 3)]}${h.slice(17, 20)}-${h.slice(20, 32)}`
}

const HIRE_URL = "https://hire.lever.co"
const JOBS_URL = "https://jobs.lever.co/sandbox"

export const generateLever = (seed: number, counts: { readonly opportunities: number; readonly postings: number }): LeverState => {
  const users = Array.from({ length: 6 }, (_, i) => uuid(rngFor(seed, "lever-user", i)))
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
    const archived = rng.chance(0.2) ? { reason: uuid(rng), archivedAt: Math.min(SANDBOX_NOW - 1, at + DAY) } : null
    const updatedAt = archived?.archivedAt ?? at
    const origin = rng.weighted([["applied", 5], ["sourced", 3], ["referred", 1], ["agency", 1]] as const)
    const posting = postings.length > 0 ? rng.pick(postings) : undefined
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
      applications: [uuid(rng)],
      sources: [origin === "applied" ? "Company website" : origin === "referred" ? "Referral" : origin === "agency" ? "Agency" : "LinkedIn"],
      origin,
      sourcedBy: origin === "sourced" ? owner : null,
      tags: rng.sample(W.TAGS, rng.int(0, 2)),
      isAnonymized: false,
      dataProtection: null,
      urls: { list: `${HIRE_URL}/candidates`, show: `${HIRE_URL}/candidates/${id}` },
      postingId: posting?.id ?? ""
    })
  }
  // Lever lists newest first.
  opportunities.sort((a, b) => b.createdAt - a.createdAt || a.id.localeCompare(b.id))
  postings.sort((a, b) => b.createdAt - a.createdAt || a.id.localeCompare(b.id))
  return { postings, opportunities }
}
