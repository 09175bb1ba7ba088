import type { Route } from "../router.js"
import type { TtJobApplication } from "./data.js"
import { invalidField, jsonApiError } from "./errors.js"
import { documentBody, inRange, sortBy, type TeamtailorContext, toOneId } from "./teamtailorContext.js"

/**
 * Job applications (docs.teamtailor.com#job-applications): the list with its stage-type and date
 * filters, one, creating one (the candidate and job relations are required; it starts in the job's
 * Inbox stage) and updating one: its `stage` relation moves it, its `reject-reason` relation and
 * `rejected-at` attribute reject it (or, both null, take the rejection back).
 */

const SORT_KEYS = {
  id: (a: TtJobApplication) => a.id,
  "created-at": (a: TtJobApplication) => a.created_at,
  "updated-at": (a: TtJobApplication) => a.updated_at,
  "changed-stage-at": (a: TtJobApplication) => a.changed_stage_at
}

export const jobApplicationRoutes = (context: TeamtailorContext): ReadonlyArray<Route> => [
  context.route("GET", "/job-applications", (ctx) => {
    const stageType = ctx.query.get("filter[stage-type]")
    const state = context.state
    const typeOf = (application: TtJobApplication) => state.stages.find((stage) => stage.id === application.stage_id)?.stage_type.toLowerCase()
    const matching = state.jobApplications.filter((a) =>
      (stageType === null || typeOf(a) === stageType.toLowerCase()) &&
      inRange(ctx, "created-at", a.created_at) &&
      inRange(ctx, "updated-at", a.updated_at) &&
      inRange(ctx, "changed-stage-at", a.changed_stage_at))
    const views = context.views(ctx)
    context.list(ctx, "job-applications", sortBy(ctx, matching, SORT_KEYS, "id").map((a) => views.jobApplication(a)))
  }),
  context.route("GET", "/job-applications/:id", (ctx, params) =>
    context.one(ctx, context.views(ctx).jobApplication(context.find(context.state.jobApplications, params["id"])))),
  context.route("POST", "/job-applications", (ctx) => {
    const { attributes, relationships } = documentBody(ctx, "job-applications")
    const state = context.state
    const candidateId = toOneId(relationships, "candidate", "candidates")
    const jobId = toOneId(relationships, "job", "jobs")
    if (candidateId == null) throw invalidField("must exist", "/data/relationships/candidate")
    if (jobId == null) throw invalidField("must exist", "/data/relationships/job")
    const candidate = state.candidates.find((c) => c.id === candidateId)
    if (candidate === undefined) throw invalidField("must exist", "/data/relationships/candidate")
    const job = state.jobs.find((j) => j.id === jobId)
    if (job === undefined) throw invalidField("must exist", "/data/relationships/job")
    if (state.jobApplications.some((a) => a.candidate_id === candidate.id && a.job_id === job.id)) throw invalidField("has already applied to this job", "/data/relationships/candidate")
    const inbox = state.stages.find((stage) => stage.job_id === job.id && stage.stage_type === "Inbox")!
    const at = context.tick()
    const application: TtJobApplication = {
      id: state.next.jobApplication++,
      candidate_id: candidate.id,
      job_id: job.id,
      stage_id: inbox.id,
      reject_reason_id: null,
      cover_letter: typeof attributes["cover-letter"] === "string" ? attributes["cover-letter"] : "",
      sourced: attributes["sourced"] === true,
      referring_site: null,
      referring_url: null,
      created_at: at,
      updated_at: at,
      rejected_at: null,
      changed_stage_at: at
    }
    state.jobApplications.push(application)
    candidate.updated_at = at
    context.one(ctx, context.views(ctx).jobApplication(application), 201)
  }),
  context.route("PATCH", "/job-applications/:id", (ctx, params) => {
    const state = context.state
    const application = context.find(state.jobApplications, params["id"])
    const { attributes, relationships, id } = documentBody(ctx, "job-applications")
    if (id !== undefined && String(id) !== String(application.id)) throw jsonApiError(400, "Key is not included in URL", `The URL does not support the key ${String(id)}`)
    const stageId = toOneId(relationships, "stage", "stages")
    if (stageId === null) throw invalidField("must exist", "/data/relationships/stage")
    const stage = stageId === undefined ? undefined : state.stages.find((s) => s.id === stageId)
    if (stageId !== undefined && (stage === undefined || stage.job_id !== application.job_id)) throw invalidField("is not a stage of this job", "/data/relationships/stage")
    const reasonId = toOneId(relationships, "reject-reason", "reject-reasons")
    if (reasonId != null && !state.rejectReasons.some((r) => r.id === reasonId)) throw invalidField("must exist", "/data/relationships/reject-reason")
    let rejectedAt: number | null | undefined
    if ("rejected-at" in attributes) {
      const raw = attributes["rejected-at"]
      rejectedAt = raw === null ? null : typeof raw === "string" && !Number.isNaN(Date.parse(raw)) ? Date.parse(raw) : undefined
      if (rejectedAt === undefined) throw invalidField("is not a date", "/data/attributes/rejected-at")
    }
    const at = context.tick()
    if (stage !== undefined && stage.id !== application.stage_id) {
      application.stage_id = stage.id
      application.changed_stage_at = at
    }
    if (reasonId !== undefined) application.reject_reason_id = reasonId
    if (rejectedAt !== undefined) application.rejected_at = rejectedAt
    if (typeof attributes["cover-letter"] === "string") application.cover_letter = attributes["cover-letter"]
    application.updated_at = at
    const candidate = state.candidates.find((c) => c.id === application.candidate_id)
    if (candidate !== undefined) candidate.updated_at = at
    context.one(ctx, context.views(ctx).jobApplication(application))
  })
]
