import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import type { AtsContext } from "./atsContext.js"
import { applyCustomFields } from "./customFields.js"
import type { ActivityRec } from "./data.js"
import { stateError, validationError } from "./errors.js"
import { bodyObject, intParam, timeFilter } from "./params.js"
import { parseReferrer } from "./userReferences.js"
import { APPLICATION_FIELDS } from "./views.js"

/** `/v1/applications`: list, read, update and delete (stage moves and decisions are in applicationTransitions). */
export const applicationRoutes = (context: AtsContext): ReadonlyArray<Route> => [
  context.route("GET", "/v1/applications", (ctx) => {
    let items = [...context.state.applications.values()]
    items = timeFilter(ctx, items, {
      created_after: (application) => application.applied_at,
      created_before: (application) => application.applied_at,
      last_activity_after: (application) => application.last_activity_at,
      updated_after: (application) => application.last_activity_at,
      updated_before: (application) => application.last_activity_at
    })
    const jobId = ctx.query.get("job_id")
    if (jobId !== null) items = items.filter((application) => String(application.job_id) === jobId)
    const status = ctx.query.get("status")
    if (status !== null) items = items.filter((application) => application.status === status)
    const views = context.views(ctx)
    sendJson(ctx.res, 200, context.page(ctx, items).map((application) => views.application(application)))
  }),
  context.route("GET", "/v1/applications/:id", (ctx, params) => sendJson(ctx.res, 200, context.views(ctx).application(context.application(params["id"])))),
  context.route("PATCH", "/v1/applications/:id", (ctx, params) => {
    const userId = context.actor(ctx)
    const application = context.application(params["id"])
    if (application.status === "converted") throw stateError("Application must be 'active', 'rejected' or 'hired', is currently 'converted'")
    const body = bodyObject(ctx)
    const state = context.state
    const changes: ActivityRec["changes"] = {}
    const sourceId = intParam(body["source_id"], "source_id", false)
    if (sourceId !== undefined) {
      if (!state.sources.has(sourceId)) throw validationError(`Source ${sourceId} was not found`, "source_id")
      changes["source_id"] = { from: application.source_id, to: sourceId }
    }
    const referrer = parseReferrer(state, body["referrer"])
    const customFields = { ...application.custom_fields }
    Object.assign(changes, applyCustomFields(customFields, body["custom_fields"], APPLICATION_FIELDS))
    if (body["rejection_details"] !== undefined && application.status !== "rejected") throw stateError("Rejection details can't be updated if the application has not been rejected")
    // All checks passed: apply.
    if (sourceId !== undefined) application.source_id = sourceId
    if (referrer !== undefined) {
      changes["referrer"] = { from: application.referrer, to: referrer.raw }
      application.referrer = referrer.raw
      if (referrer.userId !== null) {
        changes["credited_to"] = { from: application.credited_to_id, to: referrer.userId }
        application.credited_to_id = referrer.userId
      }
    }
    application.custom_fields = customFields
    const at = context.tick()
    const summary = `Application ${application.id} was updated by ${context.userName(userId)}: ${Object.keys(changes).join(", ") || "no changes"}`
    context.recordActivity(at, application.candidate_id, application.id, "application_updated", summary, userId, changes)
    sendJson(ctx.res, 200, context.views(ctx).application(application))
  }),
  context.route("DELETE", "/v1/applications/:id", (ctx, params) => {
    context.actor(ctx)
    const application = context.application(params["id"])
    if (application.prospect) throw stateError("Prospect applications cannot be deleted")
    const state = context.state
    state.applications.delete(application.id)
    const candidate = state.candidates.get(application.candidate_id)
    if (candidate !== undefined) {
      candidate.application_ids = candidate.application_ids.filter((id) => id !== application.id)
      const at = context.tick()
      candidate.updated_at = at
      candidate.last_activity = at
    }
    for (const [id, offer] of state.offers) if (offer.application_id === application.id) state.offers.delete(id)
    for (const [id, scorecard] of state.scorecards) if (scorecard.application_id === application.id) state.scorecards.delete(id)
    for (const [id, interview] of state.interviews) if (interview.application_id === application.id) state.interviews.delete(id)
    sendJson(ctx.res, 200, { message: `Application ${application.id} has been deleted.` })
  })
]
