import { HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import type { Sandbox } from "@switchyard/sandbox"
import { Effect, Layer } from "effect"
import { secretDigest } from "../src/platform/crypto/secretDigest.js"
import { countAccounts, freshProject } from "./support/Fixtures.js"
import { SandboxLive, SandboxProviders, sandboxLeverProfile } from "./support/SandboxLayer.js"
import { TestServer } from "./support/TestServer.js"
import { expectErrorBody, json, send, type WireResponse } from "./support/Wire.js"

/*
 * Linking an OAuth2 account through a connect session without a browser: the page's start
 * call, the sandbox provider's consent form pressed over HTTP, and the provider's redirect
 * replayed against this server's callback (the browser flow is in ConnectPage tests).
 */

const server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive())

const owner = { origin_owner_id: "customer-7", origin_owner_name: "Globex" }

const post = (path: string, body: unknown) => send(HttpClientRequest.post(path).pipe(json(body)))

/** The callback URL the provider sent the browser to, asked of this server (a path and query). */
const callback = (redirect: URL) => send(HttpClientRequest.get(`${redirect.pathname}${redirect.search}`))

/** The result the callback page carries for the page's script (its JSON data block). */
const resultOf = (response: WireResponse) => {
  const block = /<script type="application\/json" id="[^"]*">([\s\S]*?)<\/script>/.exec(response.text)
  if (block === null) throw new Error(`no result data block in: ${response.text.slice(0, 300)}`)
  return (JSON.parse(block[1]!) as { result: Record<string, unknown> }).result
}

const expectError = (response: WireResponse, status: number, message: string | RegExp) => {
  const body = expectErrorBody(response, status)
  if (typeof message === "string") expect(body.message).toBe(message)
  else expect(body.message).toMatch(message)
}

/** A project with a Lever profile holding the sandbox's OAuth app, pointed at the sandbox. */
const setup = Effect.gen(function*() {
  const sandbox = yield* SandboxProviders
  const project = yield* freshProject
  const profile = yield* project.client.connector_profiles.create_connector_profile({
    urlParams: {},
    payload: sandboxLeverProfile(sandbox)
  })
  sandbox.oauth.clearTokenRequests()
  const mint = (extra: Record<string, unknown> = {}) =>
    project.client.connect_sessions.create_connect_session({ payload: { ...owner, ...extra } })
  const start = (token: string) => post("/connect_sessions/oauth2/authorize", { token, connector_key: "lever" })
  return { sandbox, project, profile, mint, start }
})

const authorizationUrlOf = (response: WireResponse) => {
  expect(response.status).toBe(200)
  return (response.json as { authorization_url: string }).authorization_url
}

const consented = (sandbox: Sandbox, url: string, button: "Allow" | "Deny" = "Allow") =>
  Effect.promise(() => sandbox.oauth.consent(url, button))

/** A consented authorization whose callback meets a token endpoint answering `status` (`times` times). */
const callbackWithTokenEndpoint = (status: number, times: number) =>
  Effect.gen(function*() {
    const { mint, project, sandbox, start } = yield* setup
    const session = yield* mint()
    const redirect = yield* consented(sandbox, authorizationUrlOf(yield* start(session.token)))
    sandbox.faults.add({ match: { provider: "oauth", path: "/oauth/token" }, fault: "status", status, times })
    const page = yield* callback(redirect)
    sandbox.faults.clear()
    return { page, project, session }
  })

