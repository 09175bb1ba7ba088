import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import { invalidRequest } from "./errors.js"
import type { LmsContext } from "./lmsContext.js"

/** Users: the list, and one user (with courses and certificates) by id or by email. */
export const userRoutes = (context: LmsContext): ReadonlyArray<Route> => [
  context.route("GET", "/users", (ctx) => {
    const views = context.views()
    sendJson(ctx.res, 200, [...context.state.users.values()].map((user) => views.user(user)))
  }),
  context.route("GET", "/users/id::id", (ctx, params) => sendJson(ctx.res, 200, context.views().userDetail(context.user(params["id"])))),
  context.route("GET", "/users/email::email", (ctx, params) => {
    const user = [...context.state.users.values()].find((candidate) => candidate.email.toLowerCase() === (params["email"] ?? "").toLowerCase())
    if (user === undefined) throw invalidRequest(404, "The requested user does not exist")
    sendJson(ctx.res, 200, context.views().userDetail(user))
  })
]
