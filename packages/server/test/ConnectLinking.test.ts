import { HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { RequestLog } from "../src/features/requestLogs/RequestLog.js"
import { projectContact } from "../src/features/projects/projectContact.js"
import { countAccounts, freshProject } from "./support/Fixtures.js"
import { SandboxLive, SandboxProviders, sandboxGreenhouseAccount } from "./support/SandboxLayer.js"
import { freePort } from "./support/ServerProcess.js"
import { TestServer } from "./support/TestServer.js"
import { expectErrorBody, json, send, type WireResponse } from "./support/Wire.js"

/*
 * Linking through a connect session with credentials an end user entered (the page's call):
 * the credentials are checked with the connector's test actions first, then the session
 * completes into its account in one transaction.
 */

const server = Layer.merge(
  TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1", SWITCHYARD_PUBLIC_URL: "https://connect.example.com" }),
  SandboxLive()
)

const owner = { origin_owner_id: "customer-1", origin_owner_name: "Acme Inc", origin_username: "ada@acme.test" }

/** The documented error body, with a message that says what was wrong. */
const expectError = (response: WireResponse, status: number, message: string | RegExp) => {
  const body = expectErrorBody(response, status, { providerDetails: true })
  if (typeof message === "string") expect(body.message).toBe(message)
  else expect(body.message).toMatch(message)
}

const post = (path: string, body: unknown) => send(HttpClientRequest.post(path).pipe(json(body)))

/** A project whose Greenhouse profile sends its accounts to the sandbox. */
const setup = Effect.gen(function*() {
  const sandbox = yield* SandboxProviders
  const project = yield* freshProject
  const profile = yield* project.client.connector_profiles.create_connector_profile({
    urlParams: {},
    payload: {
      connector_key: "greenhouse",
      label: "Recruiting",
      account_settings: { base_url: sandbox.ats.baseUrl, onBehalfOf: String(sandbox.ats.onBehalfOf) }
    }
  })
  const mint = (extra: Record<string, unknown> = {}) =>
    project.client.connect_sessions.create_connect_session({ payload: { ...owner, ...extra } })
  sandbox.clearRequests()
  return { sandbox, project, profile, mint }
})

const sessionState = (id: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ status: string; failed_attempts: number; failure_reason: string | null; account_id: string | null }>`
      SELECT status, failed_attempts, failure_reason, account_id FROM connect_sessions WHERE id = ${id}`
    return row!
  }).pipe(Effect.orDie)

