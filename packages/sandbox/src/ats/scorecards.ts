import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import { found, type AtsContext } from "./atsContext.js"
import { pathId, createdAndUpdatedFilters, timeFilter } from "./params.js"

/** Scorecards (read only): all of them, one, and an application's (unpaged, as in Greenhouse). */
export const scorecardRoutes = (context: AtsContext): ReadonlyArray<Route> => [
  context.route("GET", "/v1/scorecards", (ctx) => {
    let items = [...context.state.scorecards.values()]
    items = timeFilter(ctx, items, createdAndUpdatedFilters())
    const views = context.views(ctx)
    sendJson(ctx.res, 200, context.page(ctx, items).map((scorecard) => views.scorecard(scorecard)))
  }),
  context.route("GET", "/v1/scorecards/:id", (ctx, params) => {
    const scorecard = found(context.state.scorecards.get(pathId(params["id"])))
    sendJson(ctx.res, 200, context.views(ctx).scorecard(scorecard))
  }),
  context.route("GET", "/v1/applications/:id/scorecards", (ctx, params) => {
    const application = context.application(params["id"])
    const views = context.views(ctx)
    sendJson(ctx.res, 200, [...context.state.scorecards.values()].filter((scorecard) => scorecard.application_id === application.id).map((scorecard) => views.scorecard(scorecard)))
  })
]
