import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import type { Sandbox } from "@switchyard/sandbox"
import { Effect, Fiber, Layer, Schedule } from "effect"
import { register } from "prom-client"
import { AccountCredentials } from "../src/features/accounts/AccountsRepo.js"
import { RequestLog } from "../src/features/requestLogs/RequestLog.js"
import { CredentialCipher } from "../src/platform/crypto/CredentialCipher.js"
import { enableMetrics } from "../src/platform/metrics/ServerMetrics.js"
import { freshProject } from "./support/Fixtures.js"
import { SandboxLive, SandboxProviders } from "./support/SandboxLayer.js"
import { TestServer } from "./support/TestServer.js"
import { expectErrorBody, json, send, withKey } from "./support/Wire.js"
import {
  oauthConnectorYaml,
  opportunityCalls,
  refreshGrants,
  type SandboxTokens,
  sandboxTokens,
  startTokenGate,
  type TokenGate
} from "./support/TokenRefreshSupport.js"

/*
 * OAuth2 access-token refresh in one server process, against the sandbox's OAuth provider:
 * a 401 refreshes once and resends, a token expiring within the skew is refreshed before the
 * call, concurrent calls share one refresh, a lost lease writes nothing, a revoked grant
 * expires the account, a failing token endpoint leaves it as it was, and no token or secret
 * shows in answers or captures.
 */

const Server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive(31))

const CONNECTOR = "oauth-sandbox"
const HOUR_MS = 3600 * 1000

/**
 * A fresh project with the OAuth connector (its token URL the sandbox's or `gate`'s), a
 * connector profile holding the sandbox's OAuth app, and an account linked with tokens got
 * through the consent page; `credentials` adds to or replaces what is stored.
 */
const link = (options: { readonly gate?: TokenGate; readonly credentials?: (tokens: SandboxTokens) => Record<string, unknown> } = {}) =>
  Effect.gen(function*() {
    const sandbox = yield* SandboxProviders
    const project = yield* freshProject
    yield* project.client.connectors.create_connector({
      urlParams: {},
      payload: {
        yaml: oauthConnectorYaml({
          key: CONNECTOR,
          authorizeUrl: sandbox.oauth.authorizeUrl,
          tokenUrl: options.gate?.url ?? sandbox.oauth.tokenUrl
        })
      }
    })
    const profile = yield* project.client.connector_profiles.create_connector_profile({
      urlParams: {},
      payload: {
        connector_key: CONNECTOR,
        label: "OAuth sandbox",
        setup: { clientId: sandbox.oauth.clientId, clientSecret: sandbox.oauth.clientSecret }
      }
    })
    const tokens = yield* Effect.promise(() => sandboxTokens(sandbox))
    const account = yield* project.client.accounts.create_account({
      payload: {
        connector_key: CONNECTOR,
        connector_profile_id: profile.id,
        name: "Recruiting",
        owner_id: "owner-1",
        credentials: options.credentials?.(tokens) ?? { accessToken: tokens.access_token, refreshToken: tokens.refresh_token },
        settings: { base_url: sandbox.oauth.baseUrl }
      }
    })
    sandbox.oauth.clearTokenRequests()
    sandbox.clearRequests()
    sandbox.faults.clear()
    const call = (callOptions: { readonly raw?: boolean } = {}) =>
      send(
        HttpClientRequest.post("/actions/rpc").pipe(
          json({ action: "list_opportunities", ...(callOptions.raw === true ? { raw: true } : {}) }),
          HttpClientRequest.setHeader("x-account-id", account.id),
          withKey(project.key)
        )
      )
    return { sandbox, project, accountId: account.id, tokens, call } as const
  })

/** The account row as stored, its credentials opened. */
const stored = (accountId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const cipher = yield* CredentialCipher
    const [row] = yield* sql<{
      credentials_ciphertext: string
      credentials_key_id: string
      credentials_version: number
      refresh_lease_holder: string | null
      status: string
      status_reasons: ReadonlyArray<{ code: string; description: string }>
    }>`SELECT credentials_ciphertext, credentials_key_id, credentials_version, refresh_lease_holder, status, status_reasons
       FROM accounts WHERE id = ${accountId}`
    const credentials = yield* cipher.open(AccountCredentials, {
      keyId: row!.credentials_key_id,
      ciphertext: row!.credentials_ciphertext
    })
    return { ...row!, credentials }
  }).pipe(Effect.orDie, Effect.provide(CredentialCipher.DefaultWithoutDependencies))