layer(server, { excludeTestServices: true })("OAuth2 linking through a connect session", (it) => {
  it.effect("offers Lever as OAuth2 through the profile, never showing its setup", () =>
    Effect.gen(function*() {
      const { mint, profile } = yield* setup
      const session = yield* mint()
      const answer = yield* post("/connect_sessions/authenticate", { token: session.token })
      const lever = (answer.json as any).connectors.find((connector: any) => connector.key === "lever")
      expect(lever).toMatchObject({
        connector_profile_id: profile.id,
        authentication: [{ name: "oauth2", type: "oauth2", fields: [expect.objectContaining({ key: "performAs", required: false })] }]
      })
      expect(profile.setup_fields_set).toEqual(["clientId", "clientSecret"])
      expect(answer.text).not.toContain("clientSecret\":\"")
    }))

  it.effect("links an account: consent, code exchanged with PKCE, tokens stored sealed, unified calls answer", () =>
    Effect.gen(function*() {
      const { mint, project, sandbox, start } = yield* setup
      const session = yield* mint({ redirect_url: "https://app.example.com/linked" })
      const url = new URL(authorizationUrlOf(yield* start(session.token)))
      expect(`${url.origin}${url.pathname}`).toBe(`${sandbox.oauth.url}/authorize`)
      expect(url.searchParams.get("code_challenge_method")).toBe("S256")
      expect(url.searchParams.get("redirect_uri")).toMatch(/\/connect\/oauth2\/lever\/callback$/)
      expect(url.searchParams.get("audience")).toBe(`${sandbox.oauth.baseUrl}/`)
      const redirect = yield* consented(sandbox, url.toString())
      const page = yield* callback(redirect)
      expect(page.status).toBe(200)
      expect(page.headers["content-security-policy"]).toMatch(/frame-ancestors 'none'/)
      const result = resultOf(page)
      expect(result).toMatchObject({ status: "connected", connector_key: "lever" })
      const accountId = result.account_id as string
      expect(result.redirect_url).toBe(`https://app.example.com/linked?account_id=${accountId}&connector_key=lever`)
      // one code exchange, with the verifier; the page holds no token
      expect(sandbox.oauth.tokenRequests()).toEqual({ authorization_code: 1 })
      expect(page.text).not.toMatch(/accessToken|refresh_token|access_token/)
      const account = yield* project.client.accounts.get_account({ path: { id: accountId }, urlParams: {} })
      expect(account).toMatchObject({ connector_key: "lever", status: "active", linked_via: "connect_session", owner_id: "customer-7" })
      expect(JSON.stringify(account)).not.toMatch(/accessToken|refreshToken/)
      const candidates = yield* project.client.unified_ats.ats_list_candidates({
        headers: { "x-account-id": accountId },
        urlParams: { page_size: 3 }
      })
      expect(candidates.data).toHaveLength(3)
      const read = yield* project.client.connect_sessions.get_connect_session({ path: { id: session.id } })
      expect(read).toMatchObject({ status: "completed", account_id: accountId })
    }))

  it.effect("a replayed callback, a forged state and a denied consent link nothing and say why", () =>
    Effect.gen(function*() {
      const { mint, project, sandbox, start } = yield* setup
      const session = yield* mint()
      const url = authorizationUrlOf(yield* start(session.token))
      const denied = yield* callback(yield* consented(sandbox, url, "Deny"))
      expect(denied.status).toBe(400)
      expect(resultOf(denied)).toMatchObject({ status: "error", message: expect.stringMatching(/^Lever did not authorize the link/) })

      const second = authorizationUrlOf(yield* start(session.token))
      const redirect = yield* consented(sandbox, second)
      const forged = new URL(redirect)
      forged.searchParams.set("state", "forged-state")
      const forgedPage = yield* callback(forged)
      expect(resultOf(forgedPage)).toMatchObject({ status: "error", message: expect.stringMatching(/unknown or was already used/) })
      const wrongConnector = new URL(redirect)
      wrongConnector.pathname = wrongConnector.pathname.replace("/lever/", "/greenhouse/")
      const wrongPage = yield* callback(wrongConnector)
      expect(resultOf(wrongPage)).toMatchObject({ status: "error", message: expect.stringMatching(/state mismatch/) })
      // the state was spent by that attempt: the genuine redirect now finds nothing either
      const replay = yield* callback(redirect)
      expect(resultOf(replay)).toMatchObject({ status: "error", message: expect.stringMatching(/already used/) })
      expect(yield* countAccounts(project.projectId)).toBe(0)
      const read = yield* project.client.connect_sessions.get_connect_session({ path: { id: session.id } })
      expect(read).toMatchObject({ status: "pending", failure_reason: expect.stringMatching(/^Lever: /) })
    }))

  it.effect("a PKCE verifier that does not match: the provider refuses the code, the page says so, nothing is stored", () =>
    Effect.gen(function*() {
      const { mint, project, sandbox, start } = yield* setup
      const session = yield* mint()
      const url = authorizationUrlOf(yield* start(session.token))
      // the verifier kept for it is replaced by another authorization's: the one sent does not match
      const other = new URL(authorizationUrlOf(yield* start(session.token)))
      const sql = yield* SqlClient.SqlClient
      yield* sql`
        UPDATE oauth_authorizations AS a SET sealed_ciphertext = b.sealed_ciphertext, sealed_key_id = b.sealed_key_id
        FROM oauth_authorizations AS b
        WHERE a.session_id = ${session.id} AND b.session_id = ${session.id} AND a.state_hash <> b.state_hash
          AND a.created_at <= b.created_at AND b.state_hash = ${secretDigest(other.searchParams.get("state")!)}`
      const redirect = yield* consented(sandbox, url)
      const page = yield* callback(redirect)
      expect(page.status).toBe(400)
      expect(resultOf(page)).toMatchObject({
        status: "error",
        message: expect.stringMatching(/^Lever did not authorize the link: .*code_verifier/)
      })
      expect(page.text).not.toContain(redirect.searchParams.get("code")!)
      expect(yield* countAccounts(project.projectId)).toBe(0)
    }))

  it.effect("an error answer of the token endpoint is a clear page and stores nothing", () =>
    Effect.gen(function*() {
      const { page, project } = yield* callbackWithTokenEndpoint(400, 1)
      expect(page.status).toBe(400)
      expect(resultOf(page)).toMatchObject({ status: "error", message: expect.stringMatching(/^Lever did not authorize the link: /) })
      expect(yield* countAccounts(project.projectId)).toBe(0)
    }))

  it.effect("a token endpoint that cannot be reached is a sentence the end user understands, and no refusal", () =>
    Effect.gen(function*() {
      // server errors on every retry: no usable answer
      const { page, project, session } = yield* callbackWithTokenEndpoint(503, 50)
      expect(resultOf(page)).toMatchObject({ status: "error", message: "Lever could not be reached; try again or contact Test project" })
      expect(page.text).not.toMatch(/token endpoint|503|unavailable/)
      expect(yield* countAccounts(project.projectId)).toBe(0)
      const read = yield* project.client.connect_sessions.get_connect_session({ path: { id: session.id } })
      expect(read).toMatchObject({ status: "pending", failure_reason: null })
    }))

  it.effect("start refuses what cannot work, naming it", () =>
    Effect.gen(function*() {
      const { mint, project } = yield* setup
      const session = yield* mint()
      expectError(
        yield* post("/connect_sessions/oauth2/authorize", { token: session.token, connector_key: "greenhouse" }),
        400,
        "connector_key greenhouse is not a connector this session may link"
      )
      expectError(yield* post("/connect_sessions/oauth2/authorize", { token: "nope", connector_key: "lever" }), 401, /Unknown/)
      // without a profile there is no OAuth app: Lever is not offered at all
      const other = yield* freshProject
      const bare = yield* other.client.connect_sessions.create_connect_session({ payload: owner })
      const offered = yield* post("/connect_sessions/authenticate", { token: bare.token })
      expect((offered.json as any).connectors.map((connector: any) => connector.key)).not.toContain("lever")
      expect(yield* countAccounts(project.projectId)).toBe(0)
    }))

  it.effect("the authorization's state is stored only as a digest, its verifier sealed", () =>
    Effect.gen(function*() {
      const { mint, start } = yield* setup
      const session = yield* mint()
      const url = new URL(authorizationUrlOf(yield* start(session.token)))
      const state = url.searchParams.get("state")!
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<Record<string, unknown>>`SELECT * FROM oauth_authorizations WHERE session_id = ${session.id}`
      expect(rows).toHaveLength(1)
      expect(JSON.stringify(rows)).not.toContain(state)
    }))
})
