import { DATA_START, DAY, SANDBOX_NOW } from "../clock.js"
import { type Rng, rngFor } from "../prng.js"
import * as W from "../words.js"

/**
 * The Ashby look-alike's records, in the shape of Ashby's public API (developers.ashbyhq.com,
 * the OpenAPI definitions of the reference pages): ids are UUIDs, times epoch milliseconds here
 * and ISO 8601 strings in the answers (views.ts).
 */

export type GlobalRole = "Organization Admin" | "Elevated Access" | "Limited Access" | "External Recruiter"
export type StageType = "Lead" | "PreInterviewScreen" | "Active" | "Offer" | "Hired" | "Archived"
export type JobStatus = "Draft" | "Open" | "Closed" | "Archived"
export type ApplicationStatus = "Active" | "Hired" | "Archived" | "Lead"
export type ReasonType = "RejectedByCandidate" | "RejectedByOrg" | "Other"

export interface AshbyUser {
  id: string
  firstName: string
  lastName: string
  email: string
  globalRole: GlobalRole
  isEnabled: boolean
  managerId: string | null
  updatedAt: number
}

export interface AshbyDepartment {
  id: string
  name: string
  isArchived: boolean
  parentId: string | null
  createdAt: number
  updatedAt: number
}

export interface AshbyLocation {
  id: string
  name: string
  isArchived: boolean
  workplaceType: "OnSite" | "Hybrid" | "Remote"
  address: { addressLocality: string; addressRegion: string; addressCountry: string; postalCode: string }
  /** Not in Ashby's answers; what an incremental sync compares. */
  updatedAt: number
}

export interface AshbyStage {
  id: string
  title: string
  type: StageType
  orderInInterviewPlan: number
  interviewPlanId: string
}

export interface AshbyArchiveReason {
  id: string
  text: string
  reasonType: ReasonType
  isArchived: boolean
}

export interface AshbySource {
  id: string
  title: string
  isArchived: boolean
  sourceType: { id: string; title: string; isArchived: boolean }
}

export interface AshbyJob {
  id: string
  title: string
  confidential: boolean
  status: JobStatus
  employmentType: "FullTime" | "PartTime" | "Intern" | "Contract" | "Temporary"
  locationId: string
  departmentId: string
  defaultInterviewPlanId: string
  customRequisitionId: string
  hiringTeam: Array<{ userId: string; role: string }>
  createdAt: number
  updatedAt: number
  openedAt: number | null
  closedAt: number | null
}

export interface ContactInfo {
  value: string
  type: "Personal" | "Work" | "Other"
  isPrimary: boolean
}

export interface AshbyCandidate {
  id: string
  name: string
  emails: Array<ContactInfo>
  phones: Array<ContactInfo>
  socialLinks: Array<{ type: string; url: string }>
  tags: Array<{ id: string; title: string; isArchived: boolean }>
  position: string | null
  company: string | null
  school: string | null
  sourceId: string | null
  creditedToUserId: string | null
  location: { city: string; region: string; country: string } | null
  createdAt: number
  updatedAt: number
}

export interface AshbyApplication {
  id: string
  candidateId: string
  jobId: string
  status: ApplicationStatus
  currentInterviewStageId: string
  sourceId: string | null
  archiveReasonId: string | null
  archivedAt: number | null
  creditedToUserId: string | null
  createdAt: number
  updatedAt: number
}

export interface AshbyState {
  readonly users: Map<string, AshbyUser>
  readonly departments: Map<string, AshbyDepartment>
  readonly locations: Map<string, AshbyLocation>
  /** Interview plan id → its stages in order. */
  readonly plans: Map<string, { id: string; title: string; stages: Array<AshbyStage> }>
  readonly archiveReasons: Array<AshbyArchiveReason>
  readonly sources: Array<AshbySource>
  readonly tags: Array<{ id: string; title: string; isArchived: boolean }>
  readonly jobs: Map<string, AshbyJob>
  readonly candidates: Map<string, AshbyCandidate>
  readonly applications: Map<string, AshbyApplication>
  /** Makes the ids of records created later (candidate.create). */
  readonly newId: (kind: string) => string
}

/** A v4-shaped UUID drawn from the generator. */
export const uuid = (rng: Rng): string =>
  `${rng.hex(8)}-${rng.hex(4)}-4${rng.hex(3)}-${rng.pick(["8", "9", "a", "b"])}${rng.hex(3)}-${rng.hex(12)}`

const slug = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, "")

const STAGES: ReadonlyArray<readonly [string, StageType]> = [
  ["Lead", "Lead"],
  ["Application Review", "PreInterviewScreen"],
  ["Recruiter Screen", "Active"],
  ["Technical Interview", "Active"],
  ["Onsite", "Active"],
  ["Offer", "Offer"],
  ["Hired", "Hired"],
  ["Archived", "Archived"]
]

