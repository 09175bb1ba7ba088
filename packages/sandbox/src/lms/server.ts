import type { Ctx } from "../http/ctx.js"
import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import { courseRoutes } from "./courses.js"
import { enrollmentRoutes } from "./enrollments.js"
import { LmsContext, type LmsOptions } from "./lmsContext.js"
import { userRoutes } from "./users.js"

export type { LmsOptions } from "./lmsContext.js"

/**
 * The LMS routes, modeled on the TalentLMS API v1 (`/api/v1/...`), one module per resource. No two
 * patterns match the same path, so the order below is for reading only.
 */
export const lmsRoutes = (options: LmsOptions): ReadonlyArray<Route> => {
  const context = new LmsContext(options)
  return [...userRoutes(context), ...courseRoutes(context), ...enrollmentRoutes(context)]
}

export const lmsNotFound = (ctx: Ctx): void => sendJson(ctx.res, 404, { error: { type: "invalid_request_error", message: "Invalid API call" } })
