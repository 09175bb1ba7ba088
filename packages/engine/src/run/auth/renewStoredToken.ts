import { Deferred, Effect, FiberId } from "effect"
import type { RunFailure } from "../../RunErrors.js"
import type { RunState } from "../RunState.js"
import { type ResolvedAuth, storedTokenAuth } from "./ResolvedAuth.js"

/**
 * The provider answered 401 to `auth`: when it carries the account's stored OAuth2 token and
 * the caller gave `RunContext.refreshAccessToken`, a new token from that hook (called once per
 * run; requests of the run that carried the same rejected token share its answer), which
 * becomes the run's authentication. `undefined`: nothing to renew, the 401 stands.
 */
export const renewStoredToken = (run: RunState, auth: ResolvedAuth): Effect.Effect<ResolvedAuth | undefined, RunFailure> =>
  Effect.suspend(() => {
    const hook = run.context.refreshAccessToken
    const stored = auth.storedToken
    if (hook === undefined || stored === undefined) return Effect.succeed(undefined)
    let renewed: Effect.Effect<string, RunFailure>
    const entry = run.tokenRefresh
    if (entry === undefined) {
      const answer = Deferred.unsafeMake<string, RunFailure>(FiberId.none)
      run.tokenRefresh = { rejected: stored.accessToken, renewed: Deferred.await(answer) }
      renewed = Effect.zipRight(Effect.intoDeferred(Effect.suspend(() => hook(stored.accessToken)), answer), Deferred.await(answer))
    } else if (entry.rejected === stored.accessToken) {
      renewed = entry.renewed
    } else {
      // the hook's token was refused too: the provider's answer
      return Effect.succeed(undefined)
    }
    return Effect.map(renewed, (accessToken) => {
      run.secrets.add(accessToken)
      const next = storedTokenAuth(accessToken, stored.includeBearer)
      run.auth = next
      return next
    })
  })
