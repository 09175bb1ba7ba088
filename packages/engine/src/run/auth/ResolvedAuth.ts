import { Either } from "effect"
import type { Evaluator } from "../../evaluate.js"
import { ActionInputError } from "../../RunErrors.js"
import type { RunState } from "../RunState.js"
import { paramText } from "../wireValues.js"

/** What authentication adds to each request of a run. */
export interface ResolvedAuth {
  readonly headers: Readonly<Record<string, string>>
  readonly query: ReadonlyArray<readonly [string, string]>
  /** Client-credentials cache entry: dropped and fetched again once if the provider answers 401. */
  readonly cacheKey?: string | undefined
  /**
   * The account's stored OAuth2 access token this authentication carries: on a 401 the
   * caller's `RunContext.refreshAccessToken` may exchange it (once per run).
   */
  readonly storedToken?: { readonly accessToken: string; readonly includeBearer: boolean } | undefined
}

export const noAuth: ResolvedAuth = { headers: {}, query: [] }

export const authorizationHeader = (value: string): ResolvedAuth => ({ headers: { authorization: value }, query: [] })

/** A stored OAuth2 access token in the Authorization header, remembered for a 401 refresh. */
export const storedTokenAuth = (accessToken: string, includeBearer: boolean): ResolvedAuth => ({
  ...authorizationHeader(includeBearer ? `Bearer ${accessToken}` : accessToken),
  storedToken: { accessToken, includeBearer }
})

/** A credential an authentication method needs, as text; missing ones are the caller's to fix. */
export const credentialValue = (
  run: RunState,
  evaluator: Evaluator,
  what: string,
  method: string
): Either.Either<string, ActionInputError> => {
  const value = evaluator(run.scope)
  return value === undefined || value === null || value === ""
    ? Either.left(ActionInputError.fromIssues([{
      input: "credentials",
      message: `lack the ${what} of authentication "${method}" (it resolved to nothing)`
    }]))
    : Either.right(paramText(value))
}
