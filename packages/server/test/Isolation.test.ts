import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import type { Account, AccountFilters } from "@switchyard/api"
import type { Client } from "@switchyard/client"
import { Effect } from "effect"
import { accountBody, clientFor, freshProject, otherProject } from "./support/Fixtures.js"
import { TestServer } from "./support/TestServer.js"
import { expectErrorBody, json, send, withKey } from "./support/Wire.js"

/** Project A: two accounts with values no other project uses. */
const projectA = Effect.gen(function*() {
  const { client, key } = yield* freshProject
  const first = yield* client.accounts.create_account({
    payload: accountBody({
      name: "Alpha Private Name",
      owner_id: "owner-of-a",
      owner_name: "Owner Of A",
      owner_username: "a-user",
      connector_key: "bamboohr"
    })
  })
  const second = yield* client.accounts.create_account({
    payload: accountBody({ name: "Alpha Second", owner_id: "owner-of-a-2", connector_key: "talentlms" })
  })
  yield* client.accounts.patch_account({ path: { id: second.id }, urlParams: {}, payload: { status: "disabled" } })
  const refreshed = yield* client.accounts.get_account({ path: { id: second.id }, urlParams: {} })
  return { client, key, accounts: [first, refreshed] as const }
})

/** Project B with one account of its own, so an empty answer cannot pass for isolation. */
const withOwnAccount = (client: Client, key: string) =>
  Effect.gen(function*() {
    const own = yield* client.accounts.create_account({
      payload: accountBody({ name: "Beta Own", owner_id: "owner-of-b", connector_key: "greenhouse" })
    })
    return { client, key, own }
  })

/** B in another organization, and B in the same organization as A: both must be isolated. */
const projectsB = Effect.gen(function*() {
  const other = yield* otherProject
  const otherOrg = yield* withOwnAccount(yield* clientFor(other.key), other.key)
  const fresh = yield* freshProject
  const sameOrg = yield* withOwnAccount(fresh.client, fresh.key)
  return [["another organization", otherOrg], ["the same organization", sameOrg]] as const
})

const ids = (result: ReadonlyArray<Account> | { readonly data: ReadonlyArray<Account> }) =>
  ("data" in result ? result.data : result).map((account) => account.id)

const filterValues = (filters: typeof AccountFilters.Type) => [
  ...filters.connector_keys,
  ...filters.account_ids,
  ...filters.owner_ids
].flatMap(({ label, value }) => [value, label])