/** Waits (on the sandbox's own counts, never on time) until `ready` holds. */
const until = (ready: () => boolean) =>
  Effect.suspend(() => (ready() ? Effect.void : Effect.fail("not yet"))).pipe(
    Effect.retry(Schedule.spaced("20 millis")),
    Effect.orDie
  )

/** The secrets a test checks that no answer shows. */
const secretsOf = (sandbox: Sandbox, ...tokens: ReadonlyArray<unknown>) =>
  [sandbox.oauth.clientSecret, ...tokens].filter((value): value is string => typeof value === "string" && value.length > 0)

const expectNoSecret = (text: string, secrets: ReadonlyArray<string>) => {
  for (const secret of secrets) expect(text).not.toContain(secret)
}

enableMetrics()

/** This process's count of token refreshes with `outcome` (the tests of this file run one after another). */
const refreshesCounted = (outcome: "success" | "failed" | "revoked") =>
  Effect.promise(async () => {
    const metric = await register.getSingleMetric("switchyard_oauth_token_refreshes_total")!.get()
    return metric.values.filter((value) => value.labels.outcome === outcome).reduce((sum, value) => sum + value.value, 0)
  })

layer(Server, { excludeTestServices: true })("OAuth2 token refresh", (it) => {
  it.effect("a 401 refreshes the token once and resends; the next call uses the stored new token", () =>
    Effect.gen(function*() {
      const { accountId, call, sandbox, tokens } = yield* link()
      sandbox.clock.advance(HOUR_MS)
      const succeeded = yield* refreshesCounted("success")

      const answer = yield* call({ raw: true })
      expect(answer.status).toBe(200)
      expect((yield* refreshesCounted("success")) - succeeded).toBe(1)
      const body = answer.json as { data: ReadonlyArray<{ id: string }>; raw: ReadonlyArray<{ url: string; body: unknown; response: { status: number; body: unknown } }> }
      expect(body.data).toHaveLength(3)
      expect(refreshGrants(sandbox)).toBe(1)
      expect(opportunityCalls(sandbox)).toBe(2)

      const after = yield* stored(accountId)
      expect(after.credentials_version).toBe(2)
      expect(after.refresh_lease_holder).toBeNull()
      expect(after.credentials.accessToken).not.toBe(tokens.access_token)
      expect(after.credentials.refreshToken).not.toBe(tokens.refresh_token)
      expect(Date.parse(after.credentials.expiresAt as string)).toBeGreaterThan(Date.now())

      // the capture shows the 401, the token request and the resend, and none of the tokens or the client secret
      expect(body.raw.map((rawCall) => rawCall.response.status)).toEqual([401, 200, 200])
      expect(body.raw[1]!.url).toBe(sandbox.oauth.tokenUrl)
      expect(body.raw[1]!.response.body).toMatchObject({ access_token: "[REDACTED]", refresh_token: "[REDACTED]" })
      expectNoSecret(
        answer.text,
        secretsOf(sandbox, tokens.access_token, tokens.refresh_token, after.credentials.accessToken, after.credentials.refreshToken)
      )

      // the new token is stored: the next call neither meets a 401 nor refreshes
      expect((yield* call()).status).toBe(200)
      expect(refreshGrants(sandbox)).toBe(1)
      expect(opportunityCalls(sandbox)).toBe(3)
    }))

  it.effect("the unified proxy sends the account's bearer token and renews it on a 401 like an action run", () =>
    Effect.gen(function*() {
      const { accountId, project, sandbox, tokens } = yield* link()
      sandbox.clock.advance(HOUR_MS)
      const answer = yield* send(
        HttpClientRequest.post("/unified/proxy").pipe(
          json({ path: "/opportunities?limit=2", headers: { authorization: `Bearer ${tokens.access_token}` } }),
          HttpClientRequest.setHeader("x-account-id", accountId),
          withKey(project.key)
        )
      )
      expect(answer.status).toBe(200)
      expect((answer.json as { status: number; body: { data: ReadonlyArray<unknown> } })).toMatchObject({ status: 200 })
      expect((answer.json as { body: { data: ReadonlyArray<unknown> } }).body.data).toHaveLength(2)
      expect(refreshGrants(sandbox)).toBe(1)
      expect(opportunityCalls(sandbox)).toBe(2)
      const after = yield* stored(accountId)
      expect(after.credentials.accessToken).not.toBe(tokens.access_token)
      expectNoSecret(answer.text, secretsOf(sandbox, tokens.access_token, tokens.refresh_token, after.credentials.accessToken, after.credentials.refreshToken))
    }))

  it.effect("a token expiring within the skew is refreshed before the call (no 401); one far from expiry is not", () =>
    Effect.gen(function*() {
      const far = yield* link({
        credentials: (tokens) => ({
          accessToken: tokens.access_token,
          refreshToken: tokens.refresh_token,
          expiresAt: new Date(Date.now() + 30 * 60_000).toISOString()
        })
      })
      expect((yield* far.call()).status).toBe(200)
      expect(refreshGrants(far.sandbox)).toBe(0)
      expect((yield* stored(far.accountId)).credentials_version).toBe(1)

      const soon = yield* link({
        credentials: (tokens) => ({
          accessToken: tokens.access_token,
          refreshToken: tokens.refresh_token,
          expiresAt: new Date(Date.now() + 60_000).toISOString(),
          tokenType: "Bearer"
        })
      })
      expect((yield* soon.call()).status).toBe(200)
      expect(refreshGrants(soon.sandbox)).toBe(1)
      // the only request to the API carried the new token: no 401 on the way
      expect(opportunityCalls(soon.sandbox)).toBe(1)
      const after = yield* stored(soon.accountId)
      expect(after.credentials_version).toBe(2)
      expect(after.credentials.accessToken).not.toBe(soon.tokens.access_token)
      expect(Date.parse(after.credentials.expiresAt as string)).toBeGreaterThan(Date.now() + 30 * 60_000)
    }))

  it.effect("a token that lives less than twice the skew refreshes at half its life, not on every call", () =>
    Effect.gen(function*() {
      // issued now for 4 minutes, inside the 5-minute skew: refreshed only past half its life
      const issuedAt = Date.now()
      const young = yield* link({
        credentials: (tokens) => ({
          accessToken: tokens.access_token,
          refreshToken: tokens.refresh_token,
          issuedAt: new Date(issuedAt).toISOString(),
          expiresAt: new Date(issuedAt + 4 * 60_000).toISOString()
        })
      })
      expect((yield* young.call()).status).toBe(200)
      expect(refreshGrants(young.sandbox)).toBe(0)
      // issued 3 of its 4 minutes ago: past half its life, refreshed before the call
      const old = yield* link({
        credentials: (tokens) => ({
          accessToken: tokens.access_token,
          refreshToken: tokens.refresh_token,
          issuedAt: new Date(issuedAt - 3 * 60_000).toISOString(),
          expiresAt: new Date(issuedAt + 60_000).toISOString()
        })
      })
      expect((yield* old.call()).status).toBe(200)
      expect(refreshGrants(old.sandbox)).toBe(1)
    }))

  it.scoped("three concurrent calls on an expired token share one refresh", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxProviders
      const gate = yield* Effect.acquireRelease(
        Effect.promise(() => startTokenGate(sandbox.oauth.tokenUrl)),
        (gate) => Effect.promise(() => gate.close())
      )
      const { accountId, call } = yield* link({ gate })
      sandbox.clock.advance(HOUR_MS)

      const calls = yield* Effect.all([call(), call(), call()], { concurrency: "unbounded" }).pipe(Effect.fork)
      // every call met its 401 with the old token, and a refresh is held at the gate: none is done yet
      yield* until(() => opportunityCalls(sandbox) >= 3 && gate.arrived() >= 1)
      gate.open()
      const answers = yield* Fiber.join(calls)

      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200])
      expect(gate.arrived()).toBe(1)
      expect(refreshGrants(sandbox)).toBe(1)
      expect((yield* stored(accountId)).credentials_version).toBe(2)
    }))

  it.scoped("a holder whose lease was taken over writes nothing: its tokens are dropped and the taker's are used", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxProviders
      const sql = yield* SqlClient.SqlClient
      const gate = yield* Effect.acquireRelease(
        Effect.promise(() => startTokenGate(sandbox.oauth.tokenUrl)),
        (gate) => Effect.promise(() => gate.close())
      )
      const { accountId, call, tokens } = yield* link({
        gate,
        credentials: (tokens) => ({
          accessToken: tokens.access_token,
          refreshToken: tokens.refresh_token,
          expiresAt: new Date(Date.now() - 1000).toISOString()
        })
      })
      // what another process's refresh would have stored, once this holder's lease had expired
      const taker = yield* Effect.promise(() => sandboxTokens(sandbox))
      const taken = yield* Effect.map(CredentialCipher, (cipher) =>
        cipher.seal({
          accessToken: taker.access_token,
          refreshToken: taker.refresh_token,
          expiresAt: new Date(Date.now() + HOUR_MS).toISOString()
        })).pipe(Effect.provide(CredentialCipher.DefaultWithoutDependencies))
      sandbox.clearRequests()

      const pending = yield* Effect.fork(call())
      yield* until(() => gate.arrived() >= 1)
      const leased = yield* stored(accountId)
      expect(leased.refresh_lease_holder).not.toBeNull()
      yield* sql`
        UPDATE accounts SET credentials_ciphertext = ${taken.ciphertext}, credentials_key_id = ${taken.keyId},
          credentials_version = credentials_version + 1, refresh_lease_holder = NULL, refresh_lease_until = NULL
        WHERE id = ${accountId}`
      gate.open()
      const answer = yield* Fiber.join(pending)

      expect(answer.status).toBe(200)
      const after = yield* stored(accountId)
      expect(after.credentials_version).toBe(2)
      expect(after.credentials).toMatchObject({ accessToken: taker.access_token, refreshToken: taker.refresh_token })
      expect(after.credentials.accessToken).not.toBe(tokens.access_token)
      expect(opportunityCalls(sandbox)).toBe(1)
    }))

  it.effect("a lease left by a process that died is taken over once it expires", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { accountId, call, sandbox } = yield* link()
      sandbox.clock.advance(HOUR_MS)
      yield* sql`
        UPDATE accounts SET refresh_lease_holder = 'a-process-that-died', refresh_lease_until = now() + interval '1 second'
        WHERE id = ${accountId}`

      expect((yield* call()).status).toBe(200)
      expect(refreshGrants(sandbox)).toBe(1)
      const after = yield* stored(accountId)
      expect(after.credentials_version).toBe(2)
      expect(after.refresh_lease_holder).toBeNull()
    }))

  it.scoped("a provider that omits refresh_token keeps the old one", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxProviders
      const gate = yield* Effect.acquireRelease(
        Effect.promise(() =>
          startTokenGate(sandbox.oauth.tokenUrl, {
            open: true,
            rewrite: ({ refresh_token: _omitted, ...answer }) => answer
          })
        ),
        (gate) => Effect.promise(() => gate.close())
      )
      const { accountId, call, tokens } = yield* link({ gate })
      sandbox.clock.advance(HOUR_MS)

      expect((yield* call()).status).toBe(200)
      expect(gate.arrived()).toBe(1)
      const after = yield* stored(accountId)
      expect(after.credentials_version).toBe(2)
      expect(after.credentials.accessToken).not.toBe(tokens.access_token)
      expect(after.credentials.refreshToken).toBe(tokens.refresh_token)
    }))

  it.effect("a revoked grant expires the account with a reason; the call fails clearly and the next one refreshes nothing", () =>
    Effect.gen(function*() {
      const { accountId, call, project, sandbox, tokens } = yield* link()
      // nothing listens there: the event is read from the outbox below
      yield* project.client.webhooks.create_webhook({ payload: { url: "http://127.0.0.1:9/hook", events: ["account.updated"] } })
      expect(sandbox.oauth.revoke({ refreshToken: tokens.refresh_token })).toBe(1)
      const revoked = yield* refreshesCounted("revoked")

      const refused = yield* call({ raw: true })
      expect((yield* refreshesCounted("revoked")) - revoked).toBe(1)
      const error = expectErrorBody(refused, 412)
      expect(error.message).toContain(`Account ${accountId} is expired`)
      expect(error.message).toContain("invalid_grant")
      expect(error.message).toContain("connect session")
      expect(refreshGrants(sandbox)).toBe(1)
      // the account found blocked by the run's refresh leaves the run as itself: logged as answered
      yield* (yield* RequestLog).flush
      const logged = yield* project.client.request_logs.list_request_logs({ urlParams: { account_ids: [accountId] } })
      expect(logged.data).toHaveLength(1)
      expect(logged.data[0]).toMatchObject({ status: 412, success: false, error_message: error.message })

      const account = yield* project.client.accounts.get_account({ path: { id: accountId }, urlParams: {} })
      expect(account.status).toBe("expired")
      expect(account.status_reasons).toEqual([
        { code: "oauth_grant_revoked", description: expect.stringContaining("invalid_grant"), timestamp: expect.any(String) }
      ])
      const after = yield* stored(accountId)
      expect(after.refresh_lease_holder).toBeNull()
      expect(after.credentials_version).toBe(1)
      // the expiry's account.updated event was written with it, without credentials
      const sql = yield* SqlClient.SqlClient
      const events = yield* sql<{ type: string; data: string }>`
        SELECT type, data FROM webhook_events WHERE project_id = ${project.projectId} ORDER BY sequence`.pipe(Effect.orDie)
      expect(events.map(({ type }) => type)).toEqual(["account.updated"])
      expect(JSON.parse(events[0]!.data)).toMatchObject({
        id: accountId,
        status: "expired",
        status_reasons: [{ code: "oauth_grant_revoked" }]
      })
      expectNoSecret(events[0]!.data, secretsOf(sandbox, tokens.access_token, tokens.refresh_token))

      const again = yield* call()
      expect(expectErrorBody(again, 412).message).toContain("connect session")
      expect(refreshGrants(sandbox)).toBe(1)
      expect(opportunityCalls(sandbox)).toBe(1)
      expectNoSecret(
        JSON.stringify([refused.text, again.text, account]),
        secretsOf(sandbox, tokens.access_token, tokens.refresh_token)
      )
    }))

  it.effect("a token endpoint failing otherwise answers 502 and leaves tokens and status as they were", () =>
    Effect.gen(function*() {
      const { accountId, call, sandbox, tokens } = yield* link()
      sandbox.clock.advance(HOUR_MS)
      sandbox.faults.add({ match: { provider: "oauth", method: "POST", path: "/oauth/token" }, fault: "status", status: 500 })
      const failedBefore = yield* refreshesCounted("failed")

      const failed = yield* call()
      expect((yield* refreshesCounted("failed")) - failedBefore).toBe(1)
      const error = expectErrorBody(failed, 502)
      expect(error.message).toContain(`Could not refresh the OAuth2 access token of account ${accountId}`)
      expectNoSecret(failed.text, secretsOf(sandbox, tokens.access_token, tokens.refresh_token))
      expect(sandbox.requests("oauth").filter((request) => request.path === "/oauth/token")).toHaveLength(1)

      const after = yield* stored(accountId)
      expect(after).toMatchObject({ status: "active", credentials_version: 1, refresh_lease_holder: null })
      expect(after.credentials).toMatchObject({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token })

      // nothing was lost: once the endpoint answers again, the next call refreshes with the same refresh token
      sandbox.faults.clear()
      expect((yield* call()).status).toBe(200)
      expect(refreshGrants(sandbox)).toBe(1)
      expect((yield* stored(accountId)).credentials_version).toBe(2)
    }))
})
