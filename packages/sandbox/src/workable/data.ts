import { DATA_START, DAY, SANDBOX_NOW } from "../clock.js"
import { rngFor } from "../prng.js"
import * as W from "../words.js"

/**
 * The Workable look-alike's records (SPI v3, https://workable.readme.io). Ids are hex strings that
 * grow with insertion, as `since_id` / `max_id` ("results with an ID greater / less than or equal
 * to") and the documented insertion order of /jobs and /candidates need.
 */

/** A pipeline stage (GET /stages): slug, name, kind, position. */
export interface WorkableStage {
  readonly slug: string
  readonly name: string
  readonly kind: string
  readonly position: number
}

export interface WorkableDepartment {
  readonly id: string
  readonly name: string
  readonly parent_id: string | null
  readonly archived: boolean
}

export interface WorkableMember {
  readonly id: string
  readonly name: string
  readonly headline: string | null
  readonly email: string
  readonly roles: ReadonlyArray<string>
  readonly active: boolean
}

export interface WorkableJob {
  readonly id: string
  readonly shortcode: string
  readonly title: string
  readonly code: string
  readonly state: "draft" | "published" | "closed" | "archived"
  /** The department's index in `departments`. */
  readonly department: number
  readonly city: (typeof W.CITIES)[number]
  readonly workplaceType: "on_site" | "hybrid" | "remote"
  /** Not in Workable's answers: what `created_after` / `updated_after` filter on. */
  readonly createdAt: number
  readonly updatedAt: number
}

export interface WorkableCandidate {
  readonly id: string
  firstname: string
  lastname: string
  email: string
  headline: string | null
  phone: string | null
  address: string | null
  summary: string | null
  cover_letter: string | null
  readonly shortcode: string
  stage: string
  disqualified: boolean
  withdrew: boolean
  disqualifiedAt: number | null
  disqualification_reason: string | null
  readonly sourced: boolean
  readonly domain: string | null
  readonly uploader_id: string | null
  tags: Array<string>
  readonly createdAt: number
  updatedAt: number
  hiredAt: number | null
}

/** GET /disqualification_reasons: id, description, candidate_withdrew, position. */
export interface WorkableDisqualificationReason {
  readonly id: string
  readonly description: string
  readonly candidate_withdrew: boolean
  readonly position: number
}

export interface WorkableState {
  readonly subdomain: string
  readonly accountName: string
  readonly stages: ReadonlyArray<WorkableStage>
  readonly departments: ReadonlyArray<WorkableDepartment>
  readonly members: ReadonlyArray<WorkableMember>
  readonly disqualificationReasons: ReadonlyArray<WorkableDisqualificationReason>
  readonly jobs: ReadonlyArray<WorkableJob>
  /** In insertion (id) order; creates append. */
  readonly candidates: Array<WorkableCandidate>
  readonly next: { candidate: number }
}

export const WORKABLE_COUNTS = { jobs: 8, candidates: 56, members: 9 } as const

/** Workable's default pipeline (the stage kinds GET /stages documents), slug = kind. */
const STAGES: ReadonlyArray<readonly [string, string]> = [
  ["sourced", "Sourced"],
  ["applied", "Applied"],
  ["phone-screen", "Phone Screen"],
  ["assessment", "Assessment"],
  ["interview", "Interview"],
  ["offer", "Offer"],
  ["hired", "Hired"]
]

/** Some of the reasons Workable's help centre lists, rejected then withdrew. */
const REJECTIONS = ["Doesn't have required qualifications", "Doesn't have required experience", "Salary expectations too high", "Unsuccessful interview"]
const WITHDRAWALS = ["Not interested", "Rejected offer"]

const hexId = (base: number, index: number): string => (base + index * 4099).toString(16).padStart(8, "0")

export const candidateId = (index: number): string => hexId(0x2b40_0000, index)
const memberId = (index: number): string => hexId(0x13e0_0000, index)

/** The account's subdomain for a seed (also the look-alike's `subdomain` credential). */
export const workableSubdomain = (seed: number): string => `${accountName(seed).toLowerCase().replace(/[^a-z]+/g, "")}-sandbox`

const accountName = (seed: number): string => rngFor(seed, "workable-account").pick(W.COMPANIES)

/** The member that moves and disqualifies candidates (the look-alike's `memberId` credential): the first, an admin. */
export const actingMemberId = (): string => memberId(0)

