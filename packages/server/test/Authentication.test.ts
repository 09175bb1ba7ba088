import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import type { ApiKeyScope } from "@switchyard/api"
import type { Client } from "@switchyard/client"
import { Effect, Option } from "effect"
import * as Crypto from "node:crypto"
import { ApiKeys } from "../src/features/auth/ApiKeys.js"
import { accountBody, clientFor, countAccounts, freshProject, keyFor } from "./support/Fixtures.js"
import { BOOTSTRAP_KEY, TestServer } from "./support/TestServer.js"
import { base64, expectErrorBody, json, jsonText, send, withAuthorization, withKey } from "./support/Wire.js"

/** Every accounts endpoint as a raw request, so each can be sent without or with odd credentials. */
const accountRequests = (id: string) => [
  HttpClientRequest.get("/v2/accounts"),
  HttpClientRequest.get("/v2/accounts?page=1&page_size=10"),
  HttpClientRequest.get("/v2/accounts/filters"),
  HttpClientRequest.get(`/v2/accounts/${id}`),
  HttpClientRequest.patch(`/v2/accounts/${id}`).pipe(json({ status: "inactive" })),
  HttpClientRequest.del(`/v2/accounts/${id}`),
  HttpClientRequest.post("/v2/accounts").pipe(json(accountBody()))
]

/** A project with one account (made with its Full Access client) and a key of `scope`. */
const scopedSetup = (scope: ApiKeyScope) =>
  Effect.gen(function*() {
    const project = yield* freshProject
    const account = yield* project.client.accounts.create_account({ payload: accountBody({ name: "Scoped" }) })
    const { key } = yield* keyFor(project.projectId, scope)
    return { ...project, account, scoped: yield* clientFor(key), scopedKey: key }
  })

