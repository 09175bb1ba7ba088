import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { ServiceUnavailableBody } from "./Errors.js"

export const Health = Schema.Struct({ status: Schema.Literal("ok") })

export const Readiness = Schema.Struct({ status: Schema.Literal("ready") })

/**
 * Unauthenticated endpoints for operators and load balancers: `healthz` says the process is
 * alive, `readyz` that it should get traffic (its database answers and it is not shutting down).
 */
export class SystemGroup extends HttpApiGroup.make("system")
  .add(HttpApiEndpoint.get("healthz", "/healthz").addSuccess(Health))
  .add(HttpApiEndpoint.get("readyz", "/readyz").addSuccess(Readiness).addError(ServiceUnavailableBody))
{}
