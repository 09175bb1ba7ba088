import { DATA_START, DAY, SANDBOX_NOW } from "../clock.js"
import { type Rng, rngFor } from "../prng.js"
import * as W from "../words.js"

/**
 * The SmartRecruiters look-alike's records, in the shapes of SmartRecruiters' Customer API
 * (developers.smartrecruiters.com): candidates with their assignments to jobs (an application is a
 * candidate and a job), jobs, departments, rejection reasons and users. Times are epoch ms here and
 * ISO 8601 in answers.
 */

/** The main candidate statuses, in the context of a job (the `status` filter of GET /candidates). */
export const CANDIDATE_STATUSES = ["LEAD", "NEW", "IN_REVIEW", "INTERVIEW", "OFFERED", "HIRED", "REJECTED", "WITHDRAWN", "TRANSFERRED"] as const
export type CandidateStatus = (typeof CANDIDATE_STATUSES)[number]

/** Job statuses as SmartRecruiters' help center lists them (Created ... On Hold), written as API enums. */
export const JOB_STATUSES = ["CREATED", "SOURCING", "INTERVIEW", "OFFER", "FILLED", "CANCELLED", "ON_HOLD"] as const
export type JobStatus = (typeof JOB_STATUSES)[number]

export interface SrLocation {
  country: string
  countryCode: string
  region: string
  regionCode: string
  city: string
}

/** A candidate's assignment to one job: the application. */
export interface SrAssignment {
  jobId: string
  status: CandidateStatus
  subStatus: string | null
  /** When the current status started. */
  startsOn: number
  source: string
  /** A rejection or withdrawal reason id, with REJECTED or WITHDRAWN. */
  reasonId: string | null
}

export interface SrCandidate {
  id: string
  internal: boolean
  firstName: string
  lastName: string
  email: string
  phoneNumber: string | null
  location: SrLocation | null
  web: { linkedIn?: string; website?: string }
  createdOn: number
  updatedOn: number
  tags: Array<string>
  averageRating: number
  /** The first is the primary assignment; a talent-pool candidate has none. */
  assignments: Array<SrAssignment>
}

export interface SrDepartment {
  id: string
  label: string
  description: string
}

export interface SrJob {
  id: string
  title: string
  refNumber: string
  createdOn: number
  updatedOn: number
  lastActivityOn: number
  departmentId: string
  location: SrLocation & { remote: boolean }
  status: JobStatus
  postingStatus: "PUBLIC" | "INTERNAL" | "PRIVATE" | "NOT_PUBLISHED"
  creatorId: string
}

export interface SrUser {
  id: string
  email: string
  firstName: string
  lastName: string
  systemRole: "ADMINISTRATOR" | "EXTENDED" | "STANDARD" | "RESTRICTED" | "EMPLOYEE"
  active: boolean
  updatedOn: number
  language: string
  location: SrLocation
}

export interface SmartRecruitersState {
  readonly candidates: Map<string, SrCandidate>
  readonly jobs: Map<string, SrJob>
  readonly departments: Array<SrDepartment>
  readonly rejectionReasons: Array<{ id: string; label: string }>
  readonly users: Map<string, SrUser>
  /** For ids of created records. */
  created: number
}

export const COUNTS = { candidates: 56, jobs: 8, users: 11 } as const

