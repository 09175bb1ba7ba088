import type { Route } from "../router.js"
import type { AshbyContext } from "./AshbyContext.js"
import type { JobStatus } from "./data.js"
import { invalidInput, notFound } from "./errors.js"

const STATUSES: ReadonlyArray<JobStatus> = ["Draft", "Open", "Closed", "Archived"]

/** job.list (open, closed and archived jobs; drafts only when `status` names Draft) and job.info. */
export const jobRoutes = (context: AshbyContext): ReadonlyArray<Route> => [
  context.endpoint("job.list", (ctx, body) => {
    const wanted = body["status"]
    if (wanted !== undefined && (!Array.isArray(wanted) || wanted.some((s) => !STATUSES.includes(s)))) throw invalidInput(`status must be a list of ${STATUSES.join(", ")}`)
    const statuses = (wanted as ReadonlyArray<JobStatus> | undefined) ?? ["Open", "Closed", "Archived"]
    const views = context.views()
    context.page(ctx, body, {
      items: [...context.state.jobs.values()].filter((job) => statuses.includes(job.status)),
      updatedAt: (job) => job.updatedAt,
      view: (job) => views.job(job)
    })
  }),
  context.endpoint("job.info", (ctx, body) => {
    const job = context.state.jobs.get(context.required(body, "id"))
    if (job === undefined) throw notFound("job", "Job not found")
    context.ok(ctx, context.views().job(job))
  })
]
