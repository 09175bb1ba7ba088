import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import { found, type AtsContext } from "./atsContext.js"
import { notFoundError } from "./errors.js"
import { createdAndUpdatedFilters, pathId, timeFilter } from "./params.js"

/** Offers (read only): all of them, one, and an application's. */
export const offerRoutes = (context: AtsContext): ReadonlyArray<Route> => [
  context.route("GET", "/v1/offers", (ctx) => {
    let items = [...context.state.offers.values()].sort((left, right) => left.application_id - right.application_id || left.id - right.id)
    items = timeFilter(ctx, items, {
      ...createdAndUpdatedFilters(),
      resolved_after: (offer) => offer.resolved_at,
      resolved_before: (offer) => offer.resolved_at
    })
    const status = ctx.query.get("status")
    if (status !== null) items = items.filter((offer) => offer.status === status)
    const views = context.views(ctx)
    sendJson(ctx.res, 200, context.page(ctx, items).map((offer) => views.offer(offer)))
  }),
  context.route("GET", "/v1/offers/:id", (ctx, params) => {
    const offer = found(context.state.offers.get(pathId(params["id"])))
    sendJson(ctx.res, 200, context.views(ctx).offer(offer))
  }),
  context.route("GET", "/v1/applications/:id/offers", (ctx, params) => {
    const application = context.application(params["id"])
    const views = context.views(ctx)
    const offers = [...context.state.offers.values()].filter((offer) => offer.application_id === application.id)
    sendJson(ctx.res, 200, context.page(ctx, offers).map((offer) => views.offer(offer)))
  }),
  context.route("GET", "/v1/applications/:id/offers/current_offer", (ctx, params) => {
    const application = context.application(params["id"])
    const current = [...context.state.offers.values()].filter((offer) => offer.application_id === application.id && offer.status !== "deprecated").pop()
    if (current === undefined) throw notFoundError()
    sendJson(ctx.res, 200, context.views(ctx).offer(current))
  })
]
