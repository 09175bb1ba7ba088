import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import type { RecruiteeContext } from "./recruiteeContext.js"
import { offerView } from "./views.js"

/** The company's offers (jobs and talent pools, /reference/offersid-post) and its departments, each answered whole. */
export const offerRoutes = (context: RecruiteeContext): ReadonlyArray<Route> => [
  context.route("GET", "/offers", (ctx) => {
    const state = context.state
    sendJson(ctx.res, 200, { offers: [...state.offers].sort((a, b) => a.position - b.position).map((offer) => offerView(state, offer)) })
  }),
  context.route("GET", "/departments", (ctx) => {
    const state = context.state
    sendJson(ctx.res, 200, {
      departments: state.departments.map((department) => ({
        id: department.id,
        name: department.name,
        status: "active",
        offers_count: state.offers.filter((offer) => offer.department_id === department.id).length
      }))
    })
  })
]
