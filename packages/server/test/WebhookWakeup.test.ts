import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { WebhookOutbox, WebhookWakeup } from "../src/features/webhooks/WebhookOutbox.js"
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

/**
 * `WebhookOutbox.transaction` against the test database, with a wake-up that records when it
 * was signalled: after the commit (outside the transaction), never for a rollback, once for a
 * nested transaction, never when nothing was written.
 */
layer(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1", SWITCHYARD_WEBHOOK_POLL_MS: "60000" }), {
  excludeTestServices: true
})("webhook outbox transaction", (it) => {
  it.scoped("signals the worker once after a commit that wrote deliveries, never inside the transaction nor after a rollback", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const receiver = yield* WebhookReceiver
      const { client, projectId } = yield* freshProject
      yield* client.webhooks.create_webhook({
        payload: { url: receiver.url("/outbox-transaction"), events: ["account.updated"], enabled: false }
      })
      const signals: Array<{ readonly inTransaction: boolean; readonly events: number }> = []
      const events = Effect.map(
        sql<{ count: string }>`SELECT count(*)::text AS count FROM webhook_events WHERE project_id = ${projectId}::uuid`,
        (rows) => Number(rows[0]!.count)
      )
      const wakeup = Layer.succeed(
        WebhookWakeup,
        WebhookWakeup.make({
          signal: Effect.gen(function*() {
            const inTransaction = Option.isSome(yield* Effect.serviceOption(SqlClient.TransactionConnection))
            signals.push({ inTransaction, events: yield* Effect.orDie(events) })
          }),
          wait: () => Effect.void
        })
      )
      const outbox = yield* Effect.provide(WebhookOutbox, WebhookOutbox.DefaultWithoutDependencies.pipe(Layer.provide(wakeup)))
      // the endpoint is disabled: record writes nothing for it until it is enabled
      const record = Effect.suspend(() => outbox.record(projectId, "account.updated", { id: "acc" }))

      yield* outbox.transaction(record)
      expect(signals).toEqual([])

      yield* sql`UPDATE webhook_endpoints SET enabled = true WHERE project_id = ${projectId}::uuid`
      const rolledBack = yield* Effect.exit(outbox.transaction(Effect.zipRight(record, Effect.fail("refused"))))
      expect(rolledBack._tag).toBe("Failure")
      expect({ signals, events: yield* events }).toEqual({ signals: [], events: 0 })

      yield* outbox.transaction(Effect.zipRight(record, record))
      expect(signals).toEqual([{ inTransaction: false, events: 2 }])

      yield* outbox.transaction(outbox.transaction(record))
      expect(signals).toEqual([{ inTransaction: false, events: 2 }, { inTransaction: false, events: 3 }])

      yield* record
      expect(signals).toHaveLength(3)
      expect(signals[2]).toEqual({ inTransaction: false, events: 4 })
    }))
})
