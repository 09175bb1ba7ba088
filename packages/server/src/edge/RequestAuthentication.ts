import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { basic, type Caller, Forbidden, Unauthorized } from "@switchyard/api"
import { Effect, Option, Redacted } from "effect"
import { ApiKeys } from "../features/auth/ApiKeys.js"
import { DashboardSessions } from "../features/auth/DashboardSessions.js"
import { isReadMethod, scopeAllows } from "../features/auth/ScopePolicy.js"
import { SwitchyardConfig } from "../platform/Config.js"
import { sessionEnded, sessionTokenOf } from "./DashboardCookie.js"
import { crossOriginRefusal } from "./sameOrigin.js"

const scopeLabel = {
  full_access: "Full Access",
  read_only: "Read Only",
  accounts: "Accounts",
  actions: "Actions"
} as const

/**
 * Who is making the request under way, decided once for the request guards (before routing)
 * and the Authentication middleware alike, from the whole request: its `Authorization` header
 * (HTTP Basic with an API key) when it has one, else its dashboard session cookie; then the
 * scope of the key (or of the key behind the session) for the method and path.
 */
export class RequestAuthentication extends Effect.Service<RequestAuthentication>()("Switchyard/RequestAuthentication", {
  effect: Effect.gen(function*() {
    const apiKeys = yield* ApiKeys
    const sessions = yield* DashboardSessions
    const { publicUrl } = yield* SwitchyardConfig

    const byApiKey = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function*() {
        const credential = yield* HttpApiBuilder.securityDecode(basic)
        // The platform decoder slices off any 6-character scheme: insist on Basic itself.
        const isBasic = /^basic /i.test(request.headers.authorization ?? "")
        const key = credential.username
        if (!isBasic || key.length === 0 || Redacted.value(credential.password).length > 0) {
          return yield* new Unauthorized({
            message: "Missing or malformed API key: use HTTP Basic with the API key as username and an empty password"
          })
        }
        const caller = yield* apiKeys.authenticate(key)
        if (Option.isNone(caller)) return yield* new Unauthorized({ message: "Invalid API key" })
        return caller.value
      })

    const bySession = (request: HttpServerRequest.HttpServerRequest, token: Parameters<typeof sessions.authenticate>[0]) =>
      Effect.gen(function*() {
        // refused before the lookup: a forged request learns nothing, not even whether the session lives
        if (!isReadMethod(request.method)) {
          const refusal = crossOriginRefusal(request, publicUrl)
          if (refusal !== undefined) return yield* new Forbidden({ message: refusal })
        }
        const session = yield* sessions.authenticate(token)
        if (Option.isNone(session)) return yield* sessionEnded()
        return session.value.caller
      })

    const caller: Effect.Effect<
      Caller,
      Unauthorized | Forbidden,
      HttpServerRequest.HttpServerRequest | HttpServerRequest.ParsedSearchParams
    > = Effect.gen(
      function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const token = request.headers.authorization === undefined ? sessionTokenOf(request) : undefined
        const found = token === undefined ? yield* byApiKey(request) : yield* bySession(request, token)
        // on the request's span (the platform's `http.server`): whose request it is, never the key
        yield* Effect.annotateCurrentSpan({
          "switchyard.project.id": found.projectId,
          "switchyard.api_key.id": found.apiKeyId
        })
        const path = new URL(request.url, "http://switchyard").pathname
        if (!scopeAllows(found.scope, request.method, path)) {
          return yield* new Forbidden({
            message: `API key scope ${scopeLabel[found.scope]} does not allow ${request.method} ${path}`
          })
        }
        return found
      }
    )

    return { caller } as const
  }),
  dependencies: [ApiKeys.Default, DashboardSessions.Default]
}) {}
