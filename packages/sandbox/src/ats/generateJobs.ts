import { DATA_START, DAY, SANDBOX_NOW } from "../clock.js"
import { rngFor } from "../prng.js"
import * as W from "../words.js"
import { ID_BASE } from "./idBase.js"
import { DEPARTMENT_BASE, OFFICE_BASE } from "./organization.js"

/**
 * The ATS's jobs, each with its own copy of the six hiring stages in STAGE_TEMPLATE and the
 * interview steps inside them. Stage, step, kit and question ids are computed from the job and
 * stage positions, so they stay put whatever else is generated.
 */

export interface InterviewStepRec {
  id: number
  name: string
  schedulable: boolean
  estimated_minutes: number | null
  interviewer_ids: Array<number>
  kit_id: number
  questions: Array<{ id: number; question: string }>
}

export interface StageRec {
  id: number
  job_id: number
  name: string
  priority: number
  created_at: number
  updated_at: number
  interviews: Array<InterviewStepRec>
}

export interface JobRec {
  id: number
  name: string
  requisition_id: string | null
  status: "open" | "closed" | "draft"
  confidential: boolean
  created_at: number
  opened_at: number
  closed_at: number | null
  updated_at: number
  /** null: the job has no department. */
  department: { id: number; name: string } | null
  offices: Array<{ id: number; name: string }>
  stage_ids: Array<number>
  hiring_manager_id: number
  recruiter_id: number
  /** Notes on the hiring plan. */
  notes: string | null
  /** Values by name_key (see customFieldDefinitions.ts); a select holds its option's name. */
  custom_fields: Record<string, unknown>
  copied_from_id: number | null
  /** The job's openings' opening_ids (their count is the number of openings). */
  opening_ids: Array<string | null>
}

/** A job post (the job as seen on a job board); job posts are generated one per job. */
export interface JobPostRec {
  id: number
  job_id: number
  title: string
  location: string
  internal: boolean
  external: boolean
  live: boolean
  active: boolean
  first_published_at: number | null
  content: string
  created_at: number
  updated_at: number
}

const EMPLOYMENT_TYPES = ["Full-time", "Part-time", "Contract"] as const

/** The job post of a generated job: its id is the one generated applications name as job_post_id. */
export const JOB_POST_BASE = 20000

export const STAGE_TEMPLATE: ReadonlyArray<{ name: string; steps: ReadonlyArray<{ name: string; schedulable: boolean; minutes: number | null }> }> = [
  { name: "Application Review", steps: [{ name: "Application Review", schedulable: false, minutes: null }] },
  { name: "Recruiter Phone Screen", steps: [{ name: "Recruiter Phone Screen", schedulable: true, minutes: 30 }] },
  { name: "Take Home Test", steps: [{ name: "Take Home Test", schedulable: false, minutes: null }] },
  { name: "Face to Face", steps: [{ name: "Technical Interview", schedulable: true, minutes: 60 }, { name: "Culture Fit", schedulable: true, minutes: 45 }] },
  { name: "Reference Check", steps: [{ name: "Reference Check", schedulable: true, minutes: 30 }] },
  { name: "Offer", steps: [] }
]

/**
 * At least one job. `count` is the requested count as given: the last job is closed only when more
 * than three were asked for, so small sandboxes have only open jobs.
 */
export const generateJobs = (
  seed: number,
  count: number,
  userIds: ReadonlyArray<number>
): { readonly jobs: Map<number, JobRec>; readonly stages: Map<number, StageRec>; readonly jobPosts: Map<number, JobPostRec> } => {
  const jobs = new Map<number, JobRec>()
  const stages = new Map<number, StageRec>()
  const jobPosts = new Map<number, JobPostRec>()
  for (let jobIndex = 0; jobIndex < Math.max(1, count); jobIndex++) {
    const rng = rngFor(seed, "ats-job", jobIndex)
    const id = ID_BASE.job + jobIndex
    const baseName = W.JOB_NAMES[jobIndex % W.JOB_NAMES.length] as string
    const name = jobIndex < W.JOB_NAMES.length ? baseName : `${baseName} ${Math.floor(jobIndex / W.JOB_NAMES.length) + 1}`
    const created = DATA_START - rng.int(5, 60) * DAY
    const stageIds: Array<number> = []
    STAGE_TEMPLATE.forEach((template, stageIndex) => {
      const stageId = ID_BASE.stage + jobIndex * 10 + stageIndex
      stageIds.push(stageId)
      stages.set(stageId, {
        id: stageId,
        job_id: id,
        name: template.name,
        priority: stageIndex,
        created_at: created,
        updated_at: created,
        interviews: template.steps.map((step, stepIndex) => ({
          id: ID_BASE.step + jobIndex * 100 + stageIndex * 10 + stepIndex,
          name: step.name,
          schedulable: step.schedulable,
          estimated_minutes: step.minutes,
          interviewer_ids: step.schedulable ? rng.sample(userIds, 2) : [],
          kit_id: 90000 + jobIndex * 100 + stageIndex * 10 + stepIndex,
          questions: step.schedulable ? [{ id: 110000 + jobIndex * 100 + stageIndex * 10 + stepIndex, question: `What stood out in the ${step.name.toLowerCase()}?` }] : []
        }))
      })
    })
    const deptIndex = jobIndex % W.DEPARTMENTS.length
    const officeIndex = rng.int(0, W.OFFICES.length - 1)
    const closed = jobIndex === count - 1 && count > 3
    jobs.set(id, {
      id,
      name,
      requisition_id: `REQ-${1000 + jobIndex}`,
      status: closed ? "closed" : "open",
      confidential: rng.chance(0.1),
      created_at: created,
      opened_at: created + DAY,
      closed_at: closed ? SANDBOX_NOW - 10 * DAY : null,
      updated_at: closed ? SANDBOX_NOW - 10 * DAY : created + DAY,
      department: { id: DEPARTMENT_BASE + deptIndex, name: W.DEPARTMENTS[deptIndex] as string },
      offices: [{ id: OFFICE_BASE + officeIndex, name: W.OFFICES[officeIndex] as string }],
      stage_ids: stageIds,
      hiring_manager_id: rng.pick(userIds),
      recruiter_id: rng.pick(userIds),
      notes: null,
      // from the position, not the generator: the draws above stay as they were
      custom_fields: { employment_type: EMPLOYMENT_TYPES[jobIndex % EMPLOYMENT_TYPES.length], budget: `$${90 + (jobIndex % 5) * 15}k` },
      copied_from_id: null,
      opening_ids: [`REQ-${1000 + jobIndex}-1`]
    })
    jobPosts.set(JOB_POST_BASE + jobIndex, {
      id: JOB_POST_BASE + jobIndex,
      job_id: id,
      title: name,
      location: W.OFFICES[officeIndex] as string,
      internal: false,
      external: true,
      live: !closed,
      active: true,
      first_published_at: created + DAY,
      content: `<p>Join our ${W.DEPARTMENTS[deptIndex] as string} team as a ${name}.</p>`,
      created_at: created,
      updated_at: created + DAY
    })
  }
  return { jobs, stages, jobPosts }
}
