import { HttpServerRequest } from "@effect/platform"
import { Authentication, Forbidden, Unauthorized } from "@switchyard/api"
import { Effect, FiberRef, Layer, Option, Redacted } from "effect"
import { ApiKeys } from "../features/auth/ApiKeys.js"
import { scopeAllows } from "../features/auth/ScopePolicy.js"
import { verifiedCaller } from "../features/auth/VerifiedCaller.js"

const scopeLabel = {
  full_access: "Full Access",
  read_only: "Read Only",
  accounts: "Accounts",
  actions: "Actions"
} as const

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const apiKeys = yield* ApiKeys
    return Authentication.of({
      basic: (credential) =>
        Effect.gen(function*() {
          const verified = yield* FiberRef.get(verifiedCaller)
          if (Option.isSome(verified)) return verified.value
          const request = yield* HttpServerRequest.HttpServerRequest
          // The platform decoder slices off any 6-character scheme: insist on Basic itself.
          const isBasic = /^basic /i.test(request.headers.authorization ?? "")
          const key = credential.username
          if (!isBasic || key.length === 0 || Redacted.value(credential.password).length > 0) {
            return yield* new Unauthorized({
              message: "Missing or malformed API key: use HTTP Basic with the API key as username and an empty password"
            })
          }
          const caller = yield* apiKeys.authenticate(key)
          if (Option.isNone(caller)) {
            return yield* new Unauthorized({ message: "Invalid API key" })
          }
          // on the request's span (the platform's `http.server`): whose request it is, never the key
          yield* Effect.annotateCurrentSpan({
            "switchyard.project.id": caller.value.projectId,
            "switchyard.api_key.id": caller.value.apiKeyId
          })
          const path = new URL(request.url, "http://switchyard").pathname
          if (!scopeAllows(caller.value.scope, request.method, path)) {
            return yield* new Forbidden({
              message: `API key scope ${scopeLabel[caller.value.scope]} does not allow ${request.method} ${path}`
            })
          }
          return caller.value
        })
    })
  })
)
