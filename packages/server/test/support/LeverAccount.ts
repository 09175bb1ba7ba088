import { builtinConnectorSources } from "@switchyard/connectors"
import { oauth2Method, parseConnector, startAuthorization } from "@switchyard/engine"
import type { Sandbox } from "@switchyard/sandbox"
import { Effect, Either } from "effect"
import { randomBytes } from "node:crypto"
import { accountBody, freshProject } from "./Fixtures.js"
import { type Json, SandboxProviders } from "./SandboxLayer.js"

/*
 * A Lever account on the sandbox's OAuth2 provider (a Lever v1 look-alike): an access token got
 * the way the engine reads a lever connector version's authentication (its authorization URL,
 * audience and scopes, PKCE; the consent page's Allow; the code exchanged at its token URL), and
 * an account linked with it. Shared by LeverConnector.test.ts and LeverAts.test.ts.
 */

export const REDIRECT = "http://127.0.0.1:9/lever/callback"

/** The shipped lever connector of `version`, parsed. */
export const leverConnector = (version: string) => {
  const source = builtinConnectorSources().find((s) => s.file.endsWith(`lever/${version}.yaml`))
  if (source === undefined) throw new Error(`lever@${version} is not shipped`)
  return Either.getOrThrow(parseConnector(source.yaml))
}

export const sandboxSettings = (sandbox: Sandbox) => ({ base_url: sandbox.oauth.baseUrl, auth_base_url: sandbox.oauth.url })

/** The connector's authorization-code method as the engine resolves it for an account's settings. */
export const leverMethod = (connector: ReturnType<typeof leverConnector>, settings: Record<string, unknown>) =>
  Either.getOrThrow(oauth2Method(connector, "oauth2", { credentials: {}, settings }))

export interface LeverTokens {
  readonly access_token: string
  readonly refresh_token: string
  readonly scope: string
}

/** The authorization-code flow with PKCE as the engine starts it from the connector's method, on the sandbox. */
export const authorizeLever = (sandbox: Sandbox, connector: ReturnType<typeof leverConnector>) =>
  Effect.gen(function*() {
    const method = leverMethod(connector, sandboxSettings(sandbox))
    const state = randomBytes(8).toString("hex")
    const { codeVerifier, url } = yield* startAuthorization(method, { clientId: sandbox.oauth.clientId, redirectUri: REDIRECT, state })
    return yield* Effect.promise(async (): Promise<LeverTokens> => {
      const back = await sandbox.oauth.consent(url, "Allow")
      if (back.searchParams.get("state") !== state) throw new Error(`state did not come back: ${back}`)
      const tokens = await fetch(method.tokenUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code: back.searchParams.get("code")!,
          redirect_uri: REDIRECT,
          code_verifier: codeVerifier!,
          client_id: sandbox.oauth.clientId,
          client_secret: sandbox.oauth.clientSecret
        }).toString()
      })
      if (tokens.status !== 200) throw new Error(`token endpoint answered ${tokens.status}: ${await tokens.text()}`)
      return (await tokens.json()) as LeverTokens
    })
  })

/** The sandbox's Lever API read directly with an access token. */
export const leverApi = (sandbox: Sandbox, accessToken: string, path: string) =>
  Effect.promise(async () => {
    const response = await fetch(`${sandbox.oauth.baseUrl}${path}`, { headers: { authorization: `Bearer ${accessToken}` } })
    if (!response.ok) throw new Error(`sandbox lever ${path} answered ${response.status}`)
    return (await response.json()) as any
  })

/** Every record of a Lever list, following `next` (`path` carries its own query, if any). */
export const leverAll = (sandbox: Sandbox, accessToken: string, path: string) =>
  Effect.gen(function*() {
    const out: Array<Json> = []
    let offset: string | undefined
    const join = path.includes("?") ? "&" : "?"
    for (;;) {
      const page = yield* leverApi(sandbox, accessToken, `${path}${join}limit=100${offset === undefined ? "" : `&offset=${offset}`}`)
      out.push(...page.data)
      if (!page.hasNext) return out
      offset = page.next
    }
  })

/** A fresh sandbox (reset, empty request log), a token from `connector`'s method and an account linked with it. */
export const leverAccount = (connector: ReturnType<typeof leverConnector>) =>
  Effect.gen(function*() {
    const sandbox = yield* SandboxProviders
    sandbox.reset()
    sandbox.clearRequests()
    const tokens = yield* authorizeLever(sandbox, connector)
    const project = yield* freshProject
    const account = yield* project.client.accounts.create_account({
      payload: accountBody({
        connector_key: "lever",
        credentials: { accessToken: tokens.access_token, refreshToken: tokens.refresh_token },
        settings: { ...sandboxSettings(sandbox), performAs: sandbox.oauth.performAs }
      })
    })
    const headers = { "x-account-id": account.id }
    return { sandbox, project, client: project.client, account, headers, tokens }
  })
