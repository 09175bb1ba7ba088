import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import { srError } from "./errors.js"
import { offsetPage } from "./paging.js"
import type { SrContext } from "./SrContext.js"

/** Jobs: GET /jobs ("Search jobs", offset pages with totalFound) and GET /jobs/{id}. */
export const jobRoutes = (context: SrContext): ReadonlyArray<Route> => [
  context.route("GET", "/jobs", (ctx) => {
    const q = ctx.query.get("q")?.toLowerCase()
    const rawAfter = ctx.query.get("updatedAfter")
    const updatedAfter = rawAfter === null ? undefined : Date.parse(rawAfter)
    if (updatedAfter !== undefined && Number.isNaN(updatedAfter)) throw srError(400, "INVALID_DATE", "updatedAfter must be an ISO 8601 date-time")
    const departments = ctx.query.getAll("department").map((d) => d.toLowerCase())
    const postingStatus = ctx.query.get("postingStatus")
    const found = [...context.state.jobs.values()]
      .filter((job) => {
        const label = context.state.departments.find((d) => d.id === job.departmentId)?.label.toLowerCase() ?? ""
        if (q !== undefined && q !== "" && ![job.title, job.location.city].some((field) => field.toLowerCase().includes(q))) return false
        if (updatedAfter !== undefined && job.updatedOn < updatedAfter) return false
        if (departments.length > 0 && !departments.includes(label)) return false
        if (postingStatus !== null && job.postingStatus !== postingStatus) return false
        return true
      })
      .sort((a, b) => b.createdOn - a.createdOn)
    const views = context.views(ctx)
    const { limit, offset, page } = offsetPage(ctx, found)
    sendJson(ctx.res, 200, { limit, offset, totalFound: found.length, content: page.map((job) => views.job(job)) })
  }),
  context.route("GET", "/jobs/:id", (ctx, params) => sendJson(ctx.res, 200, context.views(ctx).jobDetails(context.job(params["id"]))))
]
