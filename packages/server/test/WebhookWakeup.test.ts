import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { accountBody, freshProject } from "./support/Fixtures.js"
import { TestServer } from "./support/TestServer.js"
import { type ReceivedWebhook, WebhookReceiver } from "./support/WebhookReceiver.js"

/*
 * Deliveries written by this process start when their transaction commits, not at the next
 * poll: the poll is set to its maximum (60 s) and every event must arrive well within it.
 * The worker's first round runs at start, before the test writes anything, so only the
 * wake-up can send these.
 */

const WITHIN_MS = 20_000

/** Bounded polling (no fixed sleeps): the first defined answer of `check`; fails past `WITHIN_MS`. */
const within = <A, E, R>(check: Effect.Effect<A | undefined, E, R>, what: string) =>
  Effect.gen(function*() {
    const deadline = Date.now() + WITHIN_MS
    while (true) {
      const value = yield* check
      if (value !== undefined) return value
      if (Date.now() > deadline) return yield* Effect.dieMessage(`${what} did not happen within ${WITHIN_MS} ms`)
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
    }
  })

const arrives = (received: () => ReadonlyArray<ReceivedWebhook>, count: number, what: string) =>
  within(Effect.sync(() => received().length >= count ? received() : undefined), `${what} to arrive`)

const typeOf = (request: ReceivedWebhook) => (JSON.parse(request.body) as { readonly type: string }).type

layer(
  TestServer({
    SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1",
    SWITCHYARD_WEBHOOK_POLL_MS: "60000",
    SWITCHYARD_WEBHOOK_RETRY_SECONDS: "3600"
  }),
  { excludeTestServices: true }
)("webhook wake-up", (it) => {
  it.scoped("events committed here are delivered without waiting for the 60 s poll", () =>
    Effect.gen(function*() {
      const receiver = yield* WebhookReceiver
      const { client } = yield* freshProject
      const path = "/wakeup"
      const endpoint = yield* client.webhooks.create_webhook({
        payload: { url: receiver.url(path), events: ["account.created", "account.updated", "account.deleted"] }
      })
      const received = () => receiver.received(path)

      const account = yield* client.accounts.create_account({ payload: accountBody() })
      expect((yield* arrives(received, 1, "account.created")).map(typeOf)).toEqual(["account.created"])

      yield* client.accounts.patch_account({ path: { id: account.id }, urlParams: {}, payload: { status: "suspended" } })
      yield* client.accounts.delete_account({ path: { id: account.id } })
      expect((yield* arrives(received, 3, "account.updated and account.deleted")).map(typeOf)).toEqual([
        "account.created",
        "account.updated",
        "account.deleted"
      ])

      // a test event, refused once: the retry is an hour out, but retrying it by hand sends it at once
      receiver.script(path, [{ status: 500 }])
      const test = yield* client.webhooks.test_webhook({ path: { id: endpoint.id } })
      yield* arrives(received, 4, "webhook.test")
      const failedOnce = yield* within(
        Effect.map(
          client.webhooks.list_webhook_deliveries({ path: { id: endpoint.id }, urlParams: { event_type: ["webhook.test"] } }),
          ({ data }) => data[0]?.attempts === 1 ? data[0] : undefined
        ),
        "the failed attempt to be recorded"
      )
      expect(failedOnce).toMatchObject({ id: test.id, status: "pending", attempts: 1, last_status_code: 500 })
      yield* client.webhooks.retry_webhook_delivery({ path: { id: endpoint.id, delivery_id: test.id } })
      const all = yield* arrives(received, 5, "the retried webhook.test")
      expect(all.slice(3).map(typeOf)).toEqual(["webhook.test", "webhook.test"])
    }))
})
