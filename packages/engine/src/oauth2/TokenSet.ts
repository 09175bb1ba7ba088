import type * as oauth from "oauth4webapi"

/** Tokens the provider issued. Without `refreshToken` on a refresh, keep the one you had. */
export interface TokenSet {
  readonly accessToken: string
  readonly refreshToken?: string | undefined
  /** Seconds the access token lives: the provider's `expires_in`, else the method's `tokenExpiresIn`. */
  readonly expiresIn?: number | undefined
  readonly scope?: string | undefined
  readonly tokenType?: string | undefined
}

/** A validated token endpoint answer as a `TokenSet`. */
export const tokenSetOf = (answer: oauth.TokenEndpointResponse, defaultExpiresIn: number | undefined): TokenSet => ({
  accessToken: answer.access_token,
  refreshToken: answer.refresh_token === undefined || answer.refresh_token === "" ? undefined : answer.refresh_token,
  expiresIn: answer.expires_in ?? defaultExpiresIn,
  scope: answer.scope,
  tokenType: answer.token_type
})
