import type { Route } from "../router.js"
import type { AshbyContext } from "./AshbyContext.js"
import { notFound } from "./errors.js"

/** user.list/info, department.list/info and location.list/info (the organizationRead endpoints). */
export const organizationRoutes = (context: AshbyContext): ReadonlyArray<Route> => [
  // deactivated users only with includeDeactivated
  context.endpoint("user.list", (ctx, body) => {
    const views = context.views()
    const all = body["includeDeactivated"] === true
    context.page(ctx, body, { items: [...context.state.users.values()].filter((u) => all || u.isEnabled), updatedAt: (u) => u.updatedAt, view: (u) => views.user(u) })
  }),
  context.endpoint("user.info", (ctx, body) => {
    const user = context.state.users.get(context.required(body, "userId"))
    if (user === undefined) throw notFound("user", "User not found")
    context.ok(ctx, context.views().user(user))
  }),
  // archived departments and locations only with includeArchived
  context.endpoint("department.list", (ctx, body) => {
    const views = context.views()
    const all = body["includeArchived"] === true
    context.page(ctx, body, {
      items: [...context.state.departments.values()].filter((d) => all || !d.isArchived),
      updatedAt: (d) => d.updatedAt,
      view: (d) => views.department(d)
    })
  }),
  context.endpoint("department.info", (ctx, body) => {
    const department = context.state.departments.get(context.required(body, "departmentId"))
    if (department === undefined) throw notFound("department", "Department not found")
    context.ok(ctx, context.views().department(department))
  }),
  context.endpoint("location.list", (ctx, body) => {
    const views = context.views()
    const all = body["includeArchived"] === true
    context.page(ctx, body, {
      items: [...context.state.locations.values()].filter((l) => all || !l.isArchived),
      updatedAt: (l) => l.updatedAt,
      view: (l) => views.location(l)
    })
  }),
  context.endpoint("location.info", (ctx, body) => {
    const location = context.state.locations.get(context.required(body, "locationId"))
    if (location === undefined) throw notFound("location", "Location not found")
    context.ok(ctx, context.views().location(location))
  })
]