/** The scoped client's error tag for a call, or "ok" when it succeeded. */
const outcome = <A, E extends { readonly _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(Effect.as("ok" as string), Effect.catchAll((error) => Effect.succeed(error._tag)))

const everyAccountsOperation = (client: Client, id: string) => ({
  list: client.accounts.list_accounts({ urlParams: {} }),
  list_paged: client.accounts.list_accounts({ urlParams: { page: 1, page_size: 10 } }),
  filters: client.accounts.list_account_filters(),
  get: client.accounts.get_account({ path: { id }, urlParams: {} }),
  patch: client.accounts.patch_account({ path: { id }, urlParams: {}, payload: { status: "inactive" } }),
  delete: client.accounts.delete_account({ path: { id } }),
  create: client.accounts.create_account({ payload: accountBody({ name: "Created by scoped key" }) })
})

layer(TestServer(), { excludeTestServices: true })("authentication", (it) => {
  it.effect("GET /healthz works without any API key, and with a bad one", () =>
    Effect.gen(function*() {
      const bare = yield* send(HttpClientRequest.get("/healthz"))
      expect(bare.status).toBe(200)
      expect(bare.json).toEqual({ status: "ok" })
      const badKey = yield* send(HttpClientRequest.get("/healthz").pipe(withKey("swy_not_a_key")))
      expect(badKey.status).toBe(200)
      const client = yield* clientFor("swy_not_a_key")
      expect(yield* client.system.healthz()).toEqual({ status: "ok" })
    }))

  it.effect("GET /readyz answers ready without any API key while the database answers", () =>
    Effect.gen(function*() {
      const bare = yield* send(HttpClientRequest.get("/readyz"))
      expect(bare.status).toBe(200)
      expect(bare.json).toEqual({ status: "ready" })
      const client = yield* clientFor("swy_not_a_key")
      expect(yield* client.system.readyz()).toEqual({ status: "ready" })
    }))

  it.effect("a request without Authorization is 401 on every accounts operation", () =>
    Effect.gen(function*() {
      const { projectId, client } = yield* freshProject
      const account = yield* client.accounts.create_account({ payload: accountBody() })
      for (const request of accountRequests(account.id)) {
        const response = yield* send(request)
        const body = expectErrorBody(response, 401)
        expect(body.message).toMatch(/API key/)
        expect(response.headers["www-authenticate"]).toBe(`Basic realm="switchyard"`)
      }
      // Nothing was changed by the unauthenticated PATCH, DELETE and POST.
      const after = yield* client.accounts.get_account({ path: { id: account.id }, urlParams: {} })
      expect(after.status).toBe("active")
      expect(yield* countAccounts(projectId)).toBe(1)
    }))

  it.effect("malformed Authorization headers are 401", () =>
    Effect.gen(function*() {
      const headers = [
        "Basic !!!not-base64!!!",
        `Basic ${BOOTSTRAP_KEY}`, // the key itself, not base64 encoded
        `Basic ${base64(BOOTSTRAP_KEY)}`, // no ":" separating the empty password
        `Basic ${base64(":")}`, // empty key
        `Basic ${base64(`${BOOTSTRAP_KEY}:not-empty`)}`, // a password where the spec wants none
        `Bearer ${BOOTSTRAP_KEY}`,
        "Basic",
        ""
      ]
      for (const header of headers) {
        const response = yield* send(HttpClientRequest.get("/v2/accounts").pipe(withAuthorization(header)))
        expect({ header, status: response.status }).toEqual({ header, status: 401 })
        expectErrorBody(response, 401)
      }
      // The same key, sent the documented way, is accepted: the 401s above are about the form.
      const documented = `Basic ${base64(`${BOOTSTRAP_KEY}:`)}`
      const good = yield* send(HttpClientRequest.get("/v2/accounts").pipe(withAuthorization(documented)))
      expect(good.status).toBe(200)
    }))

  it.effect("an Authorization scheme other than Basic is 401 even when it carries a valid key", () =>
    Effect.gen(function*() {
      const encoded = base64(`${BOOTSTRAP_KEY}:`)
      const statuses: Record<string, number> = {}
      for (const scheme of ["Token", "Bearer", "Digest", "Bsaic"]) {
        const request = HttpClientRequest.get("/v2/accounts").pipe(withAuthorization(`${scheme} ${encoded}`))
        const response = yield* send(request)
        statuses[scheme] = response.status
      }
      expect(statuses).toEqual({ Token: 401, Bearer: 401, Digest: 401, Bsaic: 401 })
      // Only the scheme differs from a request that is accepted.
      expect((yield* send(HttpClientRequest.get("/v2/accounts").pipe(withAuthorization(`Basic ${encoded}`)))).status)
        .toBe(200)
    }))

  it.effect("an unknown API key is 401, through the client and on the wire", () =>
    Effect.gen(function*() {
      const unknownKey = `swy_${Crypto.randomBytes(32).toString("base64url")}`
      const client = yield* clientFor(unknownKey)
      const error = yield* client.accounts.list_accounts({ urlParams: {} }).pipe(Effect.flip)
      expect(error._tag).toBe("Unauthorized")
      if (error._tag !== "Unauthorized") return
      expect(error.statusCode).toBe(401)
      expect(error.message).toMatch(/API key/)

      const empty = yield* clientFor("")
      expect((yield* empty.accounts.list_account_filters().pipe(Effect.flip))._tag).toBe("Unauthorized")

      const response = yield* send(HttpClientRequest.get("/v2/accounts").pipe(withKey(unknownKey)))
      expectErrorBody(response, 401)
      // A near miss of a real key is just as unknown.
      const nearMiss = yield* send(HttpClientRequest.get("/v2/accounts").pipe(withKey(`${BOOTSTRAP_KEY}x`)))
      expectErrorBody(nearMiss, 401)
      expect(nearMiss.text).not.toContain(BOOTSTRAP_KEY)
    }))

  it.effect("a revoked key is 401; other keys of the project keep working", () =>
    Effect.gen(function*() {
      const { projectId, client: admin } = yield* freshProject
      const apiKeys = yield* ApiKeys
      const { id, key } = yield* keyFor(projectId, "full_access")
      const client = yield* clientFor(key)
      expect(yield* client.accounts.list_accounts({ urlParams: {} })).toEqual([])

      const revoked = yield* apiKeys.revoke(id)
      expect(Option.isSome(revoked)).toBe(true)

      const error = yield* client.accounts.list_accounts({ urlParams: {} }).pipe(Effect.flip)
      expect(error._tag).toBe("Unauthorized")
      const created = yield* client.accounts.create_account({ payload: accountBody() }).pipe(Effect.flip)
      expect(created._tag).toBe("Unauthorized")
      expectErrorBody(yield* send(HttpClientRequest.get("/v2/accounts/filters").pipe(withKey(key))), 401)
      expect(yield* countAccounts(projectId)).toBe(0)

      expect(yield* admin.accounts.list_accounts({ urlParams: {} })).toEqual([])
      // Revoking again finds no active key.
      expect(Option.isNone(yield* apiKeys.revoke(id))).toBe(true)
    }))

  it.effect("authentication and scope are checked before the request is validated", () =>
    Effect.gen(function*() {
      const { projectId } = yield* freshProject
      const readOnly = (yield* keyFor(projectId, "read_only")).key
      const actions = (yield* keyFor(projectId, "actions")).key

      expectErrorBody(yield* send(HttpClientRequest.post("/v2/accounts").pipe(jsonText("{not json"))), 401)
      expectErrorBody(yield* send(HttpClientRequest.get("/v2/accounts?page=0")), 401)
      const malformedByReadOnly = HttpClientRequest.post("/v2/accounts").pipe(withKey(readOnly), jsonText("{not json"))
      expectErrorBody(yield* send(malformedByReadOnly), 403)
      expectErrorBody(yield* send(HttpClientRequest.get("/v2/accounts?page_size=1000").pipe(withKey(actions))), 403)
      // A key without the scope learns nothing about which accounts exist.
      expectErrorBody(yield* send(HttpClientRequest.del("/v2/accounts/no-such-account").pipe(withKey(readOnly))), 403)
      expectErrorBody(yield* send(HttpClientRequest.get("/v2/accounts/no-such-account").pipe(withKey(actions))), 403)
    }))

  it.effect("read_only: GET list, filters and get succeed; PATCH, DELETE and POST are 403", () =>
    Effect.gen(function*() {
      const { account, client, projectId, scoped, scopedKey } = yield* scopedSetup("read_only")
      const ops = everyAccountsOperation(scoped, account.id)
      expect(yield* ops.list).toEqual([account])
      const paged = yield* ops.list_paged
      expect(paged).toMatchObject({ total: 1, page: 1, page_size: 10 })
      expect(yield* ops.filters).toMatchObject({ account_ids: [{ value: account.id, label: "Scoped" }] })
      expect(yield* ops.get).toEqual(account)

      const refused = { patch: ops.patch, delete: ops.delete, create: ops.create }
      for (const [name, op] of Object.entries(refused)) {
        const tag = yield* outcome(op as Effect.Effect<unknown, { readonly _tag: string }>)
        expect({ name, tag }).toEqual({ name, tag: "Forbidden" })
      }
      // The refused writes changed nothing.
      expect(yield* client.accounts.get_account({ path: { id: account.id }, urlParams: {} })).toEqual(account)
      expect(yield* countAccounts(projectId)).toBe(1)

      for (
        const request of [
          HttpClientRequest.patch(`/v2/accounts/${account.id}`).pipe(json({ status: "inactive" })),
          HttpClientRequest.del(`/v2/accounts/${account.id}`),
          HttpClientRequest.post("/v2/accounts").pipe(json(accountBody()))
        ]
      ) {
        const body = expectErrorBody(yield* send(request.pipe(withKey(scopedKey))), 403)
        expect(body.message).toContain(request.method)
      }
      expect(yield* countAccounts(projectId)).toBe(1)
    }))

  it.effect("accounts: every accounts operation is allowed", () =>
    Effect.gen(function*() {
      const { account, client, projectId, scoped } = yield* scopedSetup("accounts")
      expect(yield* scoped.accounts.list_accounts({ urlParams: {} })).toEqual([account])
      expect(yield* scoped.accounts.list_accounts({ urlParams: { page: 1 } })).toMatchObject({ total: 1 })
      expect((yield* scoped.accounts.list_account_filters()).account_ids)
        .toEqual([{ value: account.id, label: "Scoped" }])
      expect(yield* scoped.accounts.get_account({ path: { id: account.id }, urlParams: {} })).toEqual(account)
      const patched = yield* scoped.accounts.patch_account({
        path: { id: account.id },
        urlParams: {},
        payload: { status: "inactive" }
      })
      expect(patched.status).toBe("inactive")
      const created = yield* scoped.accounts.create_account({ payload: accountBody({ name: "By accounts key" }) })
      expect(created.name).toBe("By accounts key")
      expect(yield* countAccounts(projectId)).toBe(2)
      yield* scoped.accounts.delete_account({ path: { id: account.id } })
      expect((yield* client.accounts.get_account({ path: { id: account.id }, urlParams: {} }).pipe(Effect.flip))._tag)
        .toBe("NotFound")
      expect(yield* countAccounts(projectId)).toBe(1)
    }))

  it.effect("actions: every accounts operation is 403", () =>
    Effect.gen(function*() {
      const { account, client, projectId, scoped, scopedKey } = yield* scopedSetup("actions")
      const ops = everyAccountsOperation(scoped, account.id)
      for (const [name, op] of Object.entries(ops)) {
        const tag = yield* outcome(op as Effect.Effect<unknown, { readonly _tag: string }>)
        expect({ name, tag }).toEqual({ name, tag: "Forbidden" })
      }
      expect(yield* client.accounts.get_account({ path: { id: account.id }, urlParams: {} })).toEqual(account)
      expect(yield* countAccounts(projectId)).toBe(1)
      for (const request of accountRequests(account.id)) {
        expectErrorBody(yield* send(request.pipe(withKey(scopedKey))), 403)
      }
      expect(yield* countAccounts(projectId)).toBe(1)
    }))

  it.effect("full_access: every accounts operation is allowed", () =>
    Effect.gen(function*() {
      const { account, projectId, scoped } = yield* scopedSetup("full_access")
      const ops = everyAccountsOperation(scoped, account.id)
      expect(yield* ops.list).toEqual([account])
      expect(yield* ops.list_paged).toMatchObject({ total: 1 })
      expect((yield* ops.filters).account_ids).toEqual([{ value: account.id, label: "Scoped" }])
      expect(yield* ops.get).toEqual(account)
      expect((yield* ops.patch).status).toBe("inactive")
      yield* ops.delete
      expect(yield* countAccounts(projectId)).toBe(0)
      expect((yield* ops.create).name).toBe("Created by scoped key")
      expect(yield* countAccounts(projectId)).toBe(1)
    }))

  it.effect("a Forbidden error reaches the client as a Forbidden with status 403", () =>
    Effect.gen(function*() {
      const { account, scoped } = yield* scopedSetup("read_only")
      const error = yield* scoped.accounts.delete_account({ path: { id: account.id } }).pipe(Effect.flip)
      expect(error._tag).toBe("Forbidden")
      if (error._tag !== "Forbidden") return
      expect(error.statusCode).toBe(403)
      expect(error.message.length).toBeGreaterThan(0)
      expect(Date.parse(error.timestamp)).not.toBeNaN()
    }))
})
