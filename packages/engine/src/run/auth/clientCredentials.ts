import { Effect, Either } from "effect"
import type { AuthPlan } from "../../actionPlan.js"
import type { ProviderRequest } from "../../ProviderTransport.js"
import { type ActionError, ActionInputError, type RunFailure } from "../../RunErrors.js"
import { defaultTokenCache, type FetchedToken, TokenCache } from "../../TokenCache.js"
import { httpError } from "../http/providerAnswers.js"
import type { RunState } from "../RunState.js"
import { isRecord, isSuccess } from "../wireValues.js"
import { authorizationHeader, credentialValue, type ResolvedAuth } from "./ResolvedAuth.js"

/* OAuth 2.0 client credentials: a token fetched from the token endpoint, cached until it expires. */

type ClientCredentialsPlan = Extract<AuthPlan, { _tag: "ClientCredentials" }>

interface TokenRequest {
  readonly tokenUrl: string
  readonly clientId: string
  readonly clientSecret: string
}

export const tokenCacheOf = (run: RunState): TokenCache => run.context.tokenCache ?? defaultTokenCache

export const resolveClientCredentials = (
  plan: ClientCredentialsPlan,
  run: RunState
): Effect.Effect<ResolvedAuth, RunFailure> =>
  Effect.flatMap(
    run.attempt(undefined, () =>
      Either.flatMap(
        run.context.tokenUrl !== undefined
          ? Either.right(run.context.tokenUrl)
          : credentialValue(run, plan.tokenUrl, "token URL", plan.name),
        (tokenUrl) => {
        const credentials = run.context.credentials
        const clientId = credentials.clientId ?? credentials.client_id
        const clientSecret = credentials.clientSecret ?? credentials.client_secret
        if (typeof clientId !== "string" || clientId === "" || typeof clientSecret !== "string" || clientSecret === "") {
          return Either.left(ActionInputError.fromIssues([{
            input: "credentials",
            message: `lack clientId and clientSecret, which authentication "${plan.name}" (client credentials) needs`
          }]))
        }
        return Either.right<TokenRequest>({ tokenUrl, clientId, clientSecret })
      }
      )),
    (request) => {
      const key = TokenCache.key({ ...request, scope: plan.scope })
      // the caller's check comes before the lookup: a fetch under way is shared by the runs
      // that miss, so it must fail with nothing of one run's own
      const token = Effect.zipRight(run.beforeRequest, tokenCacheOf(run).get(key, fetchToken(run, plan, request)))
      return Effect.map(token, (token): ResolvedAuth => {
        run.secrets.add(token)
        return { ...authorizationHeader(plan.includeBearer ? `Bearer ${token}` : token), cacheKey: key }
      })
    }
  )

const fetchToken = (
  run: RunState,
  plan: ClientCredentialsPlan,
  { clientId, clientSecret, tokenUrl }: TokenRequest
): Effect.Effect<FetchedToken, ActionError> => {
  const form: Record<string, string> = { grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }
  if (plan.scope !== undefined && plan.scope !== "") form.scope = plan.scope
  const request: ProviderRequest = {
    method: "POST",
    url: tokenUrl,
    headers: { accept: "application/json" },
    body: { _tag: "Form", value: form },
    secrets: run.secrets.list()
  }
  return run.transport.send(request).pipe(
    Effect.flatMap((response) => {
      const body = tokenAnswer(response.body)
      const token = plan.tokenField.reduce<unknown>((value, key) => (isRecord(value) ? value[key] : undefined), body)
      if (!isSuccess(response.status) || typeof token !== "string" || token === "") {
        const why = isSuccess(response.status)
          ? `token endpoint answered ${response.status} without ${plan.tokenField.join(".")}`
          : `token endpoint answered ${response.status}`
        return Effect.fail(httpError(undefined, "POST", tokenUrl, response, why))
      }
      const expiresIn = Number((body as Record<string, unknown>).expires_in)
      return Effect.succeed({
        accessToken: token,
        expiresInSeconds: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : plan.defaultExpiresIn ?? 3600
      })
    }),
    run.stepDeadline(undefined, "fetching the access token")
  )
}

/** Token endpoints answer JSON, and some (older GitHub-style ones) a form-encoded text. */
const tokenAnswer = (body: unknown): unknown => {
  if (typeof body !== "string") return body
  try {
    return JSON.parse(body)
  } catch {
    return Object.fromEntries(new URLSearchParams(body))
  }
}
