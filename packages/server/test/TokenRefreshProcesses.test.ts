import { describe, expect, it } from "@effect/vitest"
import { startSandbox } from "@switchyard/sandbox"
import { Effect } from "effect"
import * as Crypto from "node:crypto"
import { exited, postJson, sharedDatabaseEnv, type start, startServing, waitFor } from "./support/ServerProcess.js"
import { freshDatabaseUrl } from "./support/TestServer.js"
import {
  oauthConnectorYaml,
  opportunityCalls,
  refreshGrants,
  sandboxTokens,
  startTokenGate,
  type TokenGate
} from "./support/TokenRefreshSupport.js"

/*
 * Two server processes on one PostgreSQL database refresh an account's OAuth2 token once:
 * the row lease lets one of them call the token endpoint, the other waits for the version it
 * writes. Needs DATABASE_URL (the embedded database serves one process).
 */

const KEY = "swy_test_refresh_key_0123456789abcdef"
const HOUR_MS = 3600 * 1000
const CONNECTOR = "oauth-sandbox"

const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  postJson(base, path, body, KEY, headers)

const listOpportunities = (base: string, accountId: string) =>
  post(base, "/actions/rpc", { action: "list_opportunities" }, { "x-account-id": accountId })

const scenario = async (databaseUrl: string, gate: TokenGate, sandbox: Awaited<ReturnType<typeof startSandbox>>) => {
  const environment = sharedDatabaseEnv(databaseUrl, KEY)
  const servers: Array<ReturnType<typeof start>> = []
  const startServer = async () => {
    const started = await startServing("src/main.ts", [], environment, {
      inProcess: true,
      started: (server) => servers.push(server)
    })
    return started.base
  }
  try {
    // one after the other: the first migrates the database, the second finds it migrated
    const first = await startServer()
    const second = await startServer()

    expect((await post(first, "/v2/connectors", {
      yaml: oauthConnectorYaml({ key: CONNECTOR, authorizeUrl: sandbox.oauth.authorizeUrl, tokenUrl: gate.url })
    })).status).toBe(201)
    const profile = await post(first, "/v2/connector_profiles", {
      connector_key: CONNECTOR,
      label: "OAuth sandbox",
      setup: { clientId: sandbox.oauth.clientId, clientSecret: sandbox.oauth.clientSecret }
    })
    expect(profile.status).toBe(201)
    const link = async (credentials: (tokens: Awaited<ReturnType<typeof sandboxTokens>>) => Record<string, unknown>) => {
      const tokens = await sandboxTokens(sandbox)
      const account = await post(first, "/v2/accounts", {
        connector_key: CONNECTOR,
        connector_profile_id: profile.json.id,
        name: "Recruiting",
        owner_id: `owner-${Crypto.randomUUID()}`,
        credentials: credentials(tokens),
        settings: { base_url: sandbox.oauth.baseUrl }
      })
      expect(account.status).toBe(201)
      return account.json.id as string
    }
    const calls = (accountId: string) =>
      Promise.all([first, second, first, second].map((base) => listOpportunities(base, accountId)))

    // the provider refuses the stored token (401): both processes' calls meet that refusal
    // before the one refresh may complete (it is held at the gate until they have)
    const refusedToken = await link((tokens) => ({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token }))
    sandbox.clock.advance(HOUR_MS)
    sandbox.oauth.clearTokenRequests()
    sandbox.clearRequests()
    const afterRefusal = calls(refusedToken)
    await waitFor(() => opportunityCalls(sandbox) >= 4 && gate.arrived() >= 1, "four 401s and a held refresh")
    gate.open()
    expect((await afterRefusal).map((answer) => answer.status)).toEqual([200, 200, 200, 200])
    expect(gate.arrived()).toBe(1)
    expect(refreshGrants(sandbox)).toBe(1)
    // each refused call was sent again once, with the new token
    expect(opportunityCalls(sandbox)).toBe(8)

    // a stored expiry already past: refreshed before the call, once for both processes
    gate.hold()
    const expired = await link((tokens) => ({
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token,
      expiresAt: new Date(Date.now() - 1000).toISOString()
    }))
    sandbox.oauth.clearTokenRequests()
    sandbox.clearRequests()
    const beforeExpiry = calls(expired)
    await waitFor(() => gate.arrived() >= 2, "the held refresh")
    gate.open()
    expect((await beforeExpiry).map((answer) => answer.status)).toEqual([200, 200, 200, 200])
    expect(gate.arrived()).toBe(2)
    expect(refreshGrants(sandbox)).toBe(1)
    expect(opportunityCalls(sandbox)).toBe(4)

    // both processes now use the stored tokens as they are
    sandbox.clearRequests()
    for (const base of [first, second]) {
      for (const accountId of [refusedToken, expired]) expect((await listOpportunities(base, accountId)).status).toBe(200)
    }
    expect(refreshGrants(sandbox)).toBe(1)
    expect(opportunityCalls(sandbox)).toBe(4)
  } finally {
    for (const server of servers) {
      const stopped = exited(server.child)
      server.child.kill("SIGTERM")
      await stopped
    }
  }
}

describe.skipIf(process.env.DATABASE_URL === undefined || process.env.DATABASE_URL === "")(
  "OAuth2 token refresh across processes",
  () => {
    it.scoped("two server processes on one database refresh an account's token once", () =>
      Effect.gen(function*() {
        const databaseUrl = yield* freshDatabaseUrl
        const sandbox = yield* Effect.acquireRelease(
          Effect.promise(() => startSandbox({ seed: 37 })),
          (sandbox) => Effect.promise(() => sandbox.close())
        )
        const gate = yield* Effect.acquireRelease(
          Effect.promise(() => startTokenGate(sandbox.oauth.tokenUrl)),
          (gate) => Effect.promise(() => gate.close())
        )
        yield* Effect.promise(() => scenario(databaseUrl!, gate, sandbox))
      }), 600_000)
  }
)
