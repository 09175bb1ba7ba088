import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import { cursorPage } from "./paging.js"
import type { SrContext } from "./SrContext.js"

/** The "Pagination" guide's ListUsers (`/user-api/v201804/users`, cursor pages) and one user by id. */
export const userRoutes = (context: SrContext): ReadonlyArray<Route> => [
  context.route("GET", "/user-api/v201804/users", (ctx) => {
    const views = context.views(ctx)
    const { limit, nextPageId, page } = cursorPage(ctx, "users", [...context.state.users.values()])
    sendJson(ctx.res, 200, { limit, ...(nextPageId === undefined ? {} : { nextPageId }), content: page.map((u) => views.user(u)) })
  }),
  context.route("GET", "/user-api/v201804/users/:id", (ctx, params) => sendJson(ctx.res, 200, context.views(ctx).user(context.user(params["id"]))))
]
