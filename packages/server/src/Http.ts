import { HttpApiBuilder, HttpApiScalar } from "@effect/platform"
import { Api } from "@switchyard/api"
import { Layer } from "effect"
import { Accounts } from "./Accounts/Accounts.js"
import { AccountsHttpLive } from "./Accounts/Http.js"
import { ApiKeys } from "./Auth/ApiKeys.js"
import { AuthenticationLive } from "./Auth/AuthenticationLive.js"
import { ErrorResponsesLive } from "./ErrorResponses.js"
import { SystemHttpLive } from "./SystemHttp.js"

/** The API's handlers, middleware, OpenAPI document and docs page; needs SQL and config. */
export const HttpApiLive = HttpApiBuilder.api(Api).pipe(
  Layer.provide([SystemHttpLive, AccountsHttpLive]),
  Layer.provide(AuthenticationLive),
  Layer.provide([Accounts.Default, ApiKeys.Default])
)

export const HttpExtrasLive = Layer.mergeAll(
  ErrorResponsesLive,
  HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" }),
  HttpApiScalar.layer({ path: "/docs", scalar: { withDefaultFonts: false } })
)
