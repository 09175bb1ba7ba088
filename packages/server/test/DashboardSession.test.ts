import { HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { hashApiKey } from "../src/features/auth/ApiKeys.js"
import { DashboardSessionsRepo } from "../src/features/auth/DashboardSessionsRepo.js"
import { accountBody, clientFor, countAccounts, freshProject, keyFor, otherProject } from "./support/Fixtures.js"
import { TestServer } from "./support/TestServer.js"
import { expectErrorBody, json, jsonText, send, serverPort, type WireResponse, withKey } from "./support/Wire.js"

/*
 * The web dashboard's sign-in over a real socket: an API key pasted once buys an HttpOnly,
 * SameSite=Strict session cookie (its token stored as a hash), which then authenticates the
 * API as that key, with its scope and project; state-changing requests it authenticates must
 * come from this server's origin; revoking the key, signing out or the session's expiry end it.
 */

const SESSION_PATH = "/dashboard/session"
const COOKIE = "switchyard_session"

/** This server's origin, as a browser on one of its pages sends it. */
const ownOrigin = Effect.map(serverPort, (port) => `http://127.0.0.1:${port}`)

const withCookie = (token: string) => HttpClientRequest.setHeader("cookie", `${COOKIE}=${token}`)
const withOrigin = (origin: string) => HttpClientRequest.setHeader("origin", origin)

/** The session token a sign-in answer sets. */
const tokenOf = (response: WireResponse) => {
  const found = new RegExp(`^${COOKIE}=([^;]*)`).exec(response.headers["set-cookie"] ?? "")
  if (found === null) throw new Error(`no ${COOKIE} cookie in ${response.headers["set-cookie"]}`)
  return found[1]!
}

const signInRequest = (body: unknown, origin: string) =>
  send(HttpClientRequest.post(SESSION_PATH).pipe(withOrigin(origin), json(body)))

/** Signs in with `key` from this server's origin: the answer and the session token. */
const signIn = (key: string) =>
  Effect.gen(function*() {
    const response = yield* signInRequest({ api_key: key }, yield* ownOrigin)
    expect({ status: response.status, body: response.text }).toMatchObject({ status: 200 })
    return { response, token: tokenOf(response) }
  })

const sessionRows = (projectId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ n: number }>`SELECT count(*)::int AS n FROM dashboard_sessions WHERE project_id = ${projectId}`).pipe(
    Effect.map((rows) => rows[0]!.n),
    Effect.orDie
  )

const getWithCookie = (token: string, path: string) => send(HttpClientRequest.get(path).pipe(withCookie(token)))

