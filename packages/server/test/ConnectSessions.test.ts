import { HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Crypto from "node:crypto"
import { accountBody, clientFor, freshProject, keyFor, otherProject, recordingClientFor } from "./support/Fixtures.js"
import { TestServer } from "./support/TestServer.js"
import { expectErrorBody, json, send, withKey } from "./support/Wire.js"

const PUBLIC_URL = "https://connect.example.com"

const owner = { origin_owner_id: "customer-1", origin_owner_name: "Acme Inc" }

/** How many sessions a project has in storage (to prove a refused request wrote nothing). */
const countSessions = (projectId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM connect_sessions WHERE project_id = ${projectId}`
    return Number(row!.n)
  }).pipe(Effect.orDie)

/** Moves a session's expiry into the past, as if its time had run out. */
const expireSession = (id: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`UPDATE connect_sessions SET expires_at = now() - interval '1 second' WHERE id = ${id}`
  }).pipe(Effect.orDie)

const authenticate = (token: string) => send(HttpClientRequest.post("/connect_sessions/authenticate").pipe(json({ token })))

layer(TestServer({ SWITCHYARD_PUBLIC_URL: `${PUBLIC_URL}/` }), { excludeTestServices: true })("connect sessions", (it) => {
  it.effect("creates a session with defaults: a token shown once, its link, 30 minutes to live", () =>
    Effect.gen(function*() {
      const { client, projectId } = yield* freshProject
      const before = Date.now()
      const session = yield* client.connect_sessions.create_connect_session({ payload: owner })
      expect(session).toMatchObject({
        project_id: projectId,
        origin_owner_id: "customer-1",
        origin_owner_name: "Acme Inc",
        origin_username: null,
        provider: null,
        categories: [],
        connector_profile_id: null,
        account_id: null,
        multiple: false,
        label: null,
        metadata: null,
        redirect_url: null
      })
      expect(session.organization_id).toMatch(/^[0-9a-f-]{36}$/)
      expect(Buffer.from(session.token, "base64url")).toHaveLength(32)
      expect(session.auth_link_url).toBe(`${PUBLIC_URL}/connect?token=${session.token}`)
      const ttl = Date.parse(session.expires_at) - Date.parse(session.created_at)
      expect(ttl).toBe(1800 * 1000)
      expect(Date.parse(session.created_at)).toBeGreaterThanOrEqual(before - 1000)

      const read = yield* client.connect_sessions.get_connect_session({ path: { id: session.id } })
      expect(read).toMatchObject({ id: session.id, status: "pending", failure_reason: null, expires_at: session.expires_at })
      expect(read).not.toHaveProperty("token")
    }))

  it.effect("creates a session with every field and echoes them", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const profile = yield* client.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: { connector_key: "greenhouse", label: "Recruiting" }
      })
      const account = yield* client.accounts.create_account({
        payload: accountBody({ connector_profile_id: profile.id })
      })
      const session = yield* client.connect_sessions.create_connect_session({
        payload: {
          ...owner,
          origin_username: "ada@acme.test",
          provider: "greenhouse",
          categories: ["ats"],
          connector_profile_id: profile.id,
          account_id: account.id,
          multiple: true,
          label: "Acme recruiting",
          metadata: { plan: "pro", seats: 3 },
          expires_in: 3600,
          redirect_url: "https://app.acme.test/done?x=1"
        }
      })
      expect(session).toMatchObject({
        origin_username: "ada@acme.test",
        provider: "greenhouse",
        categories: ["ats"],
        connector_profile_id: profile.id,
        account_id: account.id,
        multiple: true,
        label: "Acme recruiting",
        metadata: { plan: "pro", seats: 3 },
        redirect_url: "https://app.acme.test/done?x=1"
      })
      expect(Date.parse(session.expires_at) - Date.parse(session.created_at)).toBe(3600 * 1000)
    }))

  it.effect("refuses invalid bodies with the documented error body and stores nothing", () =>
    Effect.gen(function*() {
      const { key, projectId } = yield* freshProject
      const post = (body: unknown) => send(HttpClientRequest.post("/connect_sessions").pipe(withKey(key), json(body)))
      const decodeFailures: ReadonlyArray<unknown> = [
        {},
        { origin_owner_id: "x" },
        { ...owner, origin_owner_name: "" },
        { ...owner, categories: ["crm"] },
        { ...owner, expires_in: 59 },
        { ...owner, expires_in: 7 * 24 * 3600 + 1 },
        { ...owner, expires_in: 90.5 },
        { ...owner, redirect_url: "ftp://acme.test" },
        { ...owner, redirect_url: "/relative" },
        { ...owner, connector_profile_id: "not-a-uuid" },
        { ...owner, multiple: "yes" },
        { ...owner, metadata: [1] },
        { ...owner, provider: "Not A Key" },
        { ...owner, unknown_field: 1 }
      ]
      for (const body of decodeFailures) {
        const response = yield* post(body)
        expect({ body, status: response.status }).toEqual({ body, status: 400 })
        expectErrorBody(response, 400)
      }
      const ruleFailures: ReadonlyArray<readonly [unknown, RegExp]> = [
        [{ ...owner, provider: "nonexistent" }, /provider nonexistent/],
        [{ ...owner, connector_profile_id: Crypto.randomUUID() }, /connector_profile_id .* not a connector profile of this project/],
        [{ ...owner, account_id: "acc-missing" }, /account_id acc-missing is not an account of this project/],
        [{ ...owner, metadata: { big: "x".repeat(20_000) } }, /metadata/]
      ]
      for (const [body, message] of ruleFailures) {
        const response = yield* post(body)
        expect(expectErrorBody(response, 422).message).toMatch(message)
      }
      expect(yield* countSessions(projectId)).toBe(0)
    }))

  it.effect("another project's profile or account is not linkable (422), and its session is not found (404)", () =>
    Effect.gen(function*() {
      const { client, projectId } = yield* freshProject
      const other = yield* otherProject
      const otherClient = yield* clientFor(other.key)
      const profile = yield* otherClient.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: { connector_key: "greenhouse", label: "Theirs" }
      })
      const account = yield* otherClient.accounts.create_account({ payload: accountBody() })
      const withProfile = yield* client.connect_sessions.create_connect_session({
        payload: { ...owner, connector_profile_id: profile.id }
      }).pipe(Effect.flip)
      expect(withProfile).toMatchObject({ _tag: "UnprocessableEntity" })
      const withAccount = yield* client.connect_sessions.create_connect_session({
        payload: { ...owner, account_id: account.id }
      }).pipe(Effect.flip)
      expect(withAccount).toMatchObject({ _tag: "UnprocessableEntity" })
      expect(yield* countSessions(projectId)).toBe(0)

      const theirs = yield* otherClient.connect_sessions.create_connect_session({ payload: owner })
      const { client: recording, takeResponse } = yield* recordingClientFor((yield* freshProject).key)
      const missing = yield* recording.connect_sessions.get_connect_session({ path: { id: theirs.id } }).pipe(Effect.flip)
      expect(missing).toMatchObject({ _tag: "NotFound" })
      expect(expectErrorBody(takeResponse(), 404).message).toBe(`Connect session ${theirs.id} not found`)
      const garbled = yield* client.connect_sessions.get_connect_session({ path: { id: "nope" } }).pipe(Effect.flip)
      expect(garbled).toMatchObject({ _tag: "NotFound" })
    }))

  it.effect("scopes: Accounts may create and read, Read Only may read but not create (403), Actions neither", () =>
    Effect.gen(function*() {
      const { projectId } = yield* freshProject
      const accountsKey = (yield* keyFor(projectId, "accounts")).key
      const readOnlyKey = (yield* keyFor(projectId, "read_only")).key
      const actionsKey = (yield* keyFor(projectId, "actions")).key
      const created = yield* (yield* clientFor(accountsKey)).connect_sessions.create_connect_session({ payload: owner })

      const readOnly = yield* recordingClientFor(readOnlyKey)
      const refused = yield* readOnly.client.connect_sessions.create_connect_session({ payload: owner }).pipe(Effect.flip)
      expect(refused).toMatchObject({ _tag: "Forbidden" })
      expectErrorBody(readOnly.takeResponse(), 403)
      const read = yield* readOnly.client.connect_sessions.get_connect_session({ path: { id: created.id } })
      expect(read.status).toBe("pending")

      const actions = yield* clientFor(actionsKey)
      const denied = yield* actions.connect_sessions.create_connect_session({ payload: owner }).pipe(Effect.flip)
      expect(denied).toMatchObject({ _tag: "Forbidden" })
      expect(yield* countSessions(projectId)).toBe(1)

      const anonymous = yield* send(HttpClientRequest.post("/connect_sessions").pipe(json(owner)))
      expectErrorBody(anonymous, 401)
    }))

  it.effect("authenticate answers the session and the built-in connectors, narrowed by provider and categories", () =>
    Effect.gen(function*() {
      const { client, projectId } = yield* freshProject
      const all = yield* client.connect_sessions.create_connect_session({ payload: owner })
      const session = yield* authenticate(all.token)
      expect(session.status).toBe(200)
      const body = session.json as {
        id: string
        project_id: string
        status: string
        connectors: Array<{ key: string; name: string; categories: Array<string>; connector_profile_id: string | null }>
      }
      expect(body).toMatchObject({ id: all.id, project_id: projectId, status: "pending" })
      expect(body).not.toHaveProperty("token")
      const keys = body.connectors.map((connector) => connector.key)
      expect(keys).toEqual(expect.arrayContaining(["greenhouse", "bamboohr", "talentlms"]))
      expect(body.connectors.find((connector) => connector.key === "greenhouse")).toEqual({
        key: "greenhouse",
        name: "Greenhouse",
        profile_label: null,
        categories: ["ats"],
        connector_profile_id: null,
        icon_url: `${PUBLIC_URL}/connect/icons/greenhouse.svg`,
        authentication: [expect.objectContaining({ name: "apiKey", type: "custom", label: "Harvest API key" })]
      })

      const hris = yield* client.connect_sessions.create_connect_session({ payload: { ...owner, categories: ["hris"] } })
      const hrisBody = (yield* authenticate(hris.token)).json as typeof body
      expect(hrisBody.connectors.length).toBeGreaterThan(0)
      expect(hrisBody.connectors.every((connector) => connector.categories.includes("hris"))).toBe(true)
      expect(hrisBody.connectors.map((connector) => connector.key)).toContain("bamboohr")

      const one = yield* client.connect_sessions.create_connect_session({ payload: { ...owner, provider: "greenhouse" } })
      const oneBody = (yield* authenticate(one.token)).json as typeof body
      expect(oneBody.connectors.map((connector) => connector.key)).toEqual(["greenhouse"])

      // through the derived client, without an API key
      const typed = yield* client.connect_sessions.authenticate_connect_session({ payload: { token: one.token } })
      expect(typed.connectors.map((connector) => connector.key)).toEqual(["greenhouse"])
    }))

  it.effect("with active connector profiles, authenticate offers those profiles only", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const recruiting = yield* client.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: { connector_key: "greenhouse", label: "Recruiting" }
      })
      const people = yield* client.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: { connector_key: "bamboohr", label: "People" }
      })
      yield* client.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: { connector_key: "talentlms", label: "Off", active: false }
      })
      const all = yield* client.connect_sessions.create_connect_session({ payload: owner })
      const connectors = (yield* client.connect_sessions.authenticate_connect_session({ payload: { token: all.token } }))
        .connectors
      // the provider's name stays the name; the profile's label comes beside it
      expect(
        connectors.map(({ connector_profile_id, key, name, profile_label }) => ({ key, name, profile_label, connector_profile_id }))
          .sort((a, b) => a.key.localeCompare(b.key))
      ).toEqual([
        { key: "bamboohr", name: "BambooHR", profile_label: "People", connector_profile_id: people.id },
        { key: "greenhouse", name: "Greenhouse", profile_label: "Recruiting", connector_profile_id: recruiting.id }
      ])

      const byProfile = yield* client.connect_sessions.create_connect_session({
        payload: { ...owner, connector_profile_id: people.id }
      })
      const narrowed = yield* client.connect_sessions.authenticate_connect_session({ payload: { token: byProfile.token } })
      expect(narrowed.connectors.map((connector) => connector.connector_profile_id)).toEqual([people.id])

      // a re-link offers only the account's own connector, even without `provider`
      const account = yield* client.accounts.create_account({ payload: accountBody({ connector_profile_id: recruiting.id }) })
      const relink = yield* client.connect_sessions.create_connect_session({ payload: { ...owner, account_id: account.id } })
      const relinked = yield* client.connect_sessions.authenticate_connect_session({ payload: { token: relink.token } })
      expect(relinked.connectors.map((connector) => connector.key)).toEqual([account.connector_key])

      const notOffered = yield* client.connect_sessions.create_connect_session({
        payload: { ...owner, provider: "talentlms" }
      }).pipe(Effect.flip)
      expect(notOffered).toMatchObject({ _tag: "UnprocessableEntity", message: "provider talentlms is not a connector this project may link" })
    }))

  it.effect("an unknown token answers 401, an expired one 410", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const unknown = yield* authenticate(Crypto.randomBytes(32).toString("base64url"))
      expect(expectErrorBody(unknown, 401).message).toBe("Unknown connect session token")

      const session = yield* client.connect_sessions.create_connect_session({ payload: { ...owner, expires_in: 60 } })
      expect((yield* authenticate(session.token)).status).toBe(200)
      yield* expireSession(session.id)
      const expired = yield* authenticate(session.token)
      expect(expectErrorBody(expired, 410).message).toBe(`Connect session ${session.id} has expired: create a new session`)
      const typed = yield* client.connect_sessions.authenticate_connect_session({ payload: { token: session.token } }).pipe(
        Effect.flip
      )
      expect(typed).toMatchObject({ _tag: "Gone", statusCode: 410 })
      const read = yield* client.connect_sessions.get_connect_session({ path: { id: session.id } })
      expect(read.status).toBe("expired")

      expectErrorBody(yield* send(HttpClientRequest.post("/connect_sessions/authenticate").pipe(json({}))), 400)
    }))

  it.effect("stores only the token's SHA-256", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const session = yield* client.connect_sessions.create_connect_session({ payload: owner })
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<Record<string, unknown>>`SELECT * FROM connect_sessions WHERE id = ${session.id}`
      expect(rows).toHaveLength(1)
      const stored = JSON.stringify(rows[0])
      expect(stored).not.toContain(session.token)
      expect(rows[0]!.token_hash).toBe(Crypto.createHash("sha256").update(session.token, "utf8").digest("hex"))
    }))
})
