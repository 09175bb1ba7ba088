import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import type { LmsContext } from "./lmsContext.js"

/** Courses (the list, and one with its users and units) and course categories. */
export const courseRoutes = (context: LmsContext): ReadonlyArray<Route> => [
  context.route("GET", "/courses", (ctx) => {
    const views = context.views()
    sendJson(ctx.res, 200, [...context.state.courses.values()].map((course) => views.course(course)))
  }),
  context.route("GET", "/courses/id::id", (ctx, params) => sendJson(ctx.res, 200, context.views().courseDetail(context.course(params["id"])))),
  context.route("GET", "/categories", (ctx) =>
    sendJson(
      ctx.res,
      200,
      context.state.categories.map((category) => ({ id: String(category.id), name: category.name, price: category.price, parent_category_id: category.parent_category_id }))
    )
  )
]
