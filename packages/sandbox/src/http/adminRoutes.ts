import type { FaultPlan } from "../faults.js"
import { route, type Route } from "../router.js"
import { faultErrorsAsBadRequest } from "./faultInjection.js"
import { HttpError } from "./httpError.js"
import { sendJson } from "./responses.js"
import { PROVIDERS, type Provider, type Shared } from "./shared.js"

/** Admin requests skip the request log and faults: no fault plan can block the API that removes it. */
export const isAdminPath = (path: string): boolean => path === "/_sandbox" || path.startsWith("/_sandbox/")

/**
 * The `/_sandbox` admin API every provider server has (no authentication): sandbox info, fault plans,
 * the request log (this provider's by default) and reset.
 */
export const adminRoutes = (shared: Shared, provider: Provider): ReadonlyArray<Route> => [
  route("GET", "/_sandbox", (ctx) => sendJson(ctx.res, 200, shared.info())),
  route("GET", "/_sandbox/faults", (ctx) => sendJson(ctx.res, 200, shared.faults.list())),
  route("POST", "/_sandbox/faults", (ctx) => {
    const added = faultErrorsAsBadRequest(() => shared.faults.add(ctx.body() as FaultPlan | Array<FaultPlan>))
    sendJson(ctx.res, 201, added)
  }),
  route("DELETE", "/_sandbox/faults", (ctx) => {
    shared.faults.clear()
    sendJson(ctx.res, 200, { cleared: true })
  }),
  route("DELETE", "/_sandbox/faults/:id", (ctx, params) => {
    if (!shared.faults.remove(params["id"] as string)) throw new HttpError(404, { message: "No such fault" })
    sendJson(ctx.res, 200, { removed: params["id"] })
  }),
  route("GET", "/_sandbox/requests", (ctx) => {
    const which = ctx.query.get("provider") ?? provider
    if (which !== "all" && !(PROVIDERS as ReadonlyArray<string>).includes(which)) throw new HttpError(400, { message: `provider must be ${PROVIDERS.join(", ")} or all` })
    sendJson(ctx.res, 200, shared.log.list(which === "all" ? undefined : (which as Provider)))
  }),
  route("DELETE", "/_sandbox/requests", (ctx) => {
    shared.log.clear()
    sendJson(ctx.res, 200, { cleared: true })
  }),
  route("POST", "/_sandbox/reset", (ctx) => {
    const body = ctx.body() as { faults?: unknown; requests?: unknown }
    shared.reset()
    if (body.faults === true) shared.faults.clear()
    if (body.requests === true) shared.log.clear()
    sendJson(ctx.res, 200, { reset: true })
  }),
  ...(shared.adminExtras ?? [])
]