layer(server, { excludeTestServices: true })("linking through a connect session", (it) => {
  it.effect("offers the profile's connector under the provider's name, its label beside, with its fields and a local icon", () =>
    Effect.gen(function*() {
      const { mint, profile } = yield* setup
      const session = yield* mint()
      const answer = yield* post("/connect_sessions/authenticate", { token: session.token })
      expect(answer.status).toBe(200)
      const body = answer.json as any
      expect(body.connectors).toHaveLength(1)
      expect(body.connectors[0]).toMatchObject({
        key: "greenhouse",
        name: "Greenhouse",
        profile_label: "Recruiting",
        connector_profile_id: profile.id,
        icon_url: "https://connect.example.com/connect/icons/greenhouse.svg"
      })
      const [method] = body.connectors[0].authentication
      expect(method).toMatchObject({ name: "apiKey", type: "custom", label: "Harvest API key" })
      expect(method.fields[0]).toMatchObject({ key: "apiKey", type: "password", required: true, secret: true })
      expect(method.fields[1]).toMatchObject({ key: "onBehalfOf", type: "text", required: false, placeholder: "4001" })
    }))

  it.effect("links an account: checked with the provider, then created with the session's owner, label and metadata", () =>
    Effect.gen(function*() {
      const { mint, profile, project, sandbox } = yield* setup
      const session = yield* mint({ label: "Acme Greenhouse", metadata: { plan: "gold" }, redirect_url: "https://app.example.com/done?x=1" })
      const linked = yield* post("/connect_sessions/link", {
        token: session.token,
        connector_key: "greenhouse",
        credentials: { apiKey: sandbox.ats.apiKey }
      })
      expect(linked.status).toBe(200)
      const { account_id } = linked.json as any
      expect(linked.json).toEqual({
        account_id,
        connector_key: "greenhouse",
        redirect_url: `https://app.example.com/done?x=1&account_id=${account_id}&connector_key=greenhouse`
      })
      // the test action reached the provider with the entered key before anything was stored
      expect(sandbox.requests().some((request) => request.provider === "ats")).toBe(true)
      const account = yield* project.client.accounts.get_account({ path: { id: account_id }, urlParams: {} })
      expect(account).toMatchObject({
        name: "Acme Greenhouse",
        owner_id: "customer-1",
        owner_name: "Acme Inc",
        owner_username: "ada@acme.test",
        connector_key: "greenhouse",
        connector_profile_id: profile.id,
        status: "active",
        label: "Acme Greenhouse",
        metadata: { plan: "gold" },
        linked_via: "connect_session",
        connect_session_id: session.id,
        settings: { base_url: sandbox.ats.baseUrl }
      })
      expect(yield* sessionState(session.id)).toMatchObject({ status: "completed", account_id })
      const read = yield* project.client.connect_sessions.get_connect_session({ path: { id: session.id } })
      expect(read).toMatchObject({ status: "completed", account_id })
      // the account answers unified calls
      const applications = yield* project.client.unified_ats.ats_list_applications({
        headers: { "x-account-id": account_id },
        urlParams: { page_size: 2 }
      })
      expect(applications.data).toHaveLength(2)
      // the token is spent
      const again = yield* post("/connect_sessions/link", {
        token: session.token,
        connector_key: "greenhouse",
        credentials: { apiKey: sandbox.ats.apiKey }
      })
      expectError(again, 410, /completed/)
    }))

  it.effect("refuses a wrong key with the provider's reason and stores nothing", () =>
    Effect.gen(function*() {
      const { mint, project } = yield* setup
      const session = yield* mint()
      const refused = yield* post("/connect_sessions/link", {
        token: session.token,
        connector_key: "greenhouse",
        credentials: { apiKey: "not-the-key" }
      })
      // the provider's name, not the profile's label: the end user knows Greenhouse
      expectError(refused, 400, /^Greenhouse refused the credentials: .+ \(HTTP 401\)$/)
      expect((refused.json as any).data.statusCode).toBe(401)
      // the provider's own words, not our request's URL
      expect((refused.json as any).message).not.toMatch(/http:\/\//)
      expect(refused.text).not.toContain("not-the-key")
      expect(yield* countAccounts(project.projectId)).toBe(0)
      expect(yield* sessionState(session.id)).toMatchObject({ status: "pending", failed_attempts: 1 })
      const read = yield* project.client.connect_sessions.get_connect_session({ path: { id: session.id } })
      expect(read.failure_reason).toMatch(/refused the credentials/)
    }))

  it.effect("names a missing required field, an unknown field, and a connector the session does not offer", () =>
    Effect.gen(function*() {
      const { mint, project } = yield* setup
      const session = yield* mint()
      const missing = yield* post("/connect_sessions/link", { token: session.token, connector_key: "greenhouse", credentials: {} })
      expectError(
        missing,
        400,
        `credentials lack apiKey (authentication "apiKey" of Greenhouse expects: apiKey (required), onBehalfOf)`
      )
      const unknown = yield* post("/connect_sessions/link", {
        token: session.token,
        connector_key: "greenhouse",
        credentials: { password: "p", username: "u" }
      })
      // the rule and wording of POST /v2/accounts, every problem at once, under the provider's name (not the profile's label)
      expectError(
        unknown,
        400,
        `credentials lack apiKey; have unknown password, username (authentication "apiKey" of Greenhouse expects: apiKey (required), onBehalfOf)`
      )
      const other = yield* post("/connect_sessions/link", { token: session.token, connector_key: "bamboohr", credentials: {} })
      expectError(other, 400, "connector_key bamboohr is not a connector this session may link")
      const badToken = yield* post("/connect_sessions/link", { token: "nope", connector_key: "greenhouse", credentials: {} })
      expectError(badToken, 401, "Unknown connect session token")
      expect(yield* countAccounts(project.projectId)).toBe(0)
      // input errors are not refused credentials: they do not count against the session
      expect(yield* sessionState(session.id)).toMatchObject({ status: "pending", failed_attempts: 0 })
    }))

  it.effect("updates the owner's account on that connector, unless the session says multiple", () =>
    Effect.gen(function*() {
      const { mint, project, sandbox } = yield* setup
      const link = (extra: Record<string, unknown>) =>
        Effect.flatMap(mint(extra), (session) =>
          post("/connect_sessions/link", { token: session.token, connector_key: "greenhouse", credentials: { apiKey: sandbox.ats.apiKey } }))
      const first = (yield* link({})).json as any
      const second = (yield* link({ label: "renamed" })).json as any
      expect(second.account_id).toBe(first.account_id)
      const third = (yield* link({ multiple: true })).json as any
      expect(third.account_id).not.toBe(first.account_id)
      expect(yield* countAccounts(project.projectId)).toBe(2)
      const updated = yield* project.client.accounts.get_account({ path: { id: first.account_id }, urlParams: {} })
      expect(updated.label).toBe("renamed")
    }))

  it.effect("re-links an expired account in place: same id, active again, new credentials", () =>
    Effect.gen(function*() {
      const { mint, profile, project, sandbox } = yield* setup
      const account = yield* project.client.accounts.create_account({
        payload: sandboxGreenhouseAccount(sandbox, { connector_profile_id: profile.id, credentials: { apiKey: "revoked" } })
      })
      yield* project.client.accounts.patch_account({
        path: { id: account.id },
        urlParams: {},
        payload: { status: "expired", status_reasons: [{ code: "revoked", description: "key revoked" }] }
      })
      const session = yield* mint({ account_id: account.id })
      const linked = yield* post("/connect_sessions/link", {
        token: session.token,
        connector_key: "greenhouse",
        credentials: { apiKey: sandbox.ats.apiKey }
      })
      expect((linked.json as any).account_id).toBe(account.id)
      const revived = yield* project.client.accounts.get_account({ path: { id: account.id }, urlParams: {} })
      expect(revived).toMatchObject({ status: "active", status_reasons: [], linked_via: "connect_session" })
      const applications = yield* project.client.unified_ats.ats_list_applications({
        headers: { "x-account-id": account.id },
        urlParams: { page_size: 1 }
      })
      expect(applications.data).toHaveLength(1)
    }))

  it.effect("fails the session for good after five refused attempts", () =>
    Effect.gen(function*() {
      const { mint } = yield* setup
      const session = yield* mint()
      for (let attempt = 1; attempt <= 5; attempt++) {
        const refused = yield* post("/connect_sessions/link", {
          token: session.token,
          connector_key: "greenhouse",
          credentials: { apiKey: `wrong-${attempt}` }
        })
        expect(refused.status).toBe(400)
      }
      expect(yield* sessionState(session.id)).toMatchObject({ status: "failed", failed_attempts: 5 })
      const after = yield* post("/connect_sessions/authenticate", { token: session.token })
      expectError(after, 410, /failed/)
    }))

  it.effect("a provider that cannot be reached: the end user reads whom to ask, the request log keeps why", () =>
    Effect.gen(function*() {
      const project = yield* freshProject
      const closed = yield* Effect.promise(freePort)
      const cases = [
        // nothing listens there (the allowlist lets the server try)
        { baseUrl: `http://127.0.0.1:${closed}/v1`, detail: "connection failed (ECONNREFUSED)" },
        // a name that never resolves (.invalid is reserved for that), without any network
        { baseUrl: "https://harvest.greenhouse.invalid/v1", detail: "cannot resolve harvest.greenhouse.invalid" },
        // an address the outbound guard refuses: the operator's fix is in the log, not on the page
        { baseUrl: "http://127.0.0.2:9/v1", detail: "set SWITCHYARD_OUTBOUND_ALLOWLIST=127.0.0.2 on the server" }
      ]
      for (const { baseUrl, detail } of cases) {
        const profile = yield* project.client.connector_profiles.create_connector_profile({
          urlParams: {},
          payload: { connector_key: "greenhouse", label: "Recruiting", account_settings: { base_url: baseUrl } }
        })
        const session = yield* project.client.connect_sessions.create_connect_session({
          payload: { ...owner, connector_profile_id: profile.id }
        })
        const answer = yield* post("/connect_sessions/link", {
          token: session.token,
          connector_key: "greenhouse",
          credentials: { apiKey: "gh-key" }
        })
        expectError(answer, 502, "Greenhouse could not be reached; try again or contact Test project")
        for (const technical of [baseUrl, new URL(baseUrl).hostname, "ENOTFOUND", "ECONNREFUSED", "provider URL", "SWITCHYARD_"]) {
          expect(answer.text).not.toContain(technical)
        }
        // not the end user's doing: the session keeps its attempts and nothing is stored
        expect(yield* sessionState(session.id)).toMatchObject({ status: "pending", failed_attempts: 0 })
        expect(yield* countAccounts(project.projectId)).toBe(0)

        yield* (yield* RequestLog).flush
        const logged = yield* project.client.request_logs.list_request_logs({
          urlParams: { source_types: ["connect"], account_ids: [`connect-session:${session.id}`] }
        })
        expect(logged.data).toHaveLength(1)
        const [entry] = logged.data
        expect(entry).toMatchObject({
          provider: "greenhouse",
          source_type: "connect",
          status: 502,
          success: false,
          http_method: "POST",
          path: "/connect_sessions/link"
        })
        expect(entry!.error_message).toContain(detail)
        expect(entry!.error_message).not.toContain("gh-key")
      }
    }))

  it.effect("a checked link is in the request log as a connect entry", () =>
    Effect.gen(function*() {
      const { mint, project, sandbox } = yield* setup
      const session = yield* mint()
      const linked = yield* post("/connect_sessions/link", {
        token: session.token,
        connector_key: "greenhouse",
        credentials: { apiKey: sandbox.ats.apiKey }
      })
      expect(linked.status).toBe(200)
      yield* (yield* RequestLog).flush
      const logged = yield* project.client.request_logs.list_request_logs({ urlParams: { source_types: ["connect"] } })
      expect(logged.data).toHaveLength(1)
      const { data: entry } = yield* project.client.request_logs.get_request_log({ path: { id: logged.data[0]!.request_id } })
      expect(entry).toMatchObject({ account_id: `connect-session:${session.id}`, status: 200, error_message: null })
      expect(entry.step_requests.length).toBeGreaterThan(0)
      expect(entry.step_requests[0]!.url).toContain(sandbox.ats.baseUrl)
      expect(JSON.stringify(entry)).not.toContain(sandbox.ats.apiKey)
    }))

  it("whom an end user may contact: the project by name, else the application that sent them", () => {
    expect(projectContact("Acme HR")).toBe("Acme HR")
    expect(projectContact("  ")).toBe("the application that sent you here")
    expect(projectContact("Default project")).toBe("the application that sent you here")
    expect(projectContact(undefined)).toBe("the application that sent you here")
  })

  it.effect("two links racing on one token make one account", () =>
    Effect.gen(function*() {
      const { mint, project, sandbox } = yield* setup
      const session = yield* mint({ multiple: true })
      const body = { token: session.token, connector_key: "greenhouse", credentials: { apiKey: sandbox.ats.apiKey } }
      const answers = yield* Effect.all([post("/connect_sessions/link", body), post("/connect_sessions/link", body)], {
        concurrency: 2
      })
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 410])
      expect(yield* countAccounts(project.projectId)).toBe(1)
    }))
})
