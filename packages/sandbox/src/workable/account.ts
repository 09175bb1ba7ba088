import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import { collection, page } from "./paging.js"
import type { WorkableContext } from "./workableContext.js"

/** The account's lists: stages, members (paged), departments, disqualification reasons; and jobs. */
export const accountRoutes = (context: WorkableContext): ReadonlyArray<Route> => [
  context.route("GET", "/stages", (ctx) => sendJson(ctx.res, 200, { stages: context.state.stages.map((s) => ({ ...s })) })),
  // filters: email, name (exact); paged like the other collections
  context.route("GET", "/members", (ctx) => {
    const email = ctx.query.get("email")?.toLowerCase()
    const name = ctx.query.get("name")
    const selected = context.state.members.filter((m) =>
      (email === undefined || email === "" || m.email.toLowerCase() === email) && (name === null || name === "" || m.name === name)
    )
    const { items, next } = page(ctx, selected)
    const views = context.views()
    sendJson(ctx.res, 200, collection("members", items.map((m) => views.member(m)), next))
  }),
  // a bare array, as the documentation's example
  context.route("GET", "/departments", (ctx) => sendJson(ctx.res, 200, context.state.departments.map((d) => ({ ...d })))),
  // "a collection": the documentation shows no example, so a bare array as /departments
  context.route("GET", "/disqualification_reasons", (ctx) => sendJson(ctx.res, 200, context.state.disqualificationReasons.map((r) => ({ ...r })))),
  // jobs in insertion order; filter: state
  context.route("GET", "/jobs", (ctx) => {
    const state = ctx.query.get("state")
    const selected = context.state.jobs.filter((j) => state === null || state === "" || j.state === state)
    const { items, next } = page(ctx, selected)
    const views = context.views()
    sendJson(ctx.res, 200, collection("jobs", items.map((j) => views.job(j)), next))
  }),
  // "the full job JSON object"
  context.route("GET", "/jobs/:shortcode", (ctx, params) => sendJson(ctx.res, 200, context.views().job(context.job(params["shortcode"]))))
]
