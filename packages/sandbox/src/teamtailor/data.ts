import { DATA_START, DAY, SANDBOX_NOW } from "../clock.js"
import { rngFor } from "../prng.js"
import * as W from "../words.js"

/**
 * Teamtailor's records as the public API (docs.teamtailor.com) describes them: ids are numbers
 * (sent as strings), times epoch milliseconds here (sent with an offset, see dates.ts).
 */

export interface TtDepartment {
  id: number
  name: string
}

export interface TtLocation {
  id: number
  name: string
  address: string
  city: string
  country: string
  zip: string
  email: string
  phone: string
  headquarters: boolean
  lat: string
  long: string
}

export interface TtUser {
  id: number
  name: string
  email: string
  title: string
  /** Teamtailor's permission role (`no_access`, `user`, `recruiter`, `designer`, `admin`, `external_recruiter`). */
  role: "user" | "recruiter" | "admin"
  username: string
  phone: string
  department_id: number | null
  location_id: number | null
}

export type StageType = "Inbox" | "In process" | "Hired"

export interface TtStage {
  id: number
  job_id: number
  name: string
  stage_type: StageType
  row_order: number
  created_at: number
  updated_at: number
}

export interface TtJob {
  id: number
  title: string
  pitch: string
  body: string
  /** `open`, `draft`, `archived`, `unlisted` or `temp`. */
  status: "open" | "draft" | "archived" | "unlisted"
  internal: boolean
  remote_status: "none" | "temporary" | "hybrid" | "fully"
  tags: Array<string>
  created_at: number
  start_date: number | null
  end_date: number | null
  department_id: number | null
  location_ids: Array<number>
  /** The recruiter. */
  user_id: number
}

export interface TtRejectReason {
  id: number
  reason: string
  rejected_by_company: boolean
}

export interface TtCandidate {
  id: number
  first_name: string | null
  last_name: string | null
  email: string | null
  phone: string | null
  linkedin_url: string | null
  pitch: string | null
  tags: Array<string>
  connected: boolean
  sourced: boolean
  internal: boolean
  referred: boolean
  unsubscribed: boolean
  referring_site: string | null
  referring_url: string | null
  created_at: number
  updated_at: number
}

export interface TtJobApplication {
  id: number
  candidate_id: number
  job_id: number
  stage_id: number
  reject_reason_id: number | null
  cover_letter: string
  sourced: boolean
  referring_site: string | null
  referring_url: string | null
  created_at: number
  updated_at: number
  rejected_at: number | null
  changed_stage_at: number
}

export interface TeamtailorState {
  readonly departments: Array<TtDepartment>
  readonly locations: Array<TtLocation>
  readonly users: Array<TtUser>
  readonly jobs: Array<TtJob>
  readonly stages: Array<TtStage>
  readonly rejectReasons: Array<TtRejectReason>
  readonly candidates: Array<TtCandidate>
  readonly jobApplications: Array<TtJobApplication>
  /** The next id of each kind (Teamtailor's ids are sequential numbers). */
  readonly next: { candidate: number; jobApplication: number }
}

export const TEAMTAILOR_COUNTS = { users: 8, jobs: 8, candidates: 60 } as const

const slug = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, "")

const REJECT_REASONS: ReadonlyArray<readonly [string, boolean]> = [
  ["Not a fit", true],
  ["Lacks required experience", true],
  ["Position filled", true],
  ["Accepted another offer", false],
  ["Withdrew application", false]
]

const STAGE_NAMES: ReadonlyArray<readonly [string, StageType]> = [
  ["Inbox", "Inbox"],
  ["Screening", "In process"],
  ["Interview", "In process"],
  ["Offer", "In process"],
  ["Hired", "Hired"]
]

