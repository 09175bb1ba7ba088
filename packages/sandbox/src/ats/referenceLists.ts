import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import type { AtsContext } from "./atsContext.js"

/** Fixed lists that writes refer to by id: sources and rejection reasons. */
export const referenceListRoutes = (context: AtsContext): ReadonlyArray<Route> => [
  context.route("GET", "/v1/sources", (ctx) =>
    sendJson(ctx.res, 200, context.page(ctx, [...context.state.sources.values()]).map((source) => ({ id: source.id, name: source.name, type: { ...source.type } })))
  ),
  context.route("GET", "/v1/rejection_reasons", (ctx) =>
    sendJson(ctx.res, 200, context.page(ctx, [...context.state.reasons.values()]).map((reason) => ({ id: reason.id, name: reason.name, type: { ...reason.type } })))
  )
]
