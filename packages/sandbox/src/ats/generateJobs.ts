import { DATA_START, DAY, SANDBOX_NOW } from "../clock.js"
import { rngFor } from "../prng.js"
import * as W from "../words.js"
import { ID_BASE } from "./idBase.js"

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
  requisition_id: string
  status: "open" | "closed" | "draft"
  confidential: boolean
  created_at: number
  opened_at: number
  closed_at: number | null
  updated_at: number
  department: { id: number; name: string }
  office: { id: number; name: string }
  stage_ids: Array<number>
  hiring_manager_id: number
  recruiter_id: number
}

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
): { readonly jobs: Map<number, JobRec>; readonly stages: Map<number, StageRec> } => {
  const jobs = new Map<number, JobRec>()
  const stages = new Map<number, StageRec>()
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
      department: { id: 40001 + deptIndex, name: W.DEPARTMENTS[deptIndex] as string },
      office: { id: 45001 + officeIndex, name: W.OFFICES[officeIndex] as string },
      stage_ids: stageIds,
      hiring_manager_id: rng.pick(userIds),
      recruiter_id: rng.pick(userIds)
    })
  }
  return { jobs, stages }
}
