import { HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { MAX_ACTIVE_API_KEYS } from "@switchyard/api"
import { Effect } from "effect"
import { hashApiKey } from "../src/features/auth/ApiKeys.js"
import { clientFor, freshProject, keyFor, otherProject } from "./support/Fixtures.js"
import { TestServer } from "./support/TestServer.js"
import { eventually } from "./support/WebhookReceiver.js"
import { expectErrorBody, json, send, withKey } from "./support/Wire.js"

/*
 * `/v2/api_keys` through the derived client and on the wire: a key is shown once and stored as
 * a hash, works at once and stops at once when revoked, is managed by Full Access keys only,
 * stays within its project, and bad input is refused with nothing stored.
 */

const get = (key: string, path: string) => send(HttpClientRequest.get(path).pipe(withKey(key)))
const post = (key: string, path: string, body: unknown) => send(HttpClientRequest.post(path).pipe(withKey(key), json(body)))
const del = (key: string, path: string) => send(HttpClientRequest.del(path).pipe(withKey(key)))

const countKeys = (projectId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ n: number }>`SELECT count(*)::int AS n FROM api_keys WHERE project_id = ${projectId}`).pipe(
    Effect.map((rows) => rows[0]!.n),
    Effect.orDie
  )

// usage is flushed every second, so the stored last use is seen without waiting long
layer(TestServer({ SWITCHYARD_LAST_REQUEST_FLUSH_SECONDS: "1" }), { excludeTestServices: true })("API keys", (it) => {
  it.effect("a created key is shown once, stored as a hash, works at once, and its use is recorded", () =>
    Effect.gen(function*() {
      const { client, projectId } = yield* freshProject
      const created = yield* client.api_keys.create_api_key({ payload: { name: "  CI pipeline  ", scope: "read_only" } })
      expect(created).toMatchObject({ project_id: projectId, name: "CI pipeline", scope: "read_only", last_used_at: null, revoked_at: null })
      expect(created.key).toMatch(/^swy_[A-Za-z0-9_-]{43}$/)
      expect(created.key.startsWith(created.key_prefix)).toBe(true)
      expect(created.key_prefix).toHaveLength(10)

      // stored as its hash only: no column holds the key
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<Record<string, unknown>>`SELECT * FROM api_keys WHERE id = ${created.id}`
      expect(row!["key_hash"]).toBe(hashApiKey(created.key))
      expect(JSON.stringify(row)).not.toContain(created.key)

      // listed without the key; the new key reads at once and its use shows
      const listed = yield* client.api_keys.list_api_keys({ urlParams: {} })
      const entry = listed.data.find(({ id }) => id === created.id)
      expect(entry).toMatchObject({ name: "CI pipeline", scope: "read_only", key_prefix: created.key_prefix })
      expect(entry).not.toHaveProperty("key")
      expect(JSON.stringify(listed)).not.toContain(created.key)
      expect((yield* get(created.key, "/v2/accounts")).status).toBe(200)
      const used = (yield* client.api_keys.list_api_keys({ urlParams: {} })).data.find(({ id }) => id === created.id)!
      expect(used.last_used_at).not.toBeNull()
      expect(Math.abs(Date.parse(used.last_used_at!) - Date.now())).toBeLessThan(60_000)

      // the flush job writes the last use to the database, where every process reads it
      const stored = yield* eventually(
        sql<{ at: Date | null }>`SELECT last_used_at AS at FROM api_keys WHERE id = ${created.id}`.pipe(
          Effect.map((rows) => rows[0]?.at ?? undefined),
          Effect.orDie
        ),
        "the key's last use in the database"
      )
      expect(stored.getTime()).toBeLessThanOrEqual(Date.parse(used.last_used_at!))
      // omitted scope is Full Access
      const full = yield* client.api_keys.create_api_key({ payload: { name: "admin" } })
      expect(full.scope).toBe("full_access")
      expect((yield* get(full.key, "/v2/api_keys")).status).toBe(200)
    }))

  it.effect("a revoked key stops at once, is listed only when asked for, and cannot be revoked twice", () =>
    Effect.gen(function*() {
      const { client, key: adminKey } = yield* freshProject
      const created = yield* client.api_keys.create_api_key({ payload: { name: "to revoke", scope: "actions" } })
      expect((yield* post(created.key, "/actions/rpc", {})).status).not.toBe(401)
      const revoked = yield* client.api_keys.revoke_api_key({ path: { id: created.id } })
      expect(revoked).toMatchObject({ id: created.id, name: "to revoke" })
      expect(revoked.revoked_at).not.toBeNull()
      expect(revoked).not.toHaveProperty("key")
      expectErrorBody(yield* post(created.key, "/actions/rpc", {}), 401)

      const active = yield* client.api_keys.list_api_keys({ urlParams: {} })
      expect(active.data.map(({ id }) => id)).not.toContain(created.id)
      const all = yield* client.api_keys.list_api_keys({ urlParams: { include_revoked: "true" } })
      expect(all.data.find(({ id }) => id === created.id)?.revoked_at).toBe(revoked.revoked_at)

      const again = expectErrorBody(yield* del(adminKey, `/v2/api_keys/${created.id}`), 404)
      expect(again.message).toContain(created.id)
      expectErrorBody(yield* del(adminKey, "/v2/api_keys/not-a-uuid"), 404)
    }))

  it.effect("only Full Access keys manage keys: any other scope is 403, reads included, and nothing is created", () =>
    Effect.gen(function*() {
      const { projectId } = yield* freshProject
      const before = yield* countKeys(projectId)
      for (const scope of ["read_only", "accounts", "actions"] as const) {
        const { id, key } = yield* keyFor(projectId, scope)
        const listed = expectErrorBody(yield* get(key, "/v2/api_keys"), 403)
        expect(listed.message).toContain("/v2/api_keys")
        expectErrorBody(yield* post(key, "/v2/api_keys", { name: "escalated", scope: "full_access" }), 403)
        expectErrorBody(yield* del(key, `/v2/api_keys/${id}`), 403)
      }
      // the three keys made above, nothing by the refused requests
      expect(yield* countKeys(projectId)).toBe(before + 3)
    }))

  it.effect("another project's keys are neither listed nor revocable", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const other = yield* otherProject
      const otherClient = yield* clientFor(other.key)
      const theirs = yield* otherClient.api_keys.create_api_key({ payload: { name: "theirs" } })
      const mine = yield* client.api_keys.list_api_keys({ urlParams: { include_revoked: "true" } })
      expect(mine.data.map(({ id }) => id)).not.toContain(theirs.id)
      expect(mine.data.every(({ project_id }) => project_id !== other.project.id)).toBe(true)
      const refused = yield* client.api_keys.revoke_api_key({ path: { id: theirs.id } }).pipe(Effect.flip)
      expect(refused._tag).toBe("NotFound")
      expect((yield* get(theirs.key, "/v2/api_keys")).status).toBe(200)
    }))

  it.effect("bad input is a 400 that names the field, and stores nothing", () =>
    Effect.gen(function*() {
      const { key, projectId } = yield* freshProject
      const before = yield* countKeys(projectId)
      const cases: ReadonlyArray<readonly [unknown, string]> = [
        [{}, "name"],
        [{ name: "   " }, "name must not be empty"],
        [{ name: "x".repeat(101) }, "name must be at most 100 characters"],
        [{ name: "ok", scope: "owner" }, 'scope: Expected "full_access", "read_only", "accounts" or "actions", actual "owner"'],
        [{ name: "ok", key: "swy_chosen_by_the_caller_0123456789" }, "key"]
      ]
      for (const [body, expected] of cases) {
        const refused = expectErrorBody(yield* post(key, "/v2/api_keys", body), 400)
        expect(refused.message, JSON.stringify(body)).toContain(expected)
      }
      expectErrorBody(yield* get(key, "/v2/api_keys?page_size=0"), 400)
      expectErrorBody(yield* get(key, "/v2/api_keys?include_revoked=yes"), 400)
      expect(yield* countKeys(projectId)).toBe(before)
    }))

  it.effect("pages newest first; a cursor only continues its own list", () =>
    Effect.gen(function*() {
      const { client, key } = yield* freshProject
      const names = ["first", "second", "third"]
      for (const name of names) yield* client.api_keys.create_api_key({ payload: { name } })
      const seen: Array<string> = []
      let next: string | undefined
      do {
        const page = yield* client.api_keys.list_api_keys({ urlParams: { page_size: 2, ...(next === undefined ? {} : { next }) } })
        expect(page.data.length).toBeLessThanOrEqual(2)
        seen.push(...page.data.map(({ name }) => name))
        next = page.next ?? undefined
      } while (next !== undefined)
      // the fixture's own key is the oldest
      expect(seen).toEqual(["third", "second", "first", "test full_access"])

      const firstPage = yield* client.api_keys.list_api_keys({ urlParams: { page_size: 1 } })
      const cursor = firstPage.next!
      // another project's list, the list with revoked keys, a forged token: each refused naming next
      const other = yield* otherProject
      for (const [who, path] of [
        [other.key, `/v2/api_keys?next=${cursor}`],
        [key, `/v2/api_keys?include_revoked=true&next=${cursor}`],
        [key, `/v2/api_keys?next=${cursor.slice(0, -2)}xx`]
      ] as const) {
        const refused = expectErrorBody(yield* get(who, path), 400)
        expect(refused.message).toContain("next")
      }
    }))

  it.effect(`a project holds at most ${MAX_ACTIVE_API_KEYS} active keys: the next is a 409 until one is revoked`, () =>
    Effect.gen(function*() {
      const { client, key, projectId } = yield* freshProject
      // the fixture's key is the first
      const made: Array<string> = []
      for (let n = 1; n < MAX_ACTIVE_API_KEYS; n++) {
        made.push((yield* client.api_keys.create_api_key({ payload: { name: `key ${n}` } })).id)
      }
      const refused = expectErrorBody(yield* post(key, "/v2/api_keys", { name: "one too many" }), 409)
      expect(refused.message).toContain(`at most ${MAX_ACTIVE_API_KEYS} active API keys`)
      expect(yield* countKeys(projectId)).toBe(MAX_ACTIVE_API_KEYS)
      yield* client.api_keys.revoke_api_key({ path: { id: made[0]! } })
      expect((yield* post(key, "/v2/api_keys", { name: "in its place" })).status).toBe(201)
    }))
})