layer(TestServer(), { excludeTestServices: true })("project isolation", (it) => {
  it.effect("list, bare and paged, never shows another project's accounts", () =>
    Effect.gen(function*() {
      const a = yield* projectA
      for (const [where, b] of yield* projectsB) {
        const bare = yield* b.client.accounts.list_accounts({ urlParams: {} })
        expect({ where, ids: ids(bare) }).toEqual({ where, ids: [b.own.id] })

        const paged = yield* b.client.accounts.list_accounts({ urlParams: { page: 1, page_size: 100 } })
        expect({ where, paged }).toMatchObject({ where, paged: { total: 1, next_page: null } })
        expect(ids(paged)).toEqual([b.own.id])

        const searched = yield* b.client.accounts.list_accounts({ urlParams: { search: "Alpha" } })
        expect(ids(searched)).toEqual([])
        const byOwner = yield* b.client.accounts.list_accounts({ urlParams: { owner_id: ["owner-of-a"] } })
        expect(ids(byOwner)).toEqual([])
        const byConnector = yield* b.client.accounts.list_accounts({
          urlParams: { connector_key: ["bamboohr"] }
        })
        expect(ids(byConnector)).toEqual([])
        const byStatus = yield* b.client.accounts.list_accounts({ urlParams: { status: ["disabled"] } })
        expect(ids(byStatus)).toEqual([])
      }
      // And A sees only its own.
      expect(ids(yield* a.client.accounts.list_accounts({ urlParams: {} })).sort())
        .toEqual(a.accounts.map((account) => account.id).sort())
    }))

  it.effect("account_id filters naming another project's accounts return nothing", () =>
    Effect.gen(function*() {
      const a = yield* projectA
      const aIds = a.accounts.map((account) => account.id)
      for (const [where, b] of yield* projectsB) {
        const bare = yield* b.client.accounts.list_accounts({ urlParams: { account_id: aIds } })
        expect({ where, ids: ids(bare) }).toEqual({ where, ids: [] })
        const paged = yield* b.client.accounts.list_accounts({ urlParams: { account_id: aIds, page: 1 } })
        expect(paged).toMatchObject({ data: [], total: 0, next_page: null })
        const mixed = yield* b.client.accounts.list_accounts({ urlParams: { account_id: [...aIds, b.own.id] } })
        expect(ids(mixed)).toEqual([b.own.id])

        const raw = yield* send(HttpClientRequest.get(`/v2/accounts?account_id=${aIds.join(",")}`).pipe(withKey(b.key)))
        expect(raw.status).toBe(200)
        expect(raw.json).toEqual([])
      }
    }))

  it.effect("get of another project's account is 404 and reveals nothing", () =>
    Effect.gen(function*() {
      const a = yield* projectA
      const target = a.accounts[0]
      for (const [where, b] of yield* projectsB) {
        const error = yield* b.client.accounts.get_account({ path: { id: target.id }, urlParams: {} }).pipe(Effect.flip)
        expect({ where, tag: error._tag }).toEqual({ where, tag: "NotFound" })

        const raw = yield* send(
          HttpClientRequest.get(`/v2/accounts/${target.id}?expand=last_request`).pipe(withKey(b.key))
        )
        expectErrorBody(raw, 404)
        expect(raw.text).not.toContain("Alpha Private Name")
        expect(raw.text).not.toContain("owner-of-a")
        // Indistinguishable from an id that exists nowhere (apart from the id itself).
        const nowhere = yield* send(
          HttpClientRequest.get("/v2/accounts/00000000-0000-4000-8000-000000000000").pipe(withKey(b.key))
        )
        const nowhereBody = expectErrorBody(nowhere, 404)
        expect((raw.json as { message: string }).message.replace(target.id, "ID"))
          .toBe(nowhereBody.message.replace("00000000-0000-4000-8000-000000000000", "ID"))
      }
    }))

  it.effect("patch of another project's account is 404 and leaves it unchanged", () =>
    Effect.gen(function*() {
      const a = yield* projectA
      const target = a.accounts[0]
      const before = yield* a.client.accounts.get_account({ path: { id: target.id }, urlParams: {} })
      for (const [where, b] of yield* projectsB) {
        const error = yield* b.client.accounts.patch_account({
          path: { id: target.id },
          urlParams: {},
          payload: { status: "suspended", status_reasons: [{ code: "hijack", description: "from B" }] }
        }).pipe(Effect.flip)
        expect({ where, tag: error._tag }).toEqual({ where, tag: "NotFound" })

        const raw = yield* send(
          HttpClientRequest.patch(`/v2/accounts/${target.id}`).pipe(withKey(b.key), json({ status: "expired" }))
        )
        expectErrorBody(raw, 404)
      }
      const after = yield* a.client.accounts.get_account({ path: { id: target.id }, urlParams: {} })
      expect(after).toEqual(before)
      expect(after.status).toBe("active")
      expect(after.status_reasons).toEqual([])
    }))

  it.effect("delete of another project's account is 404 and the account survives", () =>
    Effect.gen(function*() {
      const a = yield* projectA
      const target = a.accounts[0]
      for (const [where, b] of yield* projectsB) {
        const error = yield* b.client.accounts.delete_account({ path: { id: target.id } }).pipe(Effect.flip)
        expect({ where, tag: error._tag }).toEqual({ where, tag: "NotFound" })
        expectErrorBody(yield* send(HttpClientRequest.del(`/v2/accounts/${target.id}`).pipe(withKey(b.key))), 404)
        // B's own account is still there too: the refused delete touched nothing of B's either.
        expect(ids(yield* b.client.accounts.list_accounts({ urlParams: {} }))).toEqual([b.own.id])
      }
      const still = yield* a.client.accounts.get_account({ path: { id: target.id }, urlParams: {} })
      expect(still.id).toBe(target.id)
      expect(ids(yield* a.client.accounts.list_accounts({ urlParams: {} }))).toHaveLength(2)
    }))

  it.effect("filter options list only the caller's project values", () =>
    Effect.gen(function*() {
      const a = yield* projectA
      const aValues = [
        ...a.accounts.flatMap((account) => [account.id, account.name, account.owner_id, account.connector_key]),
        "Owner Of A"
      ]
      for (const [where, b] of yield* projectsB) {
        const filters = yield* b.client.accounts.list_account_filters()
        expect({ where, filters }).toEqual({
          where,
          filters: {
            connector_keys: [{ value: "greenhouse", label: "Greenhouse" }],
            account_ids: [{ value: b.own.id, label: "Beta Own" }],
            owner_ids: [{ value: "owner-of-b", label: "Ada Lovelace" }],
            statuses: [{ value: "active", label: "Active" }]
          }
        })
        const values = filterValues(filters)
        for (const value of aValues) expect(values).not.toContain(value)
        // A's "disabled" status is A's alone.
        expect(filters.statuses.map((status) => status.value)).not.toContain("disabled")
      }
      const own = yield* a.client.accounts.list_account_filters()
      expect(own.account_ids.map((option) => option.value).sort())
        .toEqual(a.accounts.map((account) => account.id).sort())
      expect(filterValues(own)).not.toContain("greenhouse")
      expect(filterValues(own)).not.toContain("Beta Own")
    }))
})
