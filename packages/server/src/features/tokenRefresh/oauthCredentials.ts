import type { OAuth2Client, TokenSet } from "@switchyard/engine"

/*
 * An OAuth2 account's stored credentials and its project's OAuth app: shared by linking (the
 * connect page's OAuth2 flow) and token refresh.
 */

/** Stored credentials of an OAuth2 account: the entered fields and the tokens, with an absolute expiry. */
export const oauthCredentials = (fields: Readonly<Record<string, string>>, tokens: TokenSet, now: number) => ({
  ...fields,
  accessToken: tokens.accessToken,
  ...(tokens.refreshToken === undefined ? {} : { refreshToken: tokens.refreshToken }),
  ...(tokens.expiresIn === undefined ? {} : {
    expiresAt: new Date(now + tokens.expiresIn * 1000).toISOString(),
    // with the expiry, it tells how long the token lives: short-lived ones refresh at half-life, not every call
    issuedAt: new Date(now).toISOString()
  }),
  ...(tokens.tokenType === undefined ? {} : { tokenType: tokens.tokenType }),
  ...(tokens.scope === undefined ? {} : { scope: tokens.scope })
})

/** The project's OAuth app from the profile's setup values (StackOne names and snake_case). */
export const oauthClientOf = (setup: Readonly<Record<string, string>>): OAuth2Client | undefined => {
  const clientId = setup.clientId ?? setup.client_id
  if (clientId === undefined || clientId === "") return undefined
  return { clientId, clientSecret: setup.clientSecret ?? setup.client_secret }
}
