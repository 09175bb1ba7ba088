import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { LastRequestTracker } from "../src/features/accounts/LastRequestTracker.js"
import { accountBody, asPage, bootstrapClient, freshProject, records } from "./support/Fixtures.js"
import { TestServer } from "./support/TestServer.js"
import { expectErrorBody, json, send, withKey } from "./support/Wire.js"

layer(TestServer(), { excludeTestServices: true })("accounts", (it) => {
  it.effect("creates an account and never returns or stores its credentials in clear", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const account = yield* client.accounts.create_account({ payload: accountBody() })
      expect(account).toMatchObject({
        name: "Acme Recruiting",
        owner_id: "owner-1",
        owner_name: "Ada Lovelace",
        owner_username: "ada",
        connector_key: "greenhouse",
        status: "active",
        status_reasons: [],
        settings: { subdomain: "acme" },
        connector: null,
        connector_profile: null,
        last_request: null,
        actions: null
      })
      expect(new Date(account.connected_at).toISOString()).toBe(account.connected_at)
      expect(JSON.stringify(account)).not.toContain("gh-super-secret-value")
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ ciphertext: string; key_id: string }>`
        SELECT credentials_ciphertext AS ciphertext, credentials_key_id AS key_id FROM accounts WHERE id = ${account.id}`
      expect(row!.ciphertext).not.toContain("gh-super-secret-value")
      expect(Buffer.from(row!.ciphertext, "base64").toString("utf8")).not.toContain("gh-super-secret-value")
      expect(row!.key_id).toMatch(/^[0-9a-f]{16}$/)
    }))

  it.effect("gets an account with its connected time", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const created = yield* client.accounts.create_account({ payload: accountBody() })
      const fetched = yield* client.accounts.get_account({ path: { id: created.id }, urlParams: {} })
      expect(fetched).toEqual(created)
      const missing = yield* client.accounts.get_account({ path: { id: "no-such-account" }, urlParams: {} }).pipe(
        Effect.flip
      )
      expect(missing._tag).toBe("NotFound")
      expect(missing.message).toContain("no-such-account")
    }))

  it.effect("lists a bare array without paging and an envelope with it", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      for (let i = 0; i < 30; i++) {
        yield* client.accounts.create_account({ payload: accountBody({ name: `Account ${String(i).padStart(2, "0")}` }) })
      }
      const all = yield* client.accounts.list_accounts({ urlParams: {} })
      expect(Array.isArray(all)).toBe(true)
      expect(all).toHaveLength(30)

      const first = asPage(yield* client.accounts.list_accounts({ urlParams: { page: 1 } }))
      expect(first).toMatchObject({ page: 1, page_size: 25, total: 30, next_page: 2 })
      expect(first.data).toHaveLength(25)

      const second = asPage(yield* client.accounts.list_accounts({ urlParams: { page: 2, page_size: 25 } }))
      expect(second).toMatchObject({ page: 2, page_size: 25, total: 30, next_page: null })
      expect(second.data).toHaveLength(5)
      const ids = new Set([...first.data, ...second.data].map((account) => account.id))
      expect(ids.size).toBe(30)

      const sized = asPage(yield* client.accounts.list_accounts({ urlParams: { page_size: 7 } }))
      expect(sized).toMatchObject({ page: 1, page_size: 7, total: 30, next_page: 2 })
    }))

  it.effect("filters by ids, connector keys, statuses, owners, profiles and search", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const a = yield* client.accounts.create_account({
        payload: accountBody({ name: "Alpha Corp", owner_id: "o-a", owner_username: "AliceA", connector_key: "greenhouse" })
      })
      const b = yield* client.accounts.create_account({
        payload: accountBody({ name: "Beta Inc", owner_id: "o-b", owner_username: "bob", connector_key: "bamboohr" })
      })
      const c = yield* client.accounts.create_account({
        payload: accountBody({ name: "Gamma 100%", owner_id: "o-c", owner_username: "carol", connector_key: "talentlms" })
      })
      yield* client.accounts.patch_account({ path: { id: c.id }, payload: { status: "suspended" }, urlParams: {} })
      const names = (urlParams: Parameters<typeof client.accounts.list_accounts>[0]["urlParams"]) =>
        client.accounts.list_accounts({ urlParams }).pipe(
          Effect.map((result) => records(result).map((account) => account.name).sort())
        )

      expect(yield* names({ account_id: [a.id, b.id] })).toEqual(["Alpha Corp", "Beta Inc"])
      expect(yield* names({ connector_key: ["greenhouse", "talentlms"] })).toEqual(["Alpha Corp", "Gamma 100%"])
      expect(yield* names({ status: ["suspended"] })).toEqual(["Gamma 100%"])
      expect(yield* names({ status: ["active"] })).toEqual(["Alpha Corp", "Beta Inc"])
      expect(yield* names({ owner_id: ["o-b"] })).toEqual(["Beta Inc"])
      expect(yield* names({ search: "alpha" })).toEqual(["Alpha Corp"])
      expect(yield* names({ search: "ALICE" })).toEqual(["Alpha Corp"])
      expect(yield* names({ search: "%" })).toEqual(["Gamma 100%"])
      expect(yield* names({ connector_profile_id: ["0b5f7a52-8f5e-4c7a-9a53-3f2a4f2b9d11"] })).toEqual([])
      expect(yield* names({ capability: "write" })).toEqual(["Alpha Corp", "Beta Inc", "Gamma 100%"])
      expect(yield* names({ connector_key: ["greenhouse"], owner_id: ["o-b"] })).toEqual([])
    }))

  it.effect("lists the filter options over the caller's accounts", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const a = yield* client.accounts.create_account({
        payload: accountBody({ name: "Alpha", owner_id: "o-1", owner_name: "Owner One", connector_key: "greenhouse" })
      })
      const b = yield* client.accounts.create_account({
        payload: accountBody({ name: "Beta", owner_id: "o-1", owner_name: "Owner One", connector_key: "bamboohr" })
      })
      yield* client.accounts.patch_account({ path: { id: b.id }, payload: { status: "expired" }, urlParams: {} })
      const filters = yield* client.accounts.list_account_filters()
      expect(filters).toEqual({
        connector_keys: [{ value: "bamboohr", label: "BambooHR" }, { value: "greenhouse", label: "Greenhouse" }],
        account_ids: [{ value: a.id, label: "Alpha" }, { value: b.id, label: "Beta" }],
        owner_ids: [{ value: "o-1", label: "Owner One" }],
        statuses: [{ value: "active", label: "Active" }, { value: "expired", label: "Expired" }]
      })
    }))

  it.effect("patches status and status reasons", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const account = yield* client.accounts.create_account({ payload: accountBody() })
      const suspended = yield* client.accounts.patch_account({
        path: { id: account.id },
        urlParams: {},
        payload: {
          status: "suspended",
          status_reasons: [{ code: "billing", description: "Invoice overdue" }]
        }
      })
      expect(suspended.status).toBe("suspended")
      expect(suspended.status_reasons).toHaveLength(1)
      expect(suspended.status_reasons[0]).toMatchObject({ code: "billing", description: "Invoice overdue" })
      expect(Date.parse(suspended.status_reasons[0]!.timestamp)).not.toBeNaN()

      const reasonsOnly = yield* client.accounts.patch_account({
        path: { id: account.id },
        urlParams: {},
        payload: { status_reasons: [] }
      })
      expect(reasonsOnly.status).toBe("suspended")
      expect(reasonsOnly.status_reasons).toEqual([])

      const empty = yield* client.accounts.patch_account({ path: { id: account.id }, urlParams: {}, payload: {} }).pipe(
        Effect.flip
      )
      expect(empty._tag).toBe("UnprocessableEntity")
      const missing = yield* client.accounts.patch_account({
        path: { id: "missing" },
        urlParams: {},
        payload: { status: "active" }
      }).pipe(Effect.flip)
      expect(missing._tag).toBe("NotFound")
    }))

  it.effect("deletes an account", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const account = yield* client.accounts.create_account({ payload: accountBody() })
      yield* client.accounts.delete_account({ path: { id: account.id } })
      const gone = yield* client.accounts.get_account({ path: { id: account.id }, urlParams: {} }).pipe(Effect.flip)
      expect(gone._tag).toBe("NotFound")
      const again = yield* client.accounts.delete_account({ path: { id: account.id } }).pipe(Effect.flip)
      expect(again._tag).toBe("NotFound")
    }))

  it.effect("refuses URL settings that are not absolute http or https URLs (400 naming the field, nothing stored)", () =>
    Effect.gen(function*() {
      const { client, key } = yield* freshProject
      const link = (settings: Record<string, unknown>) =>
        send(HttpClientRequest.post("/v2/accounts").pipe(withKey(key), json(accountBody({ settings }))))
      for (
        const [settings, field] of [
          [{ base_url: "file:///etc/passwd" }, "base_url"],
          [{ base_url: "/v1" }, "base_url"],
          [{ base_url: "ftp://files.example.com" }, "base_url"],
          [{ base_url: 42 }, "base_url"],
          [{ subdomain: "acme", token_url: "javascript:alert(1)" }, "token_url"],
          [{ authUrl: "gopher://example.com" }, "authUrl"]
        ] as const
      ) {
        const refused = expectErrorBody(yield* link(settings), 400)
        expect(refused.message).toBe(`settings.${field} must be an absolute http or https URL`)
      }
      expect(records(yield* client.accounts.list_accounts({ urlParams: {} }))).toEqual([])

      const linked = yield* link({ base_url: "https://harvest.greenhouse.io/v1", token_url: "http://127.0.0.1:8080/token" })
      expect(linked.status).toBe(201)
      expect((linked.json as Record<string, any>).settings.base_url).toBe("https://harvest.greenhouse.io/v1")
    }))

  it.effect("a call to a base_url on a private address is refused with the setting that allows it", () =>
    Effect.gen(function*() {
      const { key } = yield* freshProject
      const linked = yield* send(
        HttpClientRequest.post("/v2/accounts").pipe(withKey(key), json(accountBody({ credentials: { apiKey: "gh-key" }, settings: { base_url: "http://10.0.0.5/v1" } })))
      )
      expect(linked.status).toBe(201)
      const call = yield* send(
        HttpClientRequest.get("/unified/ats/applications").pipe(
          withKey(key),
          HttpClientRequest.setHeader("x-account-id", (linked.json as { id: string }).id)
        )
      )
      const body = call.json as { statusCode: number; message: string }
      expect(body.statusCode).toBe(call.status)
      expect(body.message).toContain("refused to call 10.0.0.5: it is a private address, which this server does not call")
      expect(body.message).toContain("set SWITCHYARD_OUTBOUND_ALLOWLIST=10.0.0.5 on the server")
    }))

  it.effect("expands last_request from memory first and from the database after a flush", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const tracker = yield* LastRequestTracker
      const account = yield* client.accounts.create_account({ payload: accountBody() })
      const before = yield* client.accounts.get_account({ path: { id: account.id }, urlParams: { expand: ["last_request"] } })
      expect(before.last_request).toBeNull()

      yield* tracker.touch(account.id)
      const touched = yield* client.accounts.get_account({
        path: { id: account.id },
        urlParams: { expand: ["last_request"] }
      })
      expect(touched.last_request).not.toBeNull()
      const notExpanded = yield* client.accounts.get_account({ path: { id: account.id }, urlParams: {} })
      expect(notExpanded.last_request).toBeNull()

      const sql = yield* SqlClient.SqlClient
      const stored = () =>
        sql<{ at: Date | null }>`SELECT last_request_at AS at FROM accounts WHERE id = ${account.id}`.pipe(
          Effect.map((rows) => rows[0]!.at)
        )
      expect(yield* stored()).toBeNull()
      yield* tracker.flush
      expect((yield* stored())?.toISOString()).toBe(touched.last_request)

      const listed = yield* client.accounts.list_accounts({ urlParams: { expand: ["last_request", "connector"] } })
      expect(records(listed)[0]!.last_request).toBe(touched.last_request)
    }))

  it.effect("the bootstrap key works as a Full Access key", () =>
    Effect.gen(function*() {
      const client = yield* bootstrapClient
      const accounts = yield* client.accounts.list_accounts({ urlParams: {} })
      expect(Array.isArray(accounts)).toBe(true)
    }))
})

