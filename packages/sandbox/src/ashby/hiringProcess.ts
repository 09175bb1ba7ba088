import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import type { AshbyContext } from "./AshbyContext.js"
import { notFound } from "./errors.js"

/** interviewStage.list (one interview plan's stages, in order), interviewStage.info and archiveReason.list. */
export const hiringProcessRoutes = (context: AshbyContext): ReadonlyArray<Route> => [
  context.endpoint("interviewStage.list", (ctx, body) => {
    const plan = context.state.plans.get(context.required(body, "interviewPlanId"))
    if (plan === undefined) throw notFound("interview_plan", "Interview plan not found")
    const views = context.views()
    sendJson(ctx.res, 200, { success: true, results: plan.stages.map((stage) => views.stage(stage)), moreDataAvailable: false })
  }),
  context.endpoint("interviewStage.info", (ctx, body) => {
    const id = context.required(body, "interviewStageId")
    const stage = [...context.state.plans.values()].flatMap((plan) => plan.stages).find((s) => s.id === id)
    if (stage === undefined) throw notFound("interview_stage", "Interview stage not found")
    context.ok(ctx, context.views().stage(stage))
  }),
  context.endpoint("archiveReason.list", (ctx, body) => {
    const all = body["includeArchived"] === true
    context.ok(ctx, context.state.archiveReasons.filter((r) => all || !r.isArchived).map((r) => ({ ...r })))
  })
]
