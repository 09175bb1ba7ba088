import { HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import type { WebhookEndpointWithSecret } from "@switchyard/api"
import { ConfigProvider, Effect, Exit, Layer } from "effect"
import { SwitchyardConfig } from "../src/platform/Config.js"
import { WebhooksRepo } from "../src/features/webhooks/WebhooksRepo.js"
import { Webhook } from "standardwebhooks"
import { accountBody, clientFor, freshProject, keyFor, otherProject } from "./support/Fixtures.js"
import { TestServer } from "./support/TestServer.js"
import { eventually, type ReceivedWebhook, WebhookReceiver } from "./support/WebhookReceiver.js"
import { expectErrorBody, json, send, withKey } from "./support/Wire.js"

/** Retries at once (the schedule is configuration), deliveries looked for every 20 ms. */
const fastDelivery = {
  SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1",
  SWITCHYARD_WEBHOOK_RETRY_SECONDS: "0,0,0",
  SWITCHYARD_WEBHOOK_POLL_MS: "20"
}

let paths = 0
const newPath = () => `/hook/${++paths}`

/** What a receiver does: verify the signature with the Standard Webhooks library, then parse. */
const verified = (secret: string, request: ReceivedWebhook) =>
  new Webhook(secret).verify(request.body, request.headers) as {
    readonly id: string
    readonly type: string
    readonly created_at: string
    readonly sequence: number
    readonly data: Record<string, unknown>
  }

const receivedCount = (received: (path: string) => ReadonlyArray<ReceivedWebhook>, path: string, count: number) =>
  eventually(Effect.sync(() => received(path).length >= count ? received(path) : undefined), `${count} requests on ${path}`)

const allEvents = [
  "account.created",
  "account.updated",
  "account.deleted",
  "connect_session.completed",
  "connect_session.failed"
] as const

layer(TestServer(fastDelivery), { excludeTestServices: true })("webhooks", (it) => {
  it.scoped("account created, updated and deleted events arrive signed, in order, without credentials", () =>
    Effect.gen(function*() {
      const receiver = yield* WebhookReceiver
      const { client, projectId } = yield* freshProject
      const path = newPath()
      const endpoint = yield* client.webhooks.create_webhook({
        payload: { url: receiver.url(path), events: [...allEvents], description: "CRM sync" }
      })
      expect(endpoint).toMatchObject({ project_id: projectId, enabled: true, description: "CRM sync", disabled_reason: null })
      expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/)
      const read = yield* client.webhooks.get_webhook({ path: { id: endpoint.id } })
      expect(read).not.toHaveProperty("secret")
      const listed = yield* client.webhooks.list_webhooks({ urlParams: {} })
      expect(listed.data.map(({ id }) => id)).toEqual([endpoint.id])

      const account = yield* client.accounts.create_account({ payload: accountBody() })
      yield* client.accounts.patch_account({
        path: { id: account.id },
        urlParams: {},
        payload: { status: "error", status_reasons: [{ code: "auth_failed", description: "key revoked" }] }
      })
      yield* client.accounts.delete_account({ path: { id: account.id } })

      const requests = yield* receivedCount(receiver.received, path, 3)
      const events = requests.map((request) => verified(endpoint.secret, request))
      expect(events.map(({ type }) => type)).toEqual(["account.created", "account.updated", "account.deleted"])
      expect(events[0]!.data).toMatchObject({ id: account.id, name: "Acme Recruiting", status: "active" })
      expect(events[1]!.data).toMatchObject({
        id: account.id,
        status: "error",
        status_reasons: [{ code: "auth_failed", description: "key revoked" }]
      })
      expect(events[2]!.data).toMatchObject({ id: account.id })
      expect(events[0]!.sequence).toBeLessThan(events[1]!.sequence)
      expect(events[1]!.sequence).toBeLessThan(events[2]!.sequence)
      for (const [index, request] of requests.entries()) {
        expect(request.headers["webhook-id"]).toBe(events[index]!.id)
        expect(request.headers["content-type"]).toMatch(/^application\/json/)
        expect(request.body).not.toContain("gh-super-secret-value")
        expect(events[index]!.data).not.toHaveProperty("credentials")
      }
      // a wrong secret does not verify
      expect(() => verified(`whsec_${Buffer.alloc(32, 1).toString("base64")}`, requests[0]!)).toThrow()
    }))

  it.scoped("an endpoint gets only the events it subscribed to, and a disabled one none", () =>
    Effect.gen(function*() {
      const receiver = yield* WebhookReceiver
      const { client } = yield* freshProject
      const deletions = newPath()
      const disabled = newPath()
      const deleted = yield* client.webhooks.create_webhook({ payload: { url: receiver.url(deletions), events: ["account.deleted"] } })
      yield* client.webhooks.create_webhook({ payload: { url: receiver.url(disabled), events: [...allEvents], enabled: false } })
      const account = yield* client.accounts.create_account({ payload: accountBody() })
      yield* client.accounts.delete_account({ path: { id: account.id } })
      const [request] = yield* receivedCount(receiver.received, deletions, 1)
      expect(verified(deleted.secret, request!).type).toBe("account.deleted")
      const deliveries = yield* client.webhooks.list_webhook_deliveries({ path: { id: deleted.id }, urlParams: {} })
      expect(deliveries.data.map(({ event_type }) => event_type)).toEqual(["account.deleted"])
      // which account the event is about, so a failed delivery leads to that account's requests
      expect(deliveries.data[0]!.account_id).toBe(account.id)
      expect(receiver.received(disabled)).toEqual([])
    }))

  it.scoped("a receiver that fails then recovers gets the event again, with the same webhook-id", () =>
    Effect.gen(function*() {
      const receiver = yield* WebhookReceiver
      const { client } = yield* freshProject
      const path = newPath()
      receiver.script(path, [{ status: 500 }, { status: 503 }])
      const endpoint = yield* client.webhooks.create_webhook({ payload: { url: receiver.url(path), events: ["account.created"] } })
      yield* client.accounts.create_account({ payload: accountBody() })
      const requests = yield* receivedCount(receiver.received, path, 3)
      const ids = requests.map((request) => verified(endpoint.secret, request).id)
      expect(new Set(ids).size).toBe(1)
      const delivery = yield* eventually(
        Effect.map(
          client.webhooks.list_webhook_deliveries({ path: { id: endpoint.id }, urlParams: {} }),
          ({ data }) => data[0]?.status === "succeeded" ? data[0] : undefined
        ),
        "the delivery to succeed"
      )
      expect(delivery).toMatchObject({ attempts: 3, last_status_code: 200, next_attempt_at: null, event_id: ids[0] })
      expect(delivery.last_attempt_at).not.toBeNull()
    }))

  it.scoped("a delivery that fails every attempt ends failed; retry sends it again", () =>
    Effect.gen(function*() {
      const receiver = yield* WebhookReceiver
      const { client } = yield* freshProject
      const path = newPath()
      // the first attempt and the three retries of the test schedule
      receiver.script(path, [{ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }])
      const endpoint = yield* client.webhooks.create_webhook({ payload: { url: receiver.url(path), events: ["account.created"] } })
      const queued = yield* client.webhooks.test_webhook({ path: { id: endpoint.id } })
      expect(queued).toMatchObject({ endpoint_id: endpoint.id, event_type: "webhook.test", account_id: null, status: "pending", attempts: 0 })
      const failed = yield* eventually(
        Effect.map(
          client.webhooks.list_webhook_deliveries({ path: { id: endpoint.id }, urlParams: {} }),
          ({ data }) => data[0]?.status === "failed" ? data[0] : undefined
        ),
        "the delivery to fail"
      )
      expect(failed).toMatchObject({ id: queued.id, attempts: 4, last_status_code: 500, next_attempt_at: null })
      expect(receiver.received(path)).toHaveLength(4)

      const retried = yield* client.webhooks.retry_webhook_delivery({ path: { id: endpoint.id, delivery_id: queued.id } })
      expect(retried).toMatchObject({ id: queued.id, status: "pending" })
      const delivered = yield* eventually(
        Effect.map(
          client.webhooks.list_webhook_deliveries({ path: { id: endpoint.id }, urlParams: {} }),
          ({ data }) => data[0]?.status === "succeeded" ? data[0] : undefined
        ),
        "the retried delivery to succeed"
      )
      expect(delivered).toMatchObject({ attempts: 5, last_status_code: 200 })
      const requests = receiver.received(path)
      expect(verified(endpoint.secret, requests[4]!)).toMatchObject({ type: "webhook.test", data: { endpoint_id: endpoint.id } })
      // the endpoint still works: the failing-for-days rule has not fired
      expect(yield* client.webhooks.get_webhook({ path: { id: endpoint.id } })).toMatchObject({ enabled: true })
    }))

  it.scoped("Retry-After postpones the next attempt", () =>
    Effect.gen(function*() {
      const receiver = yield* WebhookReceiver
      const { client } = yield* freshProject
      const path = newPath()
      receiver.script(path, [{ status: 503, headers: { "retry-after": "3600" } }])
      const endpoint = yield* client.webhooks.create_webhook({ payload: { url: receiver.url(path), events: ["account.created"] } })
      const before = Date.now()
      yield* client.webhooks.test_webhook({ path: { id: endpoint.id } })
      const waiting = yield* eventually(
        Effect.map(
          client.webhooks.list_webhook_deliveries({ path: { id: endpoint.id }, urlParams: {} }),
          ({ data }) => data[0]?.attempts === 1 ? data[0] : undefined
        ),
        "the first attempt"
      )
      expect(waiting).toMatchObject({ status: "pending", last_status_code: 503 })
      expect(Date.parse(waiting.next_attempt_at!)).toBeGreaterThanOrEqual(before + 3_590_000)
    }))

  it.scoped("a Retry-After of a year waits a day at most", () =>
    Effect.gen(function*() {
      const receiver = yield* WebhookReceiver
      const { client } = yield* freshProject
      const path = newPath()
      receiver.script(path, [{ status: 503, headers: { "retry-after": String(365 * 86_400) } }])
      const endpoint = yield* client.webhooks.create_webhook({ payload: { url: receiver.url(path), events: ["account.created"] } })
      yield* client.webhooks.test_webhook({ path: { id: endpoint.id } })
      const waiting = yield* eventually(
        Effect.map(
          client.webhooks.list_webhook_deliveries({ path: { id: endpoint.id }, urlParams: {} }),
          ({ data }) => data[0]?.attempts === 1 ? data[0] : undefined
        ),
        "the first attempt"
      )
      expect(waiting).toMatchObject({ status: "pending", last_status_code: 503 })
      const after = Date.now()
      expect(Date.parse(waiting.next_attempt_at!)).toBeGreaterThanOrEqual(after + 86_400_000 - 600_000)
      expect(Date.parse(waiting.next_attempt_at!)).toBeLessThanOrEqual(after + 86_400_000 + 1_000)
    }))

  it.scoped("410 Gone disables the endpoint with the reason; re-enabling clears it", () =>
    Effect.gen(function*() {
      const receiver = yield* WebhookReceiver
      const { client } = yield* freshProject
      const path = newPath()
      receiver.script(path, [{ status: 410 }])
      const endpoint = yield* client.webhooks.create_webhook({ payload: { url: receiver.url(path), events: ["account.created"] } })
      yield* client.accounts.create_account({ payload: accountBody() })
      const disabled = yield* eventually(
        Effect.map(client.webhooks.get_webhook({ path: { id: endpoint.id } }), (read) => read.enabled ? undefined : read),
        "the endpoint to be disabled"
      )
      expect(disabled.disabled_reason).toBe("the endpoint answered 410 Gone")
      const [delivery] = (yield* client.webhooks.list_webhook_deliveries({ path: { id: endpoint.id }, urlParams: {} })).data
      expect(delivery).toMatchObject({ status: "failed", attempts: 1, last_status_code: 410, next_attempt_at: null })
      // disabled: the next event is not delivered to it
      yield* client.accounts.create_account({ payload: accountBody() })
      expect((yield* client.webhooks.list_webhook_deliveries({ path: { id: endpoint.id }, urlParams: {} })).data).toHaveLength(1)

      const enabled = yield* client.webhooks.update_webhook({ path: { id: endpoint.id }, payload: { enabled: true } })
      expect(enabled).toMatchObject({ enabled: true, disabled_reason: null })
    }))

  it.scoped("after a rotation both secrets sign for 24 hours", () =>
    Effect.gen(function*() {
      const receiver = yield* WebhookReceiver
      const { client } = yield* freshProject
      const path = newPath()
      const endpoint = yield* client.webhooks.create_webhook({ payload: { url: receiver.url(path), events: ["account.created"] } })
      const before = Date.now()
      const rotated: WebhookEndpointWithSecret = yield* client.webhooks.rotate_webhook_secret({ path: { id: endpoint.id } })
      expect(rotated.secret).not.toBe(endpoint.secret)
      expect(rotated.secret).toMatch(/^whsec_/)
      const overlapEnds = Date.parse(rotated.previous_secret_expires_at!)
      expect(overlapEnds).toBeGreaterThanOrEqual(before + 24 * 3600 * 1000 - 60_000)
      expect(overlapEnds).toBeLessThanOrEqual(Date.now() + 24 * 3600 * 1000 + 60_000)

      yield* client.webhooks.test_webhook({ path: { id: endpoint.id } })
      const [request] = yield* receivedCount(receiver.received, path, 1)
      const signatures = request!.headers["webhook-signature"]!.split(" ")
      expect(signatures).toHaveLength(2)
      expect(signatures.every((signature) => signature.startsWith("v1,"))).toBe(true)
      // a receiver holding either secret accepts it
      expect(verified(rotated.secret, request!).type).toBe("webhook.test")
      expect(verified(endpoint.secret, request!).type).toBe("webhook.test")
      // and each signature is one secret's: the new one's comes first
      const onlyNew = { ...request!.headers, "webhook-signature": signatures[0]! }
      expect(() => new Webhook(rotated.secret).verify(request!.body, onlyNew)).not.toThrow()
      expect(() => new Webhook(endpoint.secret).verify(request!.body, onlyNew)).toThrow()
    }))

  it.scoped("patch changes url, events and description; delete removes the endpoint", () =>
    Effect.gen(function*() {
      const receiver = yield* WebhookReceiver
      const { client } = yield* freshProject
      const endpoint = yield* client.webhooks.create_webhook({
        payload: { url: receiver.url(newPath()), events: ["account.created"], description: "first" }
      })
      const url = receiver.url(newPath())
      const patched = yield* client.webhooks.update_webhook({
        path: { id: endpoint.id },
        payload: { url, events: ["account.deleted", "account.deleted"], description: null }
      })
      expect(patched).toMatchObject({ url, events: ["account.deleted"], description: null, enabled: true })
      yield* client.webhooks.delete_webhook({ path: { id: endpoint.id } })
      const gone = yield* Effect.flip(client.webhooks.get_webhook({ path: { id: endpoint.id } }))
      expect(gone._tag).toBe("NotFound")
      expect((yield* client.webhooks.list_webhooks({ urlParams: {} })).data).toEqual([])
    }))

  it.scoped("another project's endpoints and deliveries are not found, on every operation", () =>
    Effect.gen(function*() {
      const receiver = yield* WebhookReceiver
      const { client } = yield* freshProject
      const endpoint = yield* client.webhooks.create_webhook({ payload: { url: receiver.url(newPath()), events: ["account.created"] } })
      const delivery = yield* client.webhooks.test_webhook({ path: { id: endpoint.id } })
      const other = yield* otherProject
      const stranger = yield* clientFor(other.key)
      const path = { id: endpoint.id }
      const attempts = [
        stranger.webhooks.get_webhook({ path }),
        stranger.webhooks.update_webhook({ path, payload: { enabled: false } }),
        stranger.webhooks.delete_webhook({ path }),
        stranger.webhooks.rotate_webhook_secret({ path }),
        stranger.webhooks.test_webhook({ path }),
        stranger.webhooks.list_webhook_deliveries({ path, urlParams: {} }),
        stranger.webhooks.retry_webhook_delivery({ path: { id: endpoint.id, delivery_id: delivery.id } })
      ]
      for (const attempt of attempts) {
        const error = yield* Effect.flip(attempt)
        expect(error._tag).toBe("NotFound")
      }
      expect((yield* stranger.webhooks.list_webhooks({ urlParams: {} })).data).toEqual([])
      // the owner still has it, unchanged
      expect(yield* client.webhooks.get_webhook({ path })).toMatchObject({ enabled: true })
      // an unknown delivery of one's own endpoint, and malformed ids, are 404 too
      const unknownDelivery = yield* Effect.flip(
        client.webhooks.retry_webhook_delivery({ path: { id: endpoint.id, delivery_id: crypto.randomUUID() } })
      )
      expect(unknownDelivery._tag).toBe("NotFound")
      expect((yield* Effect.flip(client.webhooks.get_webhook({ path: { id: "not-a-uuid" } })))._tag).toBe("NotFound")
    }))

  it.scoped("only the status of an answer counts: a long body is not read, a redirect is not followed", () =>
    Effect.gen(function*() {
      const receiver = yield* WebhookReceiver
      const { client } = yield* freshProject
      const path = newPath()
      receiver.script(path, [
        { status: 302, headers: { location: "http://10.1.2.3/elsewhere" } },
        { status: 500, bodyBytes: 4 * 1024 * 1024 },
        { status: 200, bodyBytes: 4 * 1024 * 1024 }
      ])
      const endpoint = yield* client.webhooks.create_webhook({ payload: { url: receiver.url(path), events: ["account.created"] } })
      yield* client.webhooks.test_webhook({ path: { id: endpoint.id } })
      const delivered = yield* eventually(
        Effect.map(
          client.webhooks.list_webhook_deliveries({ path: { id: endpoint.id }, urlParams: {} }),
          ({ data }) => data[0]?.status === "succeeded" ? data[0] : undefined
        ),
        "the delivery to succeed"
      )
      // the redirect and the 500 were failures; the third attempt's 200 counted, its 4 MiB unread
      expect(delivered).toMatchObject({ attempts: 3, last_status_code: 200 })
      expect(receiver.received(path)).toHaveLength(3)
    }))

  it.scoped("the address guard applies at send too: a URL that now reaches a private address is not called", () =>
    Effect.gen(function*() {
      const { client } = yield* freshProject
      const endpoint = yield* client.webhooks.create_webhook({
        payload: { url: "http://127.0.0.1:9/hook", events: ["account.created"] }
      })
      // as if its name now resolved to a private address: what is stored is what is checked at send
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE webhook_endpoints SET url = 'http://10.1.2.3/hook' WHERE id = ${endpoint.id}::uuid`
      yield* client.webhooks.test_webhook({ path: { id: endpoint.id } })
      const refused = yield* eventually(
        Effect.map(
          client.webhooks.list_webhook_deliveries({ path: { id: endpoint.id }, urlParams: {} }),
          ({ data }) => data[0]?.status === "failed" ? data[0] : undefined
        ),
        "the delivery to fail"
      )
      expect(refused).toMatchObject({ attempts: 4, last_status_code: null })
      expect(refused.last_error).toContain("private address")
      expect(refused.last_error).toContain("set SWITCHYARD_OUTBOUND_ALLOWLIST=10.1.2.3 on the server")
    }))

  it.scoped("managing endpoints needs a Full Access key; a read-only key may look", () =>
    Effect.gen(function*() {
      const receiver = yield* WebhookReceiver
      const { client, projectId } = yield* freshProject
      const endpoint = yield* client.webhooks.create_webhook({ payload: { url: receiver.url(newPath()), events: ["account.created"] } })
      const readOnly = yield* clientFor((yield* keyFor(projectId, "read_only")).key)
      expect((yield* readOnly.webhooks.list_webhooks({ urlParams: {} })).data.map(({ id }) => id)).toEqual([endpoint.id])
      expect((yield* Effect.flip(readOnly.webhooks.rotate_webhook_secret({ path: { id: endpoint.id } })))._tag).toBe("Forbidden")
      for (const scope of ["accounts", "actions"] as const) {
        const narrow = yield* clientFor((yield* keyFor(projectId, scope)).key)
        expect((yield* Effect.flip(narrow.webhooks.list_webhooks({ urlParams: {} })))._tag).toBe("Forbidden")
        const created = yield* Effect.flip(
          narrow.webhooks.create_webhook({ payload: { url: receiver.url(newPath()), events: ["account.created"] } })
        )
        expect(created._tag).toBe("Forbidden")
      }
    }))

  it.scoped("bad input answers 400 naming the field, and private addresses are refused", () =>
    Effect.gen(function*() {
      const { key, client } = yield* freshProject
      const post = (body: unknown) => send(HttpClientRequest.post("/webhooks").pipe(withKey(key), json(body)))
      const cases: ReadonlyArray<readonly [unknown, string]> = [
        [{ events: ["account.created"] }, "url"],
        [{ url: "ftp://example.com/hook", events: ["account.created"] }, "url"],
        [{ url: "not a url", events: ["account.created"] }, "url"],
        [{ url: "https://example.com/hook" }, "events"],
        [{ url: "https://example.com/hook", events: [] }, "events"],
        [{ url: "https://example.com/hook", events: ["account.exploded"] }, "events"],
        [{ url: "https://example.com/hook", events: ["account.created"], enabled: "yes" }, "enabled"],
        [{ url: "https://example.com/hook", events: ["account.created"], description: "x".repeat(501) }, "description"],
        [{ url: "https://example.com/hook", events: ["account.created"], secret: "mine" }, "secret"],
        [{ url: "http://10.1.2.3/hook", events: ["account.created"] }, "url"],
        [{ url: "http://[::1]:8080/hook", events: ["account.created"] }, "url"],
        [{ url: "http://169.254.169.254/latest", events: ["account.created"] }, "url"]
      ]
      for (const [body, field] of cases) {
        const response = yield* post(body)
        const error = expectErrorBody(response, 400)
        expect({ body, message: error.message }).toMatchObject({ message: expect.stringContaining(field) })
      }
      const refused = expectErrorBody(yield* post({ url: "http://10.1.2.3/hook", events: ["account.created"] }), 400)
      expect(refused.message).toContain("private address")
      expect(refused.message).toContain("set SWITCHYARD_OUTBOUND_ALLOWLIST=10.1.2.3 on the server")
      expect((yield* client.webhooks.list_webhooks({ urlParams: {} })).data).toEqual([])

      // patch is checked the same way
      const endpoint = yield* client.webhooks.create_webhook({
        payload: { url: "http://127.0.0.1:9/hook", events: ["account.created"] }
      })
      const patched = yield* send(
        HttpClientRequest.patch(`/webhooks/${endpoint.id}`).pipe(withKey(key), json({ url: "http://192.168.0.10/" }))
      )
      expect(expectErrorBody(patched, 400).message).toContain("url")
      expect((yield* client.webhooks.get_webhook({ path: { id: endpoint.id } })).url).toBe("http://127.0.0.1:9/hook")
    }))

  it.scoped("an event is written with its change: a refused change writes none", () =>
    Effect.gen(function*() {
      const receiver = yield* WebhookReceiver
      const { client, projectId } = yield* freshProject
      yield* client.webhooks.create_webhook({ payload: { url: receiver.url(newPath()), events: [...allEvents] } })
      const sql = yield* SqlClient.SqlClient
      const count = Effect.map(
        sql<{ n: number }>`SELECT count(*)::int AS n FROM webhook_events WHERE project_id = ${projectId}`,
        (rows) => Number(rows[0]!.n)
      )
      // an unknown account: the patch and delete fail, and no event is stored
      yield* Effect.flip(client.accounts.patch_account({ path: { id: "missing" }, urlParams: {}, payload: { status: "error" } }))
      yield* Effect.flip(client.accounts.delete_account({ path: { id: "missing" } }))
      expect(yield* count).toBe(0)
      yield* client.accounts.create_account({ payload: accountBody() })
      expect(yield* count).toBe(1)
    }))
  it.scoped("retention deletes old events with nothing left to send, and keeps pending ones", () =>
    Effect.gen(function*() {
      const receiver = yield* WebhookReceiver
      const { client, projectId } = yield* freshProject
      const path = newPath()
      const endpoint = yield* client.webhooks.create_webhook({ payload: { url: receiver.url(path), events: ["account.created"] } })
      const delivered = yield* client.webhooks.test_webhook({ path: { id: endpoint.id } })
      yield* receivedCount(receiver.received, path, 1)
      receiver.script(path, [{ status: 503, headers: { "retry-after": "3600" } }])
      const waiting = yield* client.webhooks.test_webhook({ path: { id: endpoint.id } })
      yield* eventually(
        Effect.map(client.webhooks.list_webhook_deliveries({ path: { id: endpoint.id }, urlParams: {} }), ({ data }) =>
          data.find(({ id }) => id === delivered.id)?.status === "succeeded" &&
            data.find(({ id }) => id === waiting.id)?.attempts === 1
            ? data
            : undefined),
        "one delivered, one waiting"
      )
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE webhook_events SET created_at = now() - interval '40 days' WHERE project_id = ${projectId}`
      const repo = yield* Effect.provide(WebhooksRepo, WebhooksRepo.Default)
      expect(yield* repo.deleteFinishedOlderThan(30, 100)).toBe(1)
      const left = yield* client.webhooks.list_webhook_deliveries({ path: { id: endpoint.id }, urlParams: {} })
      expect(left.data.map(({ id, status }) => ({ id, status }))).toEqual([{ id: waiting.id, status: "pending" }])
    }))

  it.effect("a delivery lease shorter than an attempt's timeout is a configuration error", () =>
    Effect.gen(function*() {
      const load = (values: Record<string, string>) =>
        Effect.exit(Effect.provide(
          SwitchyardConfig,
          SwitchyardConfig.Default.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(values))))))
        ))
      const refused = yield* load({ SWITCHYARD_WEBHOOK_TIMEOUT_MS: "30000", SWITCHYARD_WEBHOOK_LEASE_SECONDS: "30" })
      expect(Exit.isFailure(refused)).toBe(true)
      expect(String(Exit.isFailure(refused) ? refused.cause : "")).toContain("SWITCHYARD_WEBHOOK_LEASE_SECONDS must be longer")
      const accepted = yield* load({ SWITCHYARD_WEBHOOK_TIMEOUT_MS: "30000", SWITCHYARD_WEBHOOK_LEASE_SECONDS: "31" })
      expect(Exit.isSuccess(accepted)).toBe(true)
      const badSchedule = yield* load({ SWITCHYARD_WEBHOOK_RETRY_SECONDS: "5,soon" })
      expect(Exit.isFailure(badSchedule)).toBe(true)
    }))
})

layer(
  TestServer({ ...fastDelivery, SWITCHYARD_WEBHOOK_RETRY_SECONDS: "0,0,0,0,0,0", SWITCHYARD_WEBHOOK_DISABLE_AFTER_SECONDS: "0" }),
  { excludeTestServices: true }
)("webhooks failing for days", (it) => {
  it.scoped("an endpoint whose deliveries keep failing past the configured span is disabled with a reason", () =>
    Effect.gen(function*() {
      const receiver = yield* WebhookReceiver
      const { client } = yield* freshProject
      const path = newPath()
      receiver.script(path, Array.from({ length: 10 }, () => ({ status: 500 })))
      const endpoint = yield* client.webhooks.create_webhook({ payload: { url: receiver.url(path), events: ["account.created"] } })
      yield* client.webhooks.test_webhook({ path: { id: endpoint.id } })
      const disabled = yield* eventually(
        Effect.map(client.webhooks.get_webhook({ path: { id: endpoint.id } }), (read) => read.enabled ? undefined : read),
        "the endpoint to be disabled"
      )
      expect(disabled.disabled_reason).toMatch(/^every delivery has failed since \d{4}-\d\d-\d\dT[\d:]+Z; last: HTTP 500$/)
    }))
})
