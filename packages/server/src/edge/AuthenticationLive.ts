import { Authentication } from "@switchyard/api"
import { Effect, FiberRef, Layer, Option } from "effect"
import { verifiedCaller } from "../features/auth/VerifiedCaller.js"
import { RequestAuthentication } from "./RequestAuthentication.js"

/**
 * The HttpApi's security middleware. Both schemes answer the same way, from the whole request
 * (`RequestAuthentication`): the platform tries them in order and reports the last one's
 * failure, so a scheme judging only its own credential would hide the other's answer (a
 * session's 403 behind Basic's "missing API key"). The caller the request guards already
 * checked is taken as is.
 */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const { caller } = yield* RequestAuthentication
    const authenticate = Effect.flatMap(
      FiberRef.get(verifiedCaller),
      Option.match({ onSome: Effect.succeed, onNone: () => caller })
    )
    return Authentication.of({ dashboardSession: () => authenticate, basic: () => authenticate })
  })
).pipe(Layer.provide(RequestAuthentication.Default))
