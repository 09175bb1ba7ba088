import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import { found, type AtsContext } from "./atsContext.js"
import { pathId } from "./params.js"

/** Greenhouse users: recruiters, coordinators, interviewers (read only). */
export const userRoutes = (context: AtsContext): ReadonlyArray<Route> => [
  context.route("GET", "/v1/users", (ctx) => {
    const views = context.views(ctx)
    sendJson(ctx.res, 200, context.page(ctx, [...context.state.users.values()]).map((user) => views.user(user)))
  }),
  context.route("GET", "/v1/users/:id", (ctx, params) => {
    const user = found(context.state.users.get(pathId(params["id"])))
    sendJson(ctx.res, 200, context.views(ctx).user(user))
  })
]
