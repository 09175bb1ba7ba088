import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import type { AtsContext } from "./atsContext.js"
import type { ApplicationRec, CandidateRec, JobRec, StageRec } from "./data.js"
import { fullName, usDate } from "./data.js"
import { stateError, validationError } from "./errors.js"
import { bodyObject, intParam, stringParam } from "./params.js"

/** An application's way through its job: stage moves, rejection and its undoing, hiring. */

const stageRef = (stage: StageRec | undefined): { id: number; name: string } | null => (stage === undefined ? null : { id: stage.id, name: stage.name })

const requireActive = (application: ApplicationRec): void => {
  if (application.status !== "active") throw stateError(`Application must be 'active', is currently '${application.status}'`)
}

const requireRejected = (application: ApplicationRec): void => {
  if (application.status !== "rejected") throw stateError(`Application must be 'rejected', is currently '${application.status}'`)
}

const requireInStage = (application: ApplicationRec, stageId: number): void => {
  if (application.stage_id !== stageId) throw stateError(`Application is not in stage ${stageId} (current stage is ${application.stage_id})`)
}

export const applicationTransitionRoutes = (context: AtsContext): ReadonlyArray<Route> => {
  const currentStage = (application: ApplicationRec): StageRec | undefined => (application.stage_id === null ? undefined : context.state.stages.get(application.stage_id))
  const jobOf = (application: ApplicationRec): JobRec => context.state.jobs.get(application.job_id as number) as JobRec

  const moveTo = (application: ApplicationRec, to: StageRec, at: number, userId: number | null): void => {
    const from = currentStage(application)
    const candidate = context.state.candidates.get(application.candidate_id) as CandidateRec
    const job = jobOf(application)
    application.stage_id = to.id
    const body = `${fullName(candidate)} was moved into ${to.name} for ${job.name} on ${usDate(at)} by ${context.userName(userId)}`
    context.recordActivity(at, application.candidate_id, application.id, "stage_change", body, userId, {
      current_stage: { from: stageRef(from), to: stageRef(to) }
    })
  }

  return [
    context.route("POST", "/v1/applications/:id/move", (ctx, params) => {
      const userId = context.actor(ctx)
      const application = context.application(params["id"])
      const body = bodyObject(ctx)
      const fromId = intParam(body["from_stage_id"], "from_stage_id", true) as number
      const toId = intParam(body["to_stage_id"], "to_stage_id", true) as number
      if (application.prospect) throw stateError("Prospect applications can't be moved between stages")
      requireActive(application)
      requireInStage(application, fromId)
      const job = jobOf(application)
      if (!job.stage_ids.includes(toId)) throw validationError(`Stage ${toId} does not belong to job ${job.id}`, "to_stage_id")
      moveTo(application, context.state.stages.get(toId) as StageRec, context.tick(), userId)
      sendJson(ctx.res, 200, context.views(ctx).application(application))
    }),
    context.route("POST", "/v1/applications/:id/advance", (ctx, params) => {
      const userId = context.actor(ctx)
      const application = context.application(params["id"])
      const body = bodyObject(ctx)
      const fromId = intParam(body["from_stage_id"], "from_stage_id", true) as number
      if (application.prospect) throw stateError("Prospect applications can't be advanced")
      requireActive(application)
      requireInStage(application, fromId)
      const job = jobOf(application)
      const nextId = job.stage_ids[job.stage_ids.indexOf(fromId) + 1]
      if (nextId === undefined) throw stateError("Application is already in the last stage")
      moveTo(application, context.state.stages.get(nextId) as StageRec, context.tick(), userId)
      sendJson(ctx.res, 200, context.views(ctx).application(application))
    }),
    context.route("POST", "/v1/applications/:id/reject", (ctx, params) => {
      const userId = context.actor(ctx)
      const application = context.application(params["id"])
      const body = bodyObject(ctx)
      const reasonId = intParam(body["rejection_reason_id"], "rejection_reason_id", false)
      const reason = reasonId === undefined ? undefined : context.state.reasons.get(reasonId)
      if (reasonId !== undefined && reason === undefined) throw validationError(`Rejection reason ${reasonId} was not found`, "rejection_reason_id")
      const notes = stringParam(body["notes"], "notes", false)
      requireActive(application)
      const at = context.tick()
      const candidate = context.state.candidates.get(application.candidate_id) as CandidateRec
      const job = application.job_id === null ? undefined : context.state.jobs.get(application.job_id)
      application.status = "rejected"
      application.rejected_at = at
      application.rejection_reason_id = reasonId ?? null
      application.rejection_details = { custom_fields: {}, keyed_custom_fields: {} }
      const reasonText = reason !== undefined ? `\n\nReason: ${reason.name}` : ""
      const notesText = notes !== undefined ? `\n\n${notes}` : ""
      const activity = `${fullName(candidate)} was rejected from ${job?.name ?? "a prospect pool"} by ${context.userName(userId)}${reasonText}${notesText}`
      context.recordActivity(at, application.candidate_id, application.id, "rejected", activity, userId, {
        status: { from: "active", to: "rejected" },
        rejection_reason: { from: null, to: reason === undefined ? null : { id: reason.id, name: reason.name } }
      })
      sendJson(ctx.res, 200, context.views(ctx).application(application))
    }),
    context.route("PATCH", "/v1/applications/:id/reject", (ctx, params) => {
      const userId = context.actor(ctx)
      const application = context.application(params["id"])
      const body = bodyObject(ctx)
      const reasonId = intParam(body["rejection_reason_id"], "rejection_reason_id", true) as number
      const reason = context.state.reasons.get(reasonId)
      if (reason === undefined) throw validationError(`Rejection reason ${reasonId} was not found`, "rejection_reason_id")
      requireRejected(application)
      const previousReasonId = application.rejection_reason_id
      application.rejection_reason_id = reasonId
      context.recordActivity(context.tick(), application.candidate_id, application.id, "application_updated", `Rejection reason changed to ${reason.name} by ${context.userName(userId)}`, userId, {
        rejection_reason_id: { from: previousReasonId, to: reasonId }
      })
      sendJson(ctx.res, 200, { id: application.id, message: `Rejection reason updated to ${reasonId} (${reason.name})`, success: true })
    }),
    context.route("POST", "/v1/applications/:id/unreject", (ctx, params) => {
      const userId = context.actor(ctx)
      const application = context.application(params["id"])
      requireRejected(application)
      const at = context.tick()
      application.status = "active"
      application.rejected_at = null
      application.rejection_reason_id = null
      application.rejection_details = null
      context.recordActivity(at, application.candidate_id, application.id, "unrejected", `Application ${application.id} was unrejected by ${context.userName(userId)}`, userId, {
        status: { from: "rejected", to: "active" }
      })
      sendJson(ctx.res, 200, context.views(ctx).application(application))
    }),
    context.route("POST", "/v1/applications/:id/hire", (ctx, params) => {
      const userId = context.actor(ctx)
      const application = context.application(params["id"])
      const body = bodyObject(ctx)
      const startDate = stringParam(body["start_date"], "start_date", false)
      if (startDate !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(startDate)) throw validationError("start_date must be YYYY-MM-DD", "start_date")
      if (application.prospect) throw stateError("Prospect applications can't be hired")
      requireActive(application)
      const at = context.tick()
      const from = currentStage(application)
      const state = context.state
      for (const offer of state.offers.values()) {
        if (offer.application_id === application.id && offer.status === "unresolved") {
          offer.status = "accepted"
          offer.resolved_at = at
          offer.updated_at = at
          if (startDate !== undefined) offer.starts_at = startDate
        }
      }
      application.status = "hired"
      application.stage_id = null
      const candidate = state.candidates.get(application.candidate_id) as CandidateRec
      const activity = `${fullName(candidate)} was hired into ${state.jobs.get(application.job_id as number)?.name ?? "a job"} by ${context.userName(userId)}`
      context.recordActivity(at, application.candidate_id, application.id, "hired", activity, userId, {
        status: { from: "active", to: "hired" },
        current_stage: { from: stageRef(from), to: null }
      })
      sendJson(ctx.res, 200, context.views(ctx).application(application))
    })
  ]
}