export const generateTeamtailor = (seed: number): TeamtailorState => {
  const departments = W.DEPARTMENTS.slice(0, 5).map((name, i) => ({ id: 301 + i, name }))
  const locations: Array<TtLocation> = W.CITIES.slice(0, 4).map(([city, , country, zip], i) => {
    const rng = rngFor(seed, "teamtailor-location", i)
    return {
      id: 661 + i,
      name: i === 0 ? "Head office" : "",
      address: `${rng.int(1, 199)} ${rng.pick(W.STREETS)}`,
      city,
      country,
      zip,
      email: i === 0 ? "office@sandbox-company.example" : "",
      phone: i === 0 ? `+1 555 ${rng.digits(4)}` : "",
      headquarters: i === 0,
      lat: (rng.next() * 120 - 60).toFixed(6),
      long: (rng.next() * 300 - 150).toFixed(6)
    }
  })
  const users: Array<TtUser> = []
  for (let i = 0; i < TEAMTAILOR_COUNTS.users; i++) {
    const rng = rngFor(seed, "teamtailor-user", i)
    const first = rng.pick(W.FIRST_NAMES)
    const last = rng.pick(W.LAST_NAMES)
    users.push({
      id: 4401 + i,
      name: `${first} ${last}`,
      email: `${slug(first)}.${slug(last)}@sandbox-company.example`,
      title: i === 0 ? "Head of Talent" : rng.pick(W.TITLES),
      role: i === 0 ? "admin" : i < 4 ? "recruiter" : "user",
      username: `${slug(first)}${slug(last)}${i + 1}`,
      phone: rng.chance(0.5) ? `+1 555 ${rng.digits(4)}` : "",
      department_id: rng.chance(0.8) ? rng.pick(departments).id : null,
      location_id: rng.chance(0.7) ? rng.pick(locations).id : null
    })
  }
  const recruiters = users.filter((user) => user.role !== "user")
  const jobs: Array<TtJob> = []
  const stages: Array<TtStage> = []
  let stageId = 22501
  for (let j = 0; j < TEAMTAILOR_COUNTS.jobs; j++) {
    const rng = rngFor(seed, "teamtailor-job", j)
    const title = W.JOB_NAMES[j % W.JOB_NAMES.length] as string
    const created = DATA_START + j * 9 * DAY + rng.int(0, 86399) * 1000
    const status = j === TEAMTAILOR_COUNTS.jobs - 1 ? "archived" : j === TEAMTAILOR_COUNTS.jobs - 2 ? "draft" : j === 1 ? "unlisted" : "open"
    jobs.push({
      id: 7201 + j,
      title,
      pitch: `Become part of something great as our ${title}!`,
      body: `<p>We are looking for a ${title} to join the team.</p>`,
      status,
      internal: j === 1,
      remote_status: rng.pick(["none", "temporary", "hybrid", "fully"] as const),
      tags: rng.sample(W.TAGS, rng.int(0, 3)),
      created_at: created,
      start_date: status === "draft" ? null : created + DAY,
      end_date: status === "archived" ? created + 60 * DAY : null,
      department_id: rng.chance(0.9) ? rng.pick(departments).id : null,
      location_ids: rng.sample(locations, rng.int(1, 2)).map((location) => location.id),
      user_id: rng.pick(recruiters).id
    })
    STAGE_NAMES.forEach(([name, type], index) => {
      if (type === "In process" && name === "Offer" && rng.chance(0.4)) return
      stages.push({
        id: stageId++,
        job_id: 7201 + j,
        name,
        stage_type: type,
        // Teamtailor's ranked ordering: large gaps between stages
        row_order: (index - 2) * 4194304,
        created_at: created,
        updated_at: created + rng.int(0, 5) * DAY
      })
    })
  }
  const rejectReasons = REJECT_REASONS.map(([reason, byCompany], i) => ({ id: 1 + i, reason, rejected_by_company: byCompany }))
  const candidates: Array<TtCandidate> = []
  const jobApplications: Array<TtJobApplication> = []
  let applicationId = 1301
  const openJobs = jobs.filter((job) => job.status !== "draft")
  const span = SANDBOX_NOW - DATA_START - 40 * DAY
  for (let c = 0; c < TEAMTAILOR_COUNTS.candidates; c++) {
    const rng = rngFor(seed, "teamtailor-candidate", c)
    const first = rng.pick(W.FIRST_NAMES)
    const last = rng.pick(W.LAST_NAMES)
    const id = 501 + c
    const created = DATA_START + Math.floor((c / TEAMTAILOR_COUNTS.candidates) * span) + rng.int(0, 86399) * 1000
    const sourced = rng.chance(0.2)
    const site = sourced ? null : rng.pick(["Teamtailor", "LinkedIn", "Indeed", "Facebook"])
    const candidate: TtCandidate = {
      id,
      first_name: first,
      last_name: last,
      email: `${slug(first)}.${slug(last)}${id}@mail.example`,
      phone: rng.chance(0.7) ? `+46 70 ${rng.digits(3)} ${rng.digits(4)}` : null,
      linkedin_url: rng.chance(0.5) ? `https://www.linkedin.com/in/${slug(first)}-${slug(last)}-${id}` : null,
      pitch: rng.chance(0.4) ? "I like building things that people use." : null,
      tags: rng.sample(W.TAGS, rng.int(0, 3)),
      connected: rng.chance(0.3),
      sourced,
      internal: rng.chance(0.05),
      referred: !sourced && rng.chance(0.1),
      unsubscribed: rng.chance(0.1),
      referring_site: site,
      referring_url: site === null ? null : `https://www.${site.toLowerCase()}.com/`,
      created_at: created,
      updated_at: created
    }
    candidates.push(candidate)
    // a few candidates are only in the talent pool (no job application)
    const count = c % 9 === 4 ? 0 : rng.chance(0.2) ? 2 : 1
    for (const job of rng.sample(openJobs, count)) {
      const jobStages = stages.filter((stage) => stage.job_id === job.id)
      const applied = Math.max(created, job.created_at) + rng.int(0, 5) * DAY + rng.int(0, 3599) * 1000
      const stage = rng.weighted(jobStages.map((s) => [s, s.stage_type === "Hired" ? 1 : s.stage_type === "Inbox" ? 3 : 2] as const))
      const moved = applied + (stage.stage_type === "Inbox" ? 0 : rng.int(1, 20) * DAY)
      const rejected = stage.stage_type !== "Hired" && rng.chance(0.3)
      const rejectedAt = rejected ? moved + rng.int(1, 5) * DAY : null
      const reason = rejected ? rng.pick(rejectReasons).id : null
      jobApplications.push({
        id: applicationId++,
        candidate_id: id,
        job_id: job.id,
        stage_id: stage.id,
        reject_reason_id: reason,
        cover_letter: rng.chance(0.5) ? `Dear hiring team, I would love to join as ${job.title}.` : "",
        sourced,
        referring_site: candidate.referring_site,
        referring_url: candidate.referring_url,
        created_at: applied,
        updated_at: rejectedAt ?? moved,
        rejected_at: rejectedAt,
        changed_stage_at: moved
      })
      candidate.updated_at = Math.max(candidate.updated_at, rejectedAt ?? moved)
    }
  }
  return {
    departments,
    locations,
    users,
    jobs,
    stages,
    rejectReasons,
    candidates,
    jobApplications,
    next: { candidate: 501 + TEAMTAILOR_COUNTS.candidates, jobApplication: applicationId }
  }
}