/** The seed's data: 8 users, 5 departments, 4 locations, 2 interview plans, 8 jobs, 60 candidates, about 75 applications. */
export const generateAshby = (seed: number): AshbyState => {
  const id = (kind: string, index: number | string): string => uuid(rngFor(seed, "ashby-id", kind, index))
  let created = 0
  const state: AshbyState = {
    users: new Map(),
    departments: new Map(),
    locations: new Map(),
    plans: new Map(),
    archiveReasons: [
      { id: id("reason", 0), text: "Not enough experience", reasonType: "RejectedByOrg", isArchived: false },
      { id: id("reason", 1), text: "Accepted another offer", reasonType: "RejectedByCandidate", isArchived: false },
      { id: id("reason", 2), text: "Position filled", reasonType: "Other", isArchived: false }
    ],
    sources: ["Referral", "LinkedIn", "Company Website", "Agency"].map((title, i) => ({
      id: id("source", i),
      title,
      isArchived: false,
      sourceType: { id: id("source-type", i < 1 ? 0 : i < 3 ? 1 : 2), title: i < 1 ? "Referral" : i < 3 ? "Inbound" : "Agency", isArchived: false }
    })),
    tags: W.TAGS.map((title, i) => ({ id: id("tag", i), title, isArchived: false })),
    jobs: new Map(),
    candidates: new Map(),
    applications: new Map(),
    newId: (kind) => id(`new-${kind}`, created++)
  }

  for (let i = 0; i < 8; i++) {
    const rng = rngFor(seed, "ashby-user", i)
    const firstName = i === 0 ? "Sandbox" : rng.pick(W.FIRST_NAMES)
    const lastName = i === 0 ? "Admin" : rng.pick(W.LAST_NAMES)
    const user: AshbyUser = {
      id: id("user", i),
      firstName,
      lastName,
      email: `${slug(firstName)}.${slug(lastName)}${i}@sandbox-company.example`,
      globalRole: i === 0 ? "Organization Admin" : i < 3 ? "Elevated Access" : i === 7 ? "External Recruiter" : "Limited Access",
      isEnabled: i !== 6,
      managerId: i === 0 ? null : id("user", 0),
      updatedAt: DATA_START + rng.int(0, 300) * DAY
    }
    state.users.set(user.id, user)
  }
  const userIds = [...state.users.keys()]

  W.DEPARTMENTS.slice(0, 5).forEach((name, i) => {
    const rng = rngFor(seed, "ashby-department", i)
    const createdAt = DATA_START - rng.int(30, 300) * DAY
    state.departments.set(id("department", i), {
      id: id("department", i),
      name,
      isArchived: i === 4,
      parentId: null,
      createdAt,
      updatedAt: createdAt + rng.int(0, 200) * DAY
    })
  })
  const departmentIds = [...state.departments.values()].filter((d) => !d.isArchived).map((d) => d.id)

  W.CITIES.slice(0, 4).forEach(([city, region, country, postalCode], i) => {
    state.locations.set(id("location", i), {
      id: id("location", i),
      name: i === 3 ? `${city} (Remote)` : `${city} Office`,
      isArchived: false,
      workplaceType: i === 3 ? "Remote" : i === 1 ? "Hybrid" : "OnSite",
      address: { addressLocality: city, addressRegion: region, addressCountry: country, postalCode },
      updatedAt: DATA_START + i * DAY
    })
  })
  const locationIds = [...state.locations.keys()]

  for (const [p, title] of ["Engineering Interview Plan", "Business Interview Plan"].entries()) {
    const planId = id("plan", p)
    const stages = STAGES.filter(([name]) => p === 0 || name !== "Technical Interview").map(([name, type], order) => ({
      id: id(`stage-${p}`, order),
      title: name,
      type,
      orderInInterviewPlan: order,
      interviewPlanId: planId
    }))
    state.plans.set(planId, { id: planId, title, stages })
  }
  const planIds = [...state.plans.keys()]

  for (let j = 0; j < 8; j++) {
    const rng = rngFor(seed, "ashby-job", j)
    const createdAt = DATA_START + rng.int(0, 120) * DAY
    const status: JobStatus = j === 7 ? "Draft" : j === 6 ? "Closed" : j === 5 ? "Archived" : "Open"
    const openedAt = status === "Draft" ? null : createdAt + rng.int(1, 10) * DAY
    const closedAt = status === "Closed" || status === "Archived" ? (openedAt as number) + rng.int(30, 90) * DAY : null
    state.jobs.set(id("job", j), {
      id: id("job", j),
      title: W.TITLES[j % W.TITLES.length] as string,
      confidential: j === 4,
      status,
      employmentType: j === 3 ? "Contract" : j === 2 ? "PartTime" : "FullTime",
      locationId: locationIds[j % locationIds.length] as string,
      departmentId: departmentIds[j % departmentIds.length] as string,
      defaultInterviewPlanId: planIds[j % 3 === 0 ? 1 : 0] as string,
      customRequisitionId: `REQ-${100 + j}`,
      hiringTeam: [
        { userId: userIds[1 + (j % 3)] as string, role: "Hiring Manager" },
        { userId: userIds[4 + (j % 2)] as string, role: "Recruiter" }
      ],
      createdAt,
      updatedAt: closedAt ?? openedAt ?? createdAt,
      openedAt,
      closedAt
    })
  }
  const applyTo = [...state.jobs.values()].filter((job) => job.status !== "Draft")

  const nCandidates = 60
  for (let c = 0; c < nCandidates; c++) {
    const rng = rngFor(seed, "ashby-candidate", c)
    const first = rng.pick(W.FIRST_NAMES)
    const last = rng.pick(W.LAST_NAMES)
    const createdAt = DATA_START + Math.floor((c / nCandidates) * (SANDBOX_NOW - DATA_START - 30 * DAY)) + rng.int(0, 86399) * 1000
    const personal = `${slug(first)}.${slug(last)}${c}@mail.example`
    const [city, region, country] = rng.pick(W.CITIES)
    const candidate: AshbyCandidate = {
      id: id("candidate", c),
      name: `${first} ${last}`,
      emails: [
        { value: personal, type: "Personal", isPrimary: true },
        ...(rng.chance(0.3) ? [{ value: `${slug(first)}${c}@work.example`, type: "Work" as const, isPrimary: false }] : [])
      ],
      phones: rng.chance(0.8) ? [{ value: `+1 555 ${rng.digits(3)} ${rng.digits(4)}`, type: rng.pick(["Personal", "Work"] as const), isPrimary: true }] : [],
      socialLinks: rng.chance(0.6) ? [{ type: "LinkedIn", url: `https://linkedin.com/in/${slug(first)}-${slug(last)}-${c}` }] : [],
      tags: rng.sample(state.tags, rng.int(0, 2)),
      position: rng.chance(0.7) ? rng.pick(W.TITLES) : null,
      company: rng.chance(0.7) ? rng.pick(W.COMPANIES) : null,
      school: rng.chance(0.4) ? rng.pick(W.SCHOOLS) : null,
      sourceId: rng.chance(0.8) ? rng.pick(state.sources).id : null,
      creditedToUserId: rng.chance(0.5) ? rng.pick(userIds) : null,
      location: rng.chance(0.7) ? { city, region, country } : null,
      createdAt,
      updatedAt: createdAt
    }
    state.candidates.set(candidate.id, candidate)

    const jobs = rng.sample(applyTo, c % 4 === 0 ? 2 : 1)
    for (const [a, job] of jobs.entries()) {
      const appRng = rngFor(seed, "ashby-application", c, a)
      const stages = (state.plans.get(job.defaultInterviewPlanId) as { stages: Array<AshbyStage> }).stages
      const status: ApplicationStatus = appRng.weighted([["Active", 55], ["Archived", 25], ["Hired", 10], ["Lead", 10]] as const)
      const stage =
        status === "Archived"
          ? stages.find((s) => s.type === "Archived")
          : status === "Hired"
            ? stages.find((s) => s.type === "Hired")
            : status === "Lead"
              ? stages.find((s) => s.type === "Lead")
              : appRng.pick(stages.filter((s) => s.type === "PreInterviewScreen" || s.type === "Active" || s.type === "Offer"))
      const appCreated = createdAt + appRng.int(0, 3600) * 1000 + a
      const updatedAt = Math.min(SANDBOX_NOW - DAY, appCreated + appRng.int(0, 40) * DAY)
      const application: AshbyApplication = {
        id: id(`application-${a}`, c),
        candidateId: candidate.id,
        jobId: job.id,
        status,
        currentInterviewStageId: (stage as AshbyStage).id,
        sourceId: candidate.sourceId,
        archiveReasonId: status === "Archived" ? appRng.pick(state.archiveReasons).id : null,
        archivedAt: status === "Archived" ? updatedAt : null,
        creditedToUserId: candidate.creditedToUserId,
        createdAt: appCreated,
        updatedAt
      }
      state.applications.set(application.id, application)
      candidate.updatedAt = Math.max(candidate.updatedAt, updatedAt)
    }
  }
  // applications in the order they were made
  const ordered = [...state.applications.values()].sort((x, y) => x.createdAt - y.createdAt)
  state.applications.clear()
  for (const application of ordered) state.applications.set(application.id, application)
  return state
}
