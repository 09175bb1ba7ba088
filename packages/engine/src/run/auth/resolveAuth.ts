import { Effect } from "effect"
import type { AuthPlan } from "../../actionPlan.js"
import { ActionDefinitionError, type RunFailure } from "../../RunErrors.js"
import type { RunState } from "../RunState.js"
import { resolveClientCredentials, tokenCacheOf } from "./clientCredentials.js"
import { noAuth, type ResolvedAuth } from "./ResolvedAuth.js"
import { resolveApiKey, resolveBasic, resolveBearer, resolveNone, resolveStoredToken } from "./staticCredentials.js"

type AuthResolver<Tag extends AuthPlan["_tag"]> = (
  plan: Extract<AuthPlan, { _tag: Tag }>,
  run: RunState
) => Effect.Effect<ResolvedAuth, RunFailure>

/** One resolver per method kind; a new kind in `AuthPlan` does not compile until it has one. */
const resolvers: { readonly [Tag in AuthPlan["_tag"]]: AuthResolver<Tag> } = {
  None: resolveNone,
  Basic: resolveBasic,
  Bearer: resolveBearer,
  ApiKey: resolveApiKey,
  StoredToken: resolveStoredToken,
  ClientCredentials: resolveClientCredentials
}

const authPlanOf = (run: RunState): AuthPlan | ActionDefinitionError => {
  const name = run.context.authMethod ?? run.connector.firstAuth
  if (name === undefined) return { _tag: "None", name: undefined }
  return run.connector.auth.get(name) ?? new ActionDefinitionError({
    message: `connector "${run.parsed.definition.info.key}" has no authentication method "${name}"`,
    actionId: run.actionId
  })
}

/** The run's authentication, resolved on first use and kept for the rest of the run. */
export const authorization = (run: RunState): Effect.Effect<ResolvedAuth, RunFailure> => {
  if (run.auth !== undefined) return Effect.succeed(run.auth)
  if (run.context.withoutAuthentication === true) return Effect.succeed(noAuth)
  const plan = authPlanOf(run)
  if (plan instanceof ActionDefinitionError) return Effect.fail(plan)
  const resolve = resolvers[plan._tag] as AuthResolver<typeof plan._tag>
  return Effect.tap(resolve(plan, run), (auth) => {
    run.auth = auth
  })
}

/** The provider refused a cached token: forget it, so the next request fetches a new one. */
export const forgetCachedToken = (run: RunState, auth: ResolvedAuth): void => {
  if (auth.cacheKey === undefined) return
  tokenCacheOf(run).invalidate(auth.cacheKey)
  run.auth = undefined
}
