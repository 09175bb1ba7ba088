import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import type { AtsContext } from "./atsContext.js"
import type { EmailRec } from "./data.js"
import { bodyObject, stringParam, timeFilter } from "./params.js"
import { authorId } from "./userReferences.js"

/** Activity feeds of applications and candidates, an application's changes, and emails logged to a candidate. */
export const activityFeedRoutes = (context: AtsContext): ReadonlyArray<Route> => [
  context.route("GET", "/v1/applications/:id/activity_feed", (ctx, params) => {
    const application = context.application(params["id"])
    sendJson(ctx.res, 200, context.views(ctx).feed((entry) => entry.application_id === application.id))
  }),
  context.route("GET", "/v1/applications/:id/changes", (ctx, params) => {
    const application = context.application(params["id"])
    const views = context.views(ctx)
    let items = [...context.state.activities.values()].filter((activity) => activity.application_id === application.id)
    items = timeFilter(ctx, items, { created_after: (activity) => activity.created_at, created_before: (activity) => activity.created_at })
    sendJson(ctx.res, 200, context.page(ctx, items).map((activity) => views.activity(activity)))
  }),
  context.route("GET", "/v1/candidates/:id/activity_feed", (ctx, params) => {
    const candidate = context.candidate(params["id"])
    sendJson(ctx.res, 200, context.views(ctx).feed((entry) => entry.candidate_id === candidate.id))
  }),
  context.route("POST", "/v1/candidates/:id/activity_feed/emails", (ctx, params) => {
    const actingUserId = context.actor(ctx)
    const candidate = context.candidate(params["id"])
    const body = bodyObject(ctx)
    const state = context.state
    const userId = authorId(state, body, actingUserId)
    const to = stringParam(body["to"], "to", true) as string
    const from = stringParam(body["from"], "from", true) as string
    const subject = stringParam(body["subject"], "subject", true) as string
    const text = stringParam(body["body"], "body", true) as string
    const cc = Array.isArray(body["cc"]) ? (body["cc"] as Array<unknown>).map(String) : null
    const at = context.tick()
    const id = state.next.email++
    const email: EmailRec = { id, candidate_id: candidate.id, application_id: null, created_at: at, subject, body: text, from, to, cc, user_id: userId }
    state.emails.set(id, email)
    context.touch(candidate.id, null, at)
    sendJson(ctx.res, 201, context.views(ctx).email(email))
  })
]