layer(TestServer(), { excludeTestServices: true })("dashboard sessions", (it) => {
  it.effect("sign-in answers the session and sets an HttpOnly, SameSite=Strict cookie; only the token's hash is stored", () =>
    Effect.gen(function*() {
      const { key, projectId } = yield* freshProject
      const { id: keyId, key: readOnlyKey } = yield* keyFor(projectId, "read_only")
      const before = Date.now()
      const { response, token } = yield* signIn(readOnlyKey)
      expect(response.headers["content-type"]).toMatch(/^application\/json\b/)
      expect(response.headers["cache-control"]).toBe("no-store")
      const body = response.json as Record<string, string>
      expect(Object.keys(body).sort()).toEqual(["api_key_id", "expires_at", "project_id", "scope"])
      expect(body).toMatchObject({ project_id: projectId, api_key_id: keyId, scope: "read_only" })
      // eight hours by default (the database's clock: a generous margin, no timing assumption)
      const lifetime = Date.parse(body.expires_at!) - before
      expect(Math.abs(lifetime - 8 * 3_600_000)).toBeLessThan(10 * 60_000)

      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      const attributes = response.headers["set-cookie"]!.split(";").map((part) => part.trim())
      expect(attributes).toEqual(expect.arrayContaining(["HttpOnly", "SameSite=Strict", "Path=/", "Max-Age=28800"]))
      expect(attributes).not.toContain("Secure")
      expect(response.text).not.toContain(token)

      // stored as its hash only: no column holds the token or the key
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<Record<string, unknown>>`SELECT * FROM dashboard_sessions WHERE api_key_id = ${keyId}`
      expect(rows).toHaveLength(1)
      expect(rows[0]!["token_hash"]).toBe(hashApiKey(token))
      expect(rows[0]!["ended_at"]).toBeNull()
      expect(JSON.stringify(rows)).not.toContain(token)
      expect(JSON.stringify(rows)).not.toContain(readOnlyKey)

      // behind a TLS proxy the cookie is Secure (the proxy's scheme must then match the Origin's)
      const port = yield* serverPort
      const secure = yield* send(
        HttpClientRequest.post(SESSION_PATH).pipe(
          withOrigin(`https://127.0.0.1:${port}`),
          HttpClientRequest.setHeader("x-forwarded-proto", "https"),
          json({ api_key: key })
        )
      )
      expect(secure.status).toBe(200)
      expect(secure.headers["set-cookie"]!.split(";").map((part) => part.trim())).toContain("Secure")
    }))

  it.effect("GET /dashboard/session answers the cookie's session, and 401 without one", () =>
    Effect.gen(function*() {
      const { projectId } = yield* freshProject
      const { id: keyId, key } = yield* keyFor(projectId, "accounts")
      const { response, token } = yield* signIn(key)
      const current = yield* getWithCookie(token, SESSION_PATH)
      expect(current.status).toBe(200)
      expect(current.headers["cache-control"]).toBe("no-store")
      expect(current.json).toEqual(response.json)
      expect(current.json).toMatchObject({ project_id: projectId, api_key_id: keyId, scope: "accounts" })

      const none = expectErrorBody(yield* send(HttpClientRequest.get(SESSION_PATH)), 401)
      expect(none.message).toContain("No dashboard session")
      const unknown = yield* getWithCookie("not-a-session-token", SESSION_PATH)
      expect(expectErrorBody(unknown, 401).message).toContain("ended or expired")
      // a script's 401 carries no Basic challenge: the browser would answer it with its own prompt
      expect(unknown.headers["www-authenticate"]).toBeUndefined()
    }))

  it.effect("the cookie authenticates the API as its key, within the key's project", () =>
    Effect.gen(function*() {
      const { client, key } = yield* freshProject
      const mine = yield* client.accounts.create_account({ payload: accountBody({ name: "Mine" }) })
      const other = yield* otherProject
      const theirs = yield* (yield* clientFor(other.key)).accounts.create_account({ payload: accountBody({ name: "Theirs" }) })
      const { token } = yield* signIn(key)

      const listed = yield* getWithCookie(token, "/v2/accounts")
      expect(listed.status).toBe(200)
      expect(listed.text).toContain(mine.id)
      expect(listed.text).not.toContain(theirs.id)
      expect((yield* getWithCookie(token, `/v2/accounts/${mine.id}`)).status).toBe(200)
      expectErrorBody(yield* getWithCookie(token, `/v2/accounts/${theirs.id}`), 404)
    }))

  it.effect("a Read Only session reads but cannot write; Full Access writes only from this server's origin", () =>
    Effect.gen(function*() {
      const { key, projectId } = yield* freshProject
      const origin = yield* ownOrigin
      const post = (token: string, origin?: string) =>
        send(
          HttpClientRequest.post("/v2/accounts").pipe(
            withCookie(token),
            origin === undefined ? (request) => request : withOrigin(origin),
            json(accountBody())
          )
        )

      const readOnly = (yield* signIn((yield* keyFor(projectId, "read_only")).key)).token
      expect((yield* getWithCookie(readOnly, "/v2/accounts")).status).toBe(200)
      const refused = expectErrorBody(yield* post(readOnly, origin), 403)
      expect(refused.message).toBe("API key scope Read Only does not allow POST /v2/accounts")
      // key management stays Full Access only, for sessions too
      expectErrorBody(yield* getWithCookie(readOnly, "/v2/api_keys"), 403)
      expect(yield* countAccounts(projectId)).toBe(0)

      const full = (yield* signIn(key)).token
      expect((yield* post(full, origin)).status).toBe(201)
      expect(yield* countAccounts(projectId)).toBe(1)
      const foreign = expectErrorBody(yield* post(full, "https://evil.example"), 403)
      expect(foreign.message).toContain("Cross-origin request refused")
      expect(foreign.message).toContain("https://evil.example")
      const missing = expectErrorBody(yield* post(full), 403)
      expect(missing.message).toBe(
        "Cross-origin request refused: a request authenticated by the dashboard session must send Origin"
      )
      // the same host under another scheme than the proxy reports is another origin
      const schemes = yield* send(
        HttpClientRequest.post("/v2/accounts").pipe(
          withCookie(full),
          withOrigin(origin),
          HttpClientRequest.setHeader("x-forwarded-proto", "https"),
          json(accountBody())
        )
      )
      expectErrorBody(schemes, 403)
      expect(yield* countAccounts(projectId)).toBe(1)
    }))

  it.effect("an Authorization header wins over the cookie", () =>
    Effect.gen(function*() {
      const { key, projectId } = yield* freshProject
      const readOnly = (yield* signIn((yield* keyFor(projectId, "read_only")).key)).token
      const full = (yield* signIn(key)).token

      // the header's key, not the session: a bad key is refused although the session is good
      const badKey = yield* send(HttpClientRequest.get("/v2/accounts").pipe(withCookie(full), withKey("swy_not_a_key_at_all")))
      expect(expectErrorBody(badKey, 401).message).toBe("Invalid API key")
      // and a Full Access key writes beside a Read Only session, without Origin (no cookie is at work)
      const written = yield* send(
        HttpClientRequest.post("/v2/accounts").pipe(withCookie(readOnly), withKey(key), json(accountBody()))
      )
      expect(written.status).toBe(201)

      // without any credential the API's own answer is unchanged
      const missing = yield* send(HttpClientRequest.get("/v2/accounts"))
      expect(expectErrorBody(missing, 401).message).toBe(
        "Missing or malformed API key: use HTTP Basic with the API key as username and an empty password"
      )
      expect(missing.headers["www-authenticate"]).toBe(`Basic realm="switchyard"`)
    }))

  it.effect("revoking the key ends its sessions at once", () =>
    Effect.gen(function*() {
      const { key: adminKey, projectId } = yield* freshProject
      const { id, key } = yield* keyFor(projectId, "full_access")
      const { token } = yield* signIn(key)
      expect((yield* getWithCookie(token, "/v2/accounts")).status).toBe(200)

      const revoked = yield* send(HttpClientRequest.del(`/v2/api_keys/${id}`).pipe(withKey(adminKey)))
      expect(revoked.status).toBe(200)
      const refused = yield* getWithCookie(token, "/v2/accounts")
      expect(expectErrorBody(refused, 401).message).toBe(
        "The dashboard session has ended or expired: sign in again with an API key"
      )
      expect(refused.headers["www-authenticate"]).toBeUndefined()
      expectErrorBody(yield* getWithCookie(token, SESSION_PATH), 401)
      // and the revoked key opens no new session
      const again = yield* signInRequest({ api_key: key }, yield* ownOrigin)
      expect(expectErrorBody(again, 401).message).toBe("Invalid API key")
    }))

  it.effect("signing out ends the session and clears the cookie; from another origin it is refused", () =>
    Effect.gen(function*() {
      const { key, projectId } = yield* freshProject
      const origin = yield* ownOrigin
      const { token } = yield* signIn(key)

      const foreign = yield* send(HttpClientRequest.del(SESSION_PATH).pipe(withCookie(token), withOrigin("http://evil.example")))
      expectErrorBody(foreign, 403)
      expect((yield* getWithCookie(token, "/v2/accounts")).status).toBe(200)

      const out = yield* send(HttpClientRequest.del(SESSION_PATH).pipe(withCookie(token), withOrigin(origin)))
      expect(out.status).toBe(204)
      expect(out.headers["cache-control"]).toBe("no-store")
      const cleared = out.headers["set-cookie"]!.split(";").map((part) => part.trim())
      expect(cleared).toEqual(expect.arrayContaining([`${COOKIE}=`, "Max-Age=0", "Path=/", "HttpOnly", "SameSite=Strict"]))
      expectErrorBody(yield* getWithCookie(token, "/v2/accounts"), 401)
      expectErrorBody(yield* getWithCookie(token, SESSION_PATH), 401)
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ ended_at: Date | null }>`
        SELECT ended_at FROM dashboard_sessions WHERE token_hash = ${hashApiKey(token)}`
      expect(row!.ended_at).not.toBeNull()

      // without a session there is nothing to end: still 204
      expect((yield* send(HttpClientRequest.del(SESSION_PATH).pipe(withOrigin(origin)))).status).toBe(204)
      expect(yield* sessionRows(projectId)).toBe(1)
    }))

  it.effect("signing in again ends the session the browser held", () =>
    Effect.gen(function*() {
      const { key } = yield* freshProject
      const first = (yield* signIn(key)).token
      const second = yield* send(
        HttpClientRequest.post(SESSION_PATH).pipe(withCookie(first), withOrigin(yield* ownOrigin), json({ api_key: key }))
      )
      expect(second.status).toBe(200)
      expectErrorBody(yield* getWithCookie(first, "/v2/accounts"), 401)
      expect((yield* getWithCookie(tokenOf(second), "/v2/accounts")).status).toBe(200)
    }))

  it.effect("an expired session is refused", () =>
    Effect.gen(function*() {
      const { key } = yield* freshProject
      const { token } = yield* signIn(key)
      const sql = yield* SqlClient.SqlClient
      yield* sql`
        UPDATE dashboard_sessions SET expires_at = now() - interval '1 second' WHERE token_hash = ${hashApiKey(token)}`
      expectErrorBody(yield* getWithCookie(token, "/v2/accounts"), 401)
      expectErrorBody(yield* getWithCookie(token, SESSION_PATH), 401)
    }))

  it.effect("a bad sign-in body is 400, an invalid key 401, a foreign or missing Origin 403: nothing is stored", () =>
    Effect.gen(function*() {
      const { key, projectId } = yield* freshProject
      const origin = yield* ownOrigin
      const post = (request: HttpClientRequest.HttpClientRequest) => send(request.pipe(withOrigin(origin)))
      const base = HttpClientRequest.post(SESSION_PATH)

      expect(expectErrorBody(yield* post(base.pipe(jsonText("{not json"))), 400).message).toBe(
        "The request body is not valid JSON"
      )
      for (const body of [{}, { api_key: 5 }, { api_key: "" }, [key], { key }]) {
        const refused = yield* post(base.pipe(json(body)))
        expect(expectErrorBody(refused, 400).message).toContain(`{"api_key": "swy_..."}`)
        expect(refused.text).not.toContain(key)
        expect(refused.headers["cache-control"]).toBe("no-store")
      }
      const invalid = yield* post(base.pipe(json({ api_key: `${key}x` })))
      expect(expectErrorBody(invalid, 401).message).toBe("Invalid API key")
      expect(invalid.headers["www-authenticate"]).toBeUndefined()
      expect(invalid.headers["set-cookie"]).toBeUndefined()
      expectErrorBody(yield* post(base.pipe(HttpClientRequest.bodyText(key, "text/plain"))), 415)

      const foreign = yield* signInRequest({ api_key: key }, "https://evil.example")
      expect(expectErrorBody(foreign, 403).message).toContain("Cross-origin request refused")
      const noOrigin = yield* send(base.pipe(json({ api_key: key })))
      expect(expectErrorBody(noOrigin, 403).message).toBe(
        "Cross-origin request refused: signing in to or out of the dashboard must send Origin"
      )
      expect(noOrigin.headers["set-cookie"]).toBeUndefined()
      expect(yield* sessionRows(projectId)).toBe(0)
    }))

  it.effect("the purge deletes ended and expired sessions and keeps live ones", () =>
    Effect.gen(function*() {
      const { key, projectId } = yield* freshProject
      const live = (yield* signIn(key)).token
      const ended = (yield* signIn(key)).token // ends nothing: it carries no cookie
      const expired = (yield* signIn(key)).token
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE dashboard_sessions SET ended_at = now() WHERE token_hash = ${hashApiKey(ended)}`
      yield* sql`UPDATE dashboard_sessions SET expires_at = now() WHERE token_hash = ${hashApiKey(expired)}`
      expect(yield* sessionRows(projectId)).toBe(3)

      const repo = yield* Effect.provide(DashboardSessionsRepo, DashboardSessionsRepo.Default)
      expect(yield* repo.deleteFinished(10_000)).toBeGreaterThanOrEqual(2)
      const left = yield* sql<{ token_hash: string }>`SELECT token_hash FROM dashboard_sessions WHERE project_id = ${projectId}`
      expect(left.map((row) => row.token_hash)).toEqual([hashApiKey(live)])
      expect((yield* getWithCookie(live, "/v2/accounts")).status).toBe(200)
    }))
})