/** An RFC 4122 version-4 shaped id from the generator. */
export const uuid = (rng: Rng): string => {
  const hex = rng.hex(32)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${"89ab"[rng.int(0, 3)]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

const slug = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, "")

const location = (rng: Rng): SrLocation => {
  const [city, region, country] = rng.pick(W.CITIES)
  const countryCode = country === "United States" ? "us" : country === "Canada" ? "ca" : country === "United Kingdom" ? "gb" : "de"
  return { country, countryCode, region: region === "" ? city : region, regionCode: region, city }
}

const SUB_STATUSES: Partial<Record<CandidateStatus, ReadonlyArray<string>>> = {
  IN_REVIEW: ["Screening call", "Hiring manager review"],
  INTERVIEW: ["First interview", "Onsite interview"],
  OFFERED: ["Offer sent", "Offer accepted"]
}

export const subStatusFor = (rng: Rng, status: CandidateStatus): string | null => {
  const options = SUB_STATUSES[status]
  return options === undefined ? null : rng.pick(options)
}

export const generateSmartRecruiters = (seed: number): SmartRecruitersState => {
  const departments = W.DEPARTMENTS.slice(0, 6).map((label, i) => ({ id: String(18550 + i * 7), label, description: `${label} department` }))
  const rejectionReasons = ["Not enough experience", "Position filled", "Salary expectations", "Failed assessment"].map((label, i) => ({
    id: uuid(rngFor(seed, "smartrecruiters-rejection-reason", i)),
    label
  }))

  const users = new Map<string, SrUser>()
  for (let i = 0; i < COUNTS.users; i++) {
    const rng = rngFor(seed, "smartrecruiters-user", i)
    const firstName = i === 0 ? "Sandbox" : rng.pick(W.FIRST_NAMES)
    const lastName = i === 0 ? "Admin" : rng.pick(W.LAST_NAMES)
    const id = rng.hex(24)
    users.set(id, {
      id,
      email: `${slug(firstName)}.${slug(lastName)}${i}@sandbox-company.example`,
      firstName,
      lastName,
      systemRole: i === 0 ? "ADMINISTRATOR" : rng.pick(["EXTENDED", "STANDARD", "STANDARD", "RESTRICTED", "EMPLOYEE"] as const),
      active: i === 0 || !rng.chance(0.15),
      updatedOn: DATA_START + rng.int(0, 300) * DAY + rng.int(0, 86399) * 1000,
      language: rng.pick(["en", "en", "de", "fr", "pl"]),
      location: location(rng)
    })
  }
  const userIds = [...users.keys()]

  const jobs = new Map<string, SrJob>()
  for (let i = 0; i < COUNTS.jobs; i++) {
    const rng = rngFor(seed, "smartrecruiters-job", i)
    const id = uuid(rng)
    const createdOn = DATA_START + i * 20 * DAY + rng.int(0, 86399) * 1000
    const updatedOn = createdOn + rng.int(1, 60) * DAY
    const status = i === COUNTS.jobs - 1 ? "CANCELLED" : i === COUNTS.jobs - 2 ? "FILLED" : i === 0 ? "CREATED" : rng.pick(["SOURCING", "SOURCING", "INTERVIEW", "OFFER", "ON_HOLD"] as const)
    jobs.set(id, {
      id,
      title: W.JOB_NAMES[i % W.JOB_NAMES.length] as string,
      refNumber: `REF${1000 + i * 13}`,
      createdOn,
      updatedOn,
      lastActivityOn: updatedOn + rng.int(0, 20) * DAY,
      departmentId: (rng.pick(departments)).id,
      location: { ...location(rng), remote: rng.chance(0.25) },
      status,
      postingStatus: status === "CREATED" ? "NOT_PUBLISHED" : status === "CANCELLED" || status === "FILLED" ? "NOT_PUBLISHED" : rng.pick(["PUBLIC", "PUBLIC", "INTERNAL", "PRIVATE"] as const),
      creatorId: rng.pick(userIds)
    })
  }
  const jobIds = [...jobs.keys()]

  const candidates = new Map<string, SrCandidate>()
  for (let i = 0; i < COUNTS.candidates; i++) {
    const rng = rngFor(seed, "smartrecruiters-candidate", i)
    const id = uuid(rng)
    const firstName = rng.pick(W.FIRST_NAMES)
    const lastName = rng.pick(W.LAST_NAMES)
    const createdOn = DATA_START + Math.floor((i / COUNTS.candidates) * (SANDBOX_NOW - DATA_START - 30 * DAY)) + rng.int(0, 86399) * 1000
    // most candidates applied to one job, some to two or three; a few sit in the talent pool
    const applied = i % 11 === 4 ? [] : rng.sample(jobIds, rng.weighted([[1, 6], [2, 3], [3, 1]] as const))
    let updatedOn = createdOn
    const assignments = applied.map((jobId, k): SrAssignment => {
      const status = rng.weighted([["NEW", 4], ["IN_REVIEW", 4], ["INTERVIEW", 3], ["OFFERED", 1], ["HIRED", 1], ["REJECTED", 3], ["WITHDRAWN", 1], ["LEAD", 1]] as const)
      const startsOn = createdOn + (k + 1) * rng.int(1, 20) * DAY
      updatedOn = Math.max(updatedOn, startsOn)
      return {
        jobId,
        status,
        subStatus: subStatusFor(rng, status),
        startsOn,
        source: rng.pick(["LinkedIn", "Career site", "Referral", "Indeed", "API"]),
        reasonId: status === "REJECTED" ? rng.pick(rejectionReasons).id : null
      }
    })
    candidates.set(id, {
      id,
      internal: rng.chance(0.1),
      firstName,
      lastName,
      email: `${slug(firstName)}.${slug(lastName)}.${i}@example.com`,
      phoneNumber: rng.chance(0.8) ? `+1 555 ${rng.digits(3)} ${rng.digits(4)}` : null,
      location: rng.chance(0.85) ? location(rng) : null,
      web: rng.chance(0.6) ? { linkedIn: `https://www.linkedin.com/in/${slug(firstName)}-${slug(lastName)}-${i}` } : {},
      createdOn,
      updatedOn,
      tags: rng.sample(W.TAGS, rng.int(0, 3)),
      averageRating: rng.int(0, 5),
      assignments
    })
  }
  return { candidates, jobs, departments, rejectionReasons, users, created: 0 }
}
