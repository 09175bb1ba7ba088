import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import { found, type AtsContext } from "./atsContext.js"
import { createdAndUpdatedFilters, pathId, timeFilter } from "./params.js"

/** Scheduled interviews (read only): all of them, one, and an application's. */
export const interviewRoutes = (context: AtsContext): ReadonlyArray<Route> => [
  context.route("GET", "/v1/scheduled_interviews", (ctx) => {
    let items = [...context.state.interviews.values()]
    items = timeFilter(ctx, items, {
      ...createdAndUpdatedFilters(),
      starts_after: (interview) => interview.start,
      starts_before: (interview) => interview.start,
      ends_after: (interview) => interview.end,
      ends_before: (interview) => interview.end
    })
    const applicationId = ctx.query.get("application_id")
    if (applicationId !== null) items = items.filter((interview) => String(interview.application_id) === applicationId)
    const externalEventId = ctx.query.get("external_event_id")
    if (externalEventId !== null) items = items.filter((interview) => interview.external_event_id === externalEventId)
    const views = context.views(ctx)
    sendJson(ctx.res, 200, context.page(ctx, items).map((interview) => views.interview(interview)))
  }),
  context.route("GET", "/v1/scheduled_interviews/:id", (ctx, params) => {
    const interview = found(context.state.interviews.get(pathId(params["id"])))
    sendJson(ctx.res, 200, context.views(ctx).interview(interview))
  }),
  context.route("GET", "/v1/applications/:id/scheduled_interviews", (ctx, params) => {
    const application = context.application(params["id"])
    const views = context.views(ctx)
    let items = [...context.state.interviews.values()].filter((interview) => interview.application_id === application.id)
    items = timeFilter(ctx, items, createdAndUpdatedFilters())
    sendJson(ctx.res, 200, context.page(ctx, items).map((interview) => views.interview(interview)))
  })
]
