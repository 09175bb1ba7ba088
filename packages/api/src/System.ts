import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ServiceUnavailableBody } from "./Errors.js"

export const Health = Schema.Struct({ status: Schema.Literal("ok") })

export const Readiness = Schema.Struct({ status: Schema.Literal("ready") })

/**
 * Unauthenticated endpoints for operators and load balancers: `healthz` says the process is
 * alive, `readyz` that it should get traffic (its database answers and it is not shutting down).
 */
export class SystemGroup extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("healthz", "/healthz")
      .addSuccess(Health)
      .annotate(OpenApi.Summary, "Check that the server is alive")
      .annotate(
        OpenApi.Description,
        "Liveness, without authentication: 200 `{status: \"ok\"}` while the process runs, without asking the database (for restart policies; load balancers should ask /readyz)"
      )
  )
  .add(
    HttpApiEndpoint.get("readyz", "/readyz")
      .addSuccess(Readiness)
      .addError(ServiceUnavailableBody)
      .annotate(OpenApi.Summary, "Check that the server should get traffic")
      .annotate(
        OpenApi.Description,
        "Readiness, without authentication: 200 `{status: \"ready\"}` when the database answers within 2 s and the server is not shutting down, else 503 saying which; asked afresh on every call"
      )
  )
  .annotate(OpenApi.Description, "Probes for operators and load balancers, without authentication")
{}