export const generateWorkable = (seed: number): WorkableState => {
  const subdomain = workableSubdomain(seed)
  const prefix = subdomain.replace(/-sandbox$/, "").slice(0, 5).toUpperCase().padEnd(5, "X")
  const stages = STAGES.map(([slug, name], position) => ({ slug, name, kind: slug, position }))
  const departments: Array<WorkableDepartment> = W.DEPARTMENTS.slice(0, 6).map((name, i) => ({
    id: hexId(0x3ff4_d641, i),
    name,
    // Design sits under Engineering, Customer Success under Sales (a two-level tree, as Workable's example)
    parent_id: name === "Design" ? hexId(0x3ff4_d641, 0) : name === "Customer Success" ? hexId(0x3ff4_d641, 2) : null,
    archived: false
  }))
  const members: Array<WorkableMember> = Array.from({ length: WORKABLE_COUNTS.members }, (_, i) => {
    const rng = rngFor(seed, "workable-member", i)
    const first = rng.pick(W.FIRST_NAMES)
    const last = rng.pick(W.LAST_NAMES)
    return {
      id: memberId(i),
      name: `${first} ${last}`,
      headline: rng.chance(0.6) ? rng.pick(W.TITLES) : null,
      email: `${first}.${last}.${i}@${subdomain}.example.com`.toLowerCase().replace(/ /g, ""),
      roles: i === 0 ? ["ats.admin", "workable.superadmin"] : [rng.pick(["ats.admin", "ats.simple", "ats.reviewer"])],
      active: true
    }
  })
  const states: ReadonlyArray<WorkableJob["state"]> = ["published", "published", "published", "draft", "closed", "published", "archived", "published"]
  const jobs: Array<WorkableJob> = Array.from({ length: WORKABLE_COUNTS.jobs }, (_, i) => {
    const rng = rngFor(seed, "workable-job", i)
    const createdAt = DATA_START + i * 9 * DAY + rng.int(0, DAY / 1000) * 1000
    return {
      id: hexId(0x6188_4e2, i),
      shortcode: `${prefix}${String(i + 1).padStart(3, "0")}`,
      title: W.JOB_NAMES[i % W.JOB_NAMES.length]!,
      code: `REQ-${rng.digits(4)}`,
      state: states[i % states.length]!,
      department: rng.int(0, departments.length - 1),
      city: rng.pick(W.CITIES),
      workplaceType: rng.pick(["on_site", "hybrid", "remote"] as const),
      createdAt,
      updatedAt: createdAt + rng.int(1, 60) * DAY
    }
  })
  const candidates: Array<WorkableCandidate> = Array.from({ length: WORKABLE_COUNTS.candidates }, (_, i) => {
    const rng = rngFor(seed, "workable-candidate", i)
    const firstname = rng.pick(W.FIRST_NAMES)
    const lastname = rng.pick(W.LAST_NAMES)
    const job = jobs[rng.int(0, jobs.length - 1)]!
    const stage = rng.weighted(stages.map((s) => [s.slug, s.slug === "hired" ? 1 : s.slug === "offer" ? 1 : 3] as const))
    // whole seconds, as Workable renders them
    const createdAt = Math.min(DATA_START + 90 * DAY + i * 4 * DAY + rng.int(0, DAY / 1000) * 1000, SANDBOX_NOW - DAY)
    const updatedAt = Math.min(createdAt + rng.int(1, 40) * DAY + rng.int(0, DAY / 1000) * 1000, SANDBOX_NOW - 1000)
    const disqualified = stage !== "hired" && rng.chance(0.25)
    const withdrew = disqualified && rng.chance(0.3)
    const sourced = rng.chance(0.4)
    return {
      id: candidateId(i),
      firstname,
      lastname,
      email: `${firstname}.${lastname}.${i}@example.com`.toLowerCase().replace(/ /g, ""),
      headline: rng.chance(0.8) ? rng.pick(W.TITLES) : null,
      phone: rng.chance(0.7) ? `+1 555 ${rng.digits(3)} ${rng.digits(4)}` : null,
      address: rng.chance(0.5) ? `${rng.int(1, 999)} ${rng.pick(W.STREETS)}, ${rng.pick(W.CITIES)[0]}` : null,
      summary: rng.chance(0.5) ? `${rng.pick(W.TITLES)} with ${rng.int(2, 15)} years at ${rng.pick(W.COMPANIES)}` : null,
      cover_letter: null,
      shortcode: job.shortcode,
      stage: sourced && stage === "applied" ? "sourced" : stage,
      disqualified,
      withdrew,
      disqualifiedAt: disqualified ? updatedAt : null,
      disqualification_reason: disqualified ? (withdrew ? rng.pick(WITHDRAWALS) : rng.pick(REJECTIONS)) : null,
      sourced,
      domain: sourced ? null : rng.pick(["linkedin.com", "indeed.com", "twitter.com", null]),
      uploader_id: sourced ? members[rng.int(0, members.length - 1)]!.id : null,
      tags: rng.sample(W.TAGS, rng.int(0, 3)),
      createdAt,
      updatedAt,
      hiredAt: stage === "hired" ? updatedAt : null
    }
  })
  return {
    subdomain,
    accountName: accountName(seed),
    stages,
    departments,
    members,
    disqualificationReasons: [...REJECTIONS.map((description) => [description, false] as const), ...WITHDRAWALS.map((description) => [description, true] as const)]
      .map(([description, candidate_withdrew], position) => ({ id: hexId(0x5d1a_0000, position), description, candidate_withdrew, position })),
    jobs,
    candidates,
    next: { candidate: candidates.length }
  }
}
