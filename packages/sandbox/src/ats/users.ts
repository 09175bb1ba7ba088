import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import { found, type AtsContext } from "./atsContext.js"
import { createdAndUpdatedFilters, pathId, timeFilter } from "./params.js"

/** Greenhouse users: recruiters, coordinators, interviewers (read only), filtered by creation and update times or email. */
export const userRoutes = (context: AtsContext): ReadonlyArray<Route> => [
  context.route("GET", "/v1/users", (ctx) => {
    const views = context.views(ctx)
    let items = timeFilter(ctx, [...context.state.users.values()], createdAndUpdatedFilters())
    const email = ctx.query.get("email")
    if (email !== null) items = items.filter((user) => user.email.toLowerCase() === email.toLowerCase())
    sendJson(ctx.res, 200, context.page(ctx, items).map((user) => views.user(user)))
  }),
  context.route("GET", "/v1/users/:id", (ctx, params) => {
    const user = found(context.state.users.get(pathId(params["id"])))
    sendJson(ctx.res, 200, context.views(ctx).user(user))
  })
]
