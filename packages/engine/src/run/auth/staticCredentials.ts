import { Effect, Either } from "effect"
import type { AuthPlan } from "../../actionPlan.js"
import { type ActionError, ActionInputError } from "../../RunErrors.js"
import type { RunState } from "../RunState.js"
import { paramText } from "../wireValues.js"
import { authorizationHeader, credentialValue, noAuth, type ResolvedAuth, storedTokenAuth } from "./ResolvedAuth.js"

/* Authentication methods whose value is on the account already: nothing to fetch. */

type Plan<Tag extends AuthPlan["_tag"]> = Extract<AuthPlan, { _tag: Tag }>

export const resolveNone = (): Effect.Effect<ResolvedAuth, ActionError> => Effect.succeed(noAuth)

export const resolveBasic = (plan: Plan<"Basic">, run: RunState): Effect.Effect<ResolvedAuth, ActionError> =>
  run.attempt(undefined, () =>
    Either.map(credentialValue(run, plan.username, "username", plan.name), (username) => {
      const password = plan.password(run.scope)
      const pair = `${username}:${password === undefined || password === null ? "" : paramText(password)}`
      const token = Buffer.from(pair).toString("base64")
      run.secrets.add(token)
      return authorizationHeader(`Basic ${token}`)
    }))

export const resolveBearer = (plan: Plan<"Bearer">, run: RunState): Effect.Effect<ResolvedAuth, ActionError> =>
  run.attempt(undefined, () =>
    Either.map(credentialValue(run, plan.token, "token", plan.name), (token) => {
      run.secrets.add(token)
      return authorizationHeader(/^bearer /i.test(token) ? token : `Bearer ${token}`)
    }))

export const resolveApiKey = (plan: Plan<"ApiKey">, run: RunState): Effect.Effect<ResolvedAuth, ActionError> =>
  run.attempt(undefined, () =>
    Either.flatMap(credentialValue(run, plan.key, "key name", plan.name), (key) =>
      Either.map(credentialValue(run, plan.value, "key", plan.name), (value): ResolvedAuth => {
        run.secrets.add(value)
        return plan.in === "header"
          ? { headers: { [key.toLowerCase()]: value }, query: [] }
          : { headers: {}, query: [[key, value]] }
      })))

/** OAuth 2.0 with a token already stored on the account (authorization code flows). */
export const resolveStoredToken = (plan: Plan<"StoredToken">, run: RunState): Effect.Effect<ResolvedAuth, ActionError> =>
  run.attempt(undefined, () => {
    const credentials = run.context.credentials
    const token = plan.token !== undefined ? plan.token(run.scope) : credentials.accessToken ?? credentials.access_token
    if (typeof token !== "string" || token === "") {
      return Either.left(ActionInputError.fromIssues([{
        input: "credentials.accessToken",
        message: `is missing: authentication "${plan.name}" needs an access token on the account`
      }]))
    }
    run.secrets.add(token)
    return Either.right(storedTokenAuth(token, plan.includeBearer))
  })
