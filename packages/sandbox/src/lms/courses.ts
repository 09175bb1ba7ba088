import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import type { LmsState } from "./data.js"
import { invalidRequest } from "./errors.js"
import type { LmsContext } from "./lmsContext.js"

/** A category as `/categories` lists it. */
const categoryView = (category: LmsState["categories"][number]): Record<string, unknown> => ({
  id: String(category.id),
  name: category.name,
  price: category.price,
  parent_category_id: category.parent_category_id
})

/** Courses (the list, and one with its users and units) and course categories (the list, and one with its courses). */
export const courseRoutes = (context: LmsContext): ReadonlyArray<Route> => [
  context.route("GET", "/courses", (ctx) => {
    const views = context.views()
    sendJson(ctx.res, 200, [...context.state.courses.values()].map((course) => views.course(course)))
  }),
  context.route("GET", "/courses/id::id", (ctx, params) => sendJson(ctx.res, 200, context.views().courseDetail(context.course(params["id"])))),
  context.route("GET", "/categories", (ctx) => sendJson(ctx.res, 200, context.state.categories.map(categoryView))),
  // One category with the courses filed under it.
  context.route("GET", "/categories/id::id", (ctx, params) => {
    const category = context.state.categories.find((candidate) => candidate.id === Number(params["id"]))
    if (category === undefined) throw invalidRequest(404, "The requested category does not exist")
    const views = context.views()
    sendJson(ctx.res, 200, {
      ...categoryView(category),
      courses: [...context.state.courses.values()].filter((course) => course.category_id === category.id).map((course) => views.course(course))
    })
  })
]
