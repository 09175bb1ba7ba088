import * as oauth from "oauth4webapi"

/**
 * The OAuth app the platform is registered as with the provider (the profile's setup fields).
 * Without `clientSecret` it is a public client (client_id in the body, PKCE its only proof).
 */
export interface OAuth2Client {
  readonly clientId: string
  readonly clientSecret?: string | undefined
  /** How the token endpoint authenticates it (default `client_secret_post`). */
  readonly tokenEndpointAuth?: "client_secret_post" | "client_secret_basic" | undefined
}

export const clientMetadata = (client: OAuth2Client): oauth.Client => ({ client_id: client.clientId })

export const clientAuthentication = (client: OAuth2Client): oauth.ClientAuth =>
  client.clientSecret === undefined || client.clientSecret === ""
    ? oauth.None()
    : client.tokenEndpointAuth === "client_secret_basic"
    ? oauth.ClientSecretBasic(client.clientSecret)
    : oauth.ClientSecretPost(client.clientSecret)
