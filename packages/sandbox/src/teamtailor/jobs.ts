import type { Route } from "../router.js"
import type { TtJob } from "./data.js"
import { jsonApiError } from "./errors.js"
import { sortBy, type TeamtailorContext } from "./teamtailorContext.js"
import { humanStatus } from "./views.js"

/**
 * Jobs: the list and one job. The list shows published jobs unless `filter[status]` says otherwise
 * (`published`, `unlisted`, `archived`, `draft`, `scheduled` or `all`: docs.teamtailor.com#list-jobs);
 * `filter[department]` and `filter[locations]` take ids.
 */

const STATUSES = ["published", "unlisted", "archived", "draft", "scheduled", "all"]

export const jobRoutes = (context: TeamtailorContext): ReadonlyArray<Route> => [
  context.route("GET", "/jobs", (ctx) => {
    const status = ctx.query.get("filter[status]") ?? "published"
    if (!STATUSES.includes(status)) throw jsonApiError(400, "Invalid filter value", `${status} is not a valid value for status.`)
    const department = ctx.query.get("filter[department]")
    const location = ctx.query.get("filter[locations]")
    const matching = context.state.jobs.filter((job) =>
      (status === "all" || humanStatus(job) === status) &&
      (department === null || String(job.department_id) === department) &&
      (location === null || job.location_ids.map(String).includes(location)))
    const views = context.views(ctx)
    const sorted = sortBy(ctx, matching, { id: (job: TtJob) => job.id, "created-at": (job: TtJob) => job.created_at, title: (job: TtJob) => job.title }, "id")
    context.list(ctx, "jobs", sorted.map((job) => views.job(job)))
  }),
  context.route("GET", "/jobs/:id", (ctx, params) => context.one(ctx, context.views(ctx).job(context.find(context.state.jobs, params["id"]))))
]
