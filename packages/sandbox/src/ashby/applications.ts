import type { Route } from "../router.js"
import type { AshbyContext } from "./AshbyContext.js"
import type { AshbyApplication, AshbyStage } from "./data.js"
import { invalidInput, notFound } from "./errors.js"

const STATUSES = ["Active", "Hired", "Archived", "Lead"]

/** application.list, application.info and application.changeStage. */
export const applicationRoutes = (context: AshbyContext): ReadonlyArray<Route> => {
  const application = (id: string): AshbyApplication => {
    const found = context.state.applications.get(id)
    if (found === undefined) throw notFound("application", "Application not found - are you lacking permissions to edit candidates?")
    return found
  }
  return [
    // filters: createdAfter (epoch ms), status, jobId
    context.endpoint("application.list", (ctx, body) => {
      const createdAfter = body["createdAfter"] === undefined ? undefined : Number(body["createdAfter"])
      if (createdAfter !== undefined && !Number.isFinite(createdAfter)) throw invalidInput("createdAfter must be a number of milliseconds since the epoch")
      const status = body["status"] === undefined ? undefined : String(body["status"])
      if (status !== undefined && !STATUSES.includes(status)) throw invalidInput(`status must be one of ${STATUSES.join(", ")}`)
      const jobId = body["jobId"] === undefined ? undefined : String(body["jobId"])
      const items = [...context.state.applications.values()].filter((a) =>
        (createdAfter === undefined || a.createdAt > createdAfter) && (status === undefined || a.status === status) && (jobId === undefined || a.jobId === jobId)
      )
      const views = context.views()
      context.page(ctx, body, { items, updatedAt: (a) => a.updatedAt, view: (a) => views.application(a) })
    }),
    context.endpoint("application.info", (ctx, body) => {
      context.ok(ctx, context.views().application(application(context.required(body, "applicationId"))))
    }),
    // moves to a stage of the job's interview plan; an Archived stage needs archiveReasonId
    context.endpoint("application.changeStage", (ctx, body) => {
      const target = application(context.required(body, "applicationId"))
      const stageId = context.required(body, "interviewStageId")
      const job = context.state.jobs.get(target.jobId)!
      const stage = context.state.plans.get(job.defaultInterviewPlanId)!.stages.find((s: AshbyStage) => s.id === stageId)
      if (stage === undefined) throw invalidInput("The interview stage is not part of the application's interview plan")
      const reasonId = body["archiveReasonId"] === undefined || body["archiveReasonId"] === null ? undefined : String(body["archiveReasonId"])
      if (stage.type === "Archived" && reasonId === undefined) throw invalidInput("archiveReasonId is required when moving to an Archived stage")
      if (reasonId !== undefined && !context.state.archiveReasons.some((r) => r.id === reasonId)) throw invalidInput("Unknown archive reason")
      const at = context.tick()
      target.currentInterviewStageId = stage.id
      target.status = stage.type === "Archived" ? "Archived" : stage.type === "Hired" ? "Hired" : stage.type === "Lead" ? "Lead" : "Active"
      target.archiveReasonId = stage.type === "Archived" ? (reasonId as string) : null
      target.archivedAt = stage.type === "Archived" ? at : null
      target.updatedAt = at
      context.ok(ctx, context.views().application(target))
    })
  ]
}
