import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import { found, type AtsContext } from "./atsContext.js"
import type { StageRec } from "./data.js"
import { pathId, createdAndUpdatedFilters, timeFilter } from "./params.js"

/** Jobs and their interview stages (read only). */
export const jobRoutes = (context: AtsContext): ReadonlyArray<Route> => [
  context.route("GET", "/v1/jobs", (ctx) => {
    let items = [...context.state.jobs.values()]
    items = timeFilter(ctx, items, createdAndUpdatedFilters())
    const status = ctx.query.get("status")
    if (status !== null) items = items.filter((job) => job.status === status)
    const views = context.views(ctx)
    sendJson(ctx.res, 200, context.page(ctx, items).map((job) => views.job(job)))
  }),
  context.route("GET", "/v1/jobs/:id", (ctx, params) => sendJson(ctx.res, 200, context.views(ctx).job(context.job(params["id"])))),
  context.route("GET", "/v1/jobs/:id/stages", (ctx, params) => {
    const job = context.job(params["id"])
    const views = context.views(ctx)
    sendJson(ctx.res, 200, job.stage_ids.map((id) => views.stage(context.state.stages.get(id) as StageRec)))
  }),
  context.route("GET", "/v1/job_stages", (ctx) => {
    const views = context.views(ctx)
    sendJson(ctx.res, 200, context.page(ctx, [...context.state.stages.values()]).map((stage) => views.stage(stage)))
  }),
  context.route("GET", "/v1/job_stages/:id", (ctx, params) => {
    const stage = found(context.state.stages.get(pathId(params["id"])))
    sendJson(ctx.res, 200, context.views(ctx).stage(stage))
  })
]
