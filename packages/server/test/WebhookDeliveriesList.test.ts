import { HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import type { ListWebhookDeliveriesParams } from "@switchyard/api"
import { paginate } from "@switchyard/client"
import { Chunk, Effect, Stream } from "effect"
import { clientFor, freshProject, otherProject } from "./support/Fixtures.js"
import { TestServer } from "./support/TestServer.js"
import { WebhookReceiver } from "./support/WebhookReceiver.js"
import { expectErrorBody, send, withKey } from "./support/Wire.js"

/**
 * `GET /webhooks/{id}/deliveries`: keyset pages newest first, `status` and `event_type`
 * filters. The endpoint is disabled, so nothing is sent and every row stays as the test sets it.
 */
layer(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), { excludeTestServices: true })("webhook deliveries list", (it) => {
  it.scoped("pages newest first without duplicates or gaps, filters by status and event_type, refuses bad input", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const receiver = yield* WebhookReceiver
      const { client, key } = yield* freshProject
      const endpoint = yield* client.webhooks.create_webhook({
        payload: { url: receiver.url("/deliveries-list"), events: ["account.created"], enabled: false }
      })
      const path = { id: endpoint.id }
      const created: Array<string> = []
      for (let i = 0; i < 12; i++) created.push((yield* client.webhooks.test_webhook({ path })).id)
      const newestFirst = [...created].reverse()

      // three deliveries written at the same instant: their events' sequence orders them
      yield* sql`UPDATE webhook_deliveries SET created_at = (SELECT created_at FROM webhook_deliveries WHERE id = ${created[4]!}::uuid)
        WHERE id IN (${created[4]!}::uuid, ${created[5]!}::uuid, ${created[6]!}::uuid)`
      yield* sql`UPDATE webhook_deliveries SET status = 'succeeded' WHERE id IN (${created[1]!}::uuid, ${created[5]!}::uuid, ${created[9]!}::uuid)`
      yield* sql`UPDATE webhook_deliveries SET status = 'failed' WHERE id IN (${created[2]!}::uuid, ${created[7]!}::uuid)`
      yield* sql`UPDATE webhook_events SET type = 'account.created'
        WHERE id IN (SELECT event_id FROM webhook_deliveries WHERE id IN (${created[3]!}::uuid, ${created[7]!}::uuid))`

      const list = (urlParams: ListWebhookDeliveriesParams) => client.webhooks.list_webhook_deliveries({ path, urlParams })
      const all = (urlParams: ListWebhookDeliveriesParams) =>
        Effect.gen(function*() {
          const ids: Array<string> = []
          let next: string | undefined
          for (let pages = 0; pages < 50; pages++) {
            const page = yield* list({ ...urlParams, ...(next === undefined ? {} : { next }) })
            expect(page.data.length).toBeLessThanOrEqual(urlParams.page_size ?? 25)
            ids.push(...page.data.map(({ id }) => id))
            if (page.next === null) return ids
            next = page.next
          }
          throw new Error("more than 50 pages")
        })

      const whole = yield* list({})
      expect(whole.data.map(({ id }) => id)).toEqual(newestFirst)
      expect(whole.next).toBeNull()
      for (const page_size of [1, 3, 5, 12]) {
        expect({ page_size, ids: yield* all({ page_size }) }).toEqual({ page_size, ids: newestFirst })
      }

      // the client's `paginate` follows `next` here as on the unified lists
      const streamed = yield* Stream.runCollect(paginate((cursor) => list({ page_size: 4, ...cursor })))
      expect(Chunk.toReadonlyArray(streamed).map(({ id }) => id)).toEqual(newestFirst)

      // a delivery written while a client pages is newer than the cursor: neither repeated nor skipped
      const first = yield* list({ page_size: 5 })
      const later = yield* client.webhooks.test_webhook({ path })
      const rest = yield* all({ page_size: 5, next: first.next! })
      expect([...first.data.map(({ id }) => id), ...rest]).toEqual(newestFirst)
      expect((yield* list({ page_size: 1 })).data.map(({ id }) => id)).toEqual([later.id])

      const statusOf = (id: string) => ([1, 5, 9].includes(created.indexOf(id)) ? "succeeded" : [2, 7].includes(created.indexOf(id)) ? "failed" : "pending")
      const failed = yield* all({ page_size: 1, status: ["failed"] })
      expect(failed).toEqual([created[7], created[2]])
      const notPending = yield* all({ page_size: 2, status: ["succeeded", "failed"] })
      expect(notPending).toEqual(newestFirst.filter((id) => statusOf(id) !== "pending"))
      const typed = yield* list({ event_type: ["account.created"] })
      expect(typed.data.map(({ id, event_type }) => ({ id, event_type }))).toEqual([
        { id: created[7], event_type: "account.created" },
        { id: created[3], event_type: "account.created" }
      ])
      expect((yield* all({ page_size: 1, status: ["failed"], event_type: ["account.created"] }))).toEqual([created[7]])
      const tests = yield* all({ page_size: 4, event_type: ["webhook.test"], status: ["pending"] })
      expect(tests).toEqual([later.id, ...newestFirst.filter((id) => statusOf(id) === "pending" && ![3, 7].includes(created.indexOf(id)))])

      // the wire form: comma-separated or repeated, and each bad parameter is a 400 naming it
      const get = (query: string) => send(HttpClientRequest.get(`/webhooks/${endpoint.id}/deliveries?${query}`).pipe(withKey(key)))
      const wire = yield* get("status=failed,succeeded&event_type=account.created&event_type=webhook.test")
      expect(wire.status).toBe(200)
      expect((wire.json as { data: ReadonlyArray<{ id: string }> }).data.map(({ id }) => id)).toEqual(
        newestFirst.filter((id) => statusOf(id) !== "pending")
      )
      const other = yield* client.webhooks.create_webhook({
        payload: { url: receiver.url("/deliveries-list-2"), events: ["account.created"], enabled: false }
      })
      // the cursor's own position moved to the other endpoint, under its original signature
      const [body, signature] = first.next!.split(".")
      const foreignCursor = `${Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(body!, "base64url").toString()), w: other.id })
      ).toString("base64url")}.${signature}`
      const cases: ReadonlyArray<readonly [string, string]> = [
        ["page_size=0", "page_size"],
        ["page_size=101", "page_size"],
        ["page_size=ten", "page_size"],
        ["page_size=2.5", "page_size"],
        ["status=delivered", "status"],
        ["event_type=account.exploded", "event_type"],
        ["next=not-a-cursor", "next"],
        [`next=${"a".repeat(600)}`, "next"],
        [`next=${Buffer.from(JSON.stringify({ w: endpoint.id, t: "1 OR 1=1", s: "1" })).toString("base64url")}`, "next"],
        [`next=${foreignCursor}`, "next"]
      ]
      for (const [query, parameter] of cases) {
        const error = expectErrorBody(yield* get(query), 400)
        expect({ query, message: error.message }).toMatchObject({ message: expect.stringContaining(parameter) })
      }
      // another endpoint's cursor is refused there, and its own list still pages
      expect((yield* client.webhooks.list_webhook_deliveries({ path: { id: other.id }, urlParams: {} })).data).toEqual([])

      // another project: the endpoint is not found, whatever the parameters
      const stranger = yield* clientFor((yield* otherProject).key)
      for (const urlParams of [{}, { page_size: 5, next: first.next! }, { status: ["pending" as const] }]) {
        const error = yield* Effect.flip(stranger.webhooks.list_webhook_deliveries({ path, urlParams }))
        expect(error._tag).toBe("NotFound")
      }
    }))

  it.scoped("the endpoints list pages oldest first with next, refuses bad input, and shows only the project's own", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const receiver = yield* WebhookReceiver
      const { client, key, projectId } = yield* freshProject
      const created: Array<string> = []
      for (let i = 0; i < 7; i++) {
        const endpoint = yield* client.webhooks.create_webhook({
          payload: { url: receiver.url(`/endpoints-list/${i}`), events: ["account.created"], enabled: false }
        })
        created.push(endpoint.id)
      }
      // endpoints created at one instant are ordered by id
      yield* sql`UPDATE webhook_endpoints SET created_at = (SELECT created_at FROM webhook_endpoints WHERE id = ${created[2]!}::uuid)
        WHERE id IN (${created[2]!}::uuid, ${created[3]!}::uuid, ${created[4]!}::uuid)`
      const tied = [created[2]!, created[3]!, created[4]!].sort()
      const expected = [created[0], created[1], ...tied, created[5], created[6]]

      const all = (page_size: number) =>
        Effect.gen(function*() {
          const ids: Array<string> = []
          let next: string | undefined
          for (let pages = 0; pages < 20; pages++) {
            const page = yield* client.webhooks.list_webhooks({ urlParams: { page_size, ...(next === undefined ? {} : { next }) } })
            expect(page.data.length).toBeLessThanOrEqual(page_size)
            expect(page.data.every((endpoint) => endpoint.project_id === projectId)).toBe(true)
            ids.push(...page.data.map(({ id }) => id))
            if (page.next === null) return ids
            next = page.next
          }
          throw new Error("more than 20 pages")
        })
      const whole = yield* client.webhooks.list_webhooks({ urlParams: {} })
      expect({ ids: whole.data.map(({ id }) => id), next: whole.next }).toEqual({ ids: expected, next: null })
      for (const page_size of [1, 2, 3, 7]) expect({ page_size, ids: yield* all(page_size) }).toEqual({ page_size, ids: expected })

      const first = yield* client.webhooks.list_webhooks({ urlParams: { page_size: 3 } })
      const get = (query: string) => send(HttpClientRequest.get(`/webhooks?${query}`).pipe(withKey(key)))
      const cases: ReadonlyArray<readonly [string, string]> = [
        ["page_size=0", "page_size"],
        ["page_size=101", "page_size"],
        ["page_size=many", "page_size"],
        ["next=garbage", "next"],
        [`next=${"b".repeat(600)}`, "next"],
        [`next=${Buffer.from(JSON.stringify({ p: projectId, t: "x", i: created[0] })).toString("base64url")}`, "next"]
      ]
      for (const [query, parameter] of cases) {
        const error = expectErrorBody(yield* get(query), 400)
        expect({ query, message: error.message }).toMatchObject({ message: expect.stringContaining(parameter) })
      }
      // another project: its list is its own, and this project's cursor is refused there
      const stranger = yield* clientFor((yield* otherProject).key)
      expect((yield* stranger.webhooks.list_webhooks({ urlParams: {} })).data.map(({ id }) => id)).not.toContain(created[0])
      const refused = yield* Effect.flip(stranger.webhooks.list_webhooks({ urlParams: { next: first.next! } }))
      expect(refused._tag).toBe("BadRequest")
    }))
})
