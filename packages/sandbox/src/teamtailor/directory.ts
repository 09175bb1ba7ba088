import type { Route } from "../router.js"
import type { TeamtailorContext } from "./teamtailorContext.js"

/**
 * The account's directory, each a list and one by id: stages (of every job), users
 * (`filter[email]`, `filter[department]`), departments, locations and reject reasons.
 */
export const directoryRoutes = (context: TeamtailorContext): ReadonlyArray<Route> => [
  context.route("GET", "/stages", (ctx) => {
    const views = context.views(ctx)
    context.list(ctx, "stages", context.state.stages.map((s) => views.stage(s)))
  }),
  context.route("GET", "/stages/:id", (ctx, params) => context.one(ctx, context.views(ctx).stage(context.find(context.state.stages, params["id"])))),
  context.route("GET", "/users", (ctx) => {
    const email = ctx.query.get("filter[email]")
    const department = ctx.query.get("filter[department]")
    const views = context.views(ctx)
    const matching = context.state.users.filter((u) =>
      (email === null || u.email.toLowerCase() === email.toLowerCase()) && (department === null || String(u.department_id) === department))
    context.list(ctx, "users", matching.map((u) => views.user(u)))
  }),
  context.route("GET", "/users/:id", (ctx, params) => context.one(ctx, context.views(ctx).user(context.find(context.state.users, params["id"])))),
  context.route("GET", "/departments", (ctx) => {
    const views = context.views(ctx)
    context.list(ctx, "departments", context.state.departments.map((d) => views.department(d)))
  }),
  context.route("GET", "/departments/:id", (ctx, params) => context.one(ctx, context.views(ctx).department(context.find(context.state.departments, params["id"])))),
  context.route("GET", "/locations", (ctx) => {
    const views = context.views(ctx)
    context.list(ctx, "locations", context.state.locations.map((l) => views.location(l)))
  }),
  context.route("GET", "/locations/:id", (ctx, params) => context.one(ctx, context.views(ctx).location(context.find(context.state.locations, params["id"])))),
  context.route("GET", "/reject-reasons", (ctx) => {
    const views = context.views(ctx)
    context.list(ctx, "reject-reasons", context.state.rejectReasons.map((r) => views.rejectReason(r)))
  }),
  context.route("GET", "/reject-reasons/:id", (ctx, params) => context.one(ctx, context.views(ctx).rejectReason(context.find(context.state.rejectReasons, params["id"]))))
]
