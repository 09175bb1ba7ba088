import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import { srError } from "./errors.js"
import type { SrContext } from "./SrContext.js"

/** Company configuration: departments and rejection reasons, each answered whole with totalFound. */
export const configurationRoutes = (context: SrContext): ReadonlyArray<Route> => [
  context.route("GET", "/configuration/departments", (ctx) => {
    const departments = context.state.departments
    sendJson(ctx.res, 200, { totalFound: departments.length, content: departments })
  }),
  context.route("GET", "/configuration/departments/:id", (ctx, params) => {
    const department = context.state.departments.find((d) => d.id === params["id"])
    if (department === undefined) throw srError(404, "DEPARTMENT_NOT_FOUND", `Department ${params["id"]} not found`)
    sendJson(ctx.res, 200, department)
  }),
  context.route("GET", "/configuration/rejection-reasons", (ctx) => {
    const reasons = context.state.rejectionReasons
    sendJson(ctx.res, 200, { totalFound: reasons.length, content: reasons })
  })
]
