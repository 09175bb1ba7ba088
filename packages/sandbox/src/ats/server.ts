import type { Ctx } from "../http/ctx.js"
import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import { activityFeedRoutes } from "./activityFeed.js"
import { applicationRoutes } from "./applications.js"
import { applicationTransitionRoutes } from "./applicationTransitions.js"
import { AtsContext, type AtsOptions } from "./atsContext.js"
import { attachmentRoutes } from "./attachments.js"
import { candidateRoutes } from "./candidates.js"
import { interviewRoutes } from "./interviews.js"
import { jobRoutes } from "./jobs.js"
import { noteRoutes } from "./notes.js"
import { offerRoutes } from "./offers.js"
import { organizationRoutes } from "./organizationRoutes.js"
import { referenceListRoutes } from "./referenceLists.js"
import { scorecardRoutes } from "./scorecards.js"
import { userRoutes } from "./users.js"

export type { AtsOptions } from "./atsContext.js"

/**
 * The ATS routes, modeled on the Greenhouse Harvest API v1, one module per resource. No two
 * patterns match the same path, so the order below is for reading only.
 */
export const atsRoutes = (options: AtsOptions): ReadonlyArray<Route> => {
  const context = new AtsContext(options)
  return [
    ...attachmentRoutes(context),
    ...applicationRoutes(context),
    ...applicationTransitionRoutes(context),
    ...offerRoutes(context),
    ...scorecardRoutes(context),
    ...interviewRoutes(context),
    ...activityFeedRoutes(context),
    ...noteRoutes(context),
    ...candidateRoutes(context),
    ...jobRoutes(context),
    ...userRoutes(context),
    ...organizationRoutes(context),
    ...referenceListRoutes(context)
  ]
}

export const atsNotFound = (ctx: Ctx): void => sendJson(ctx.res, 404, { message: "Resource not found" })
