import { SqlClient } from "@effect/sql"
import type { WebhookEventType } from "@switchyard/api"
import { Effect, FiberRef, Option, Queue } from "effect"
import * as Crypto from "node:crypto"

/** Event ids are the `webhook-id` a receiver deduplicates on. */
export const newEventId = () => `msg_${Crypto.randomBytes(16).toString("base64url")}`

/**
 * Wakes this process's delivery worker (`WebhookWorkerLive`) before its next poll. Sliding with
 * room for one: signals while the worker is busy fold into one more round, never a backlog.
 */
export class WebhookWakeup extends Effect.Service<WebhookWakeup>()("Switchyard/WebhookWakeup", {
  effect: Effect.map(Queue.sliding<void>(1), (queue) => ({
    /** Deliveries may be due now: look without waiting for the poll. */
    signal: Effect.asVoid(Queue.offer(queue, undefined)),
    /** Until signalled or `timeoutMs` has passed, whichever is first. */
    wait: (timeoutMs: number) => Effect.ignore(Effect.timeout(Queue.take(queue), timeoutMs))
  }))
}) {}

/** Set by `WebhookOutbox.transaction` for the fibers of its transaction: did they write a delivery? */
const transactionWrote = FiberRef.unsafeMake<{ wrote: boolean } | undefined>(undefined)

/**
 * Writes an event and its deliveries (one per enabled endpoint of the project subscribed to
 * its type). Call it inside the transaction of the change the event reports: both commit or
 * neither does, so a receiver never misses a change nor hears of one that did not happen.
 * A project with no subscribed endpoint stores nothing. Run that transaction with
 * `transaction` so this process's worker starts on the deliveries as soon as it commits.
 */
export class WebhookOutbox extends Effect.Service<WebhookOutbox>()("Switchyard/WebhookOutbox", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const wakeup = yield* WebhookWakeup

    /**
     * Deliveries were written: wake the worker once they are visible to it. Inside
     * `transaction`, that is after its commit (its claim would not see them before, and the
     * wake-up would be spent); outside any transaction the statement has committed already.
     * Inside a transaction `transaction` does not hold, the worker's poll finds them.
     */
    const deliveriesWritten = Effect.gen(function*() {
      const pending = yield* FiberRef.get(transactionWrote)
      if (pending !== undefined) {
        pending.wrote = true
        return
      }
      if (Option.isNone(yield* Effect.serviceOption(SqlClient.TransactionConnection))) yield* wakeup.signal
    })

    /**
     * `sql.withTransaction` that, once the transaction has committed, wakes this process's
     * delivery worker if the transaction wrote deliveries, so they start without waiting for
     * the poll. A rollback wakes nobody. Nested in another transaction it is a savepoint and
     * leaves the wake-up to the outermost one.
     */
    const transaction = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.gen(function*() {
        if (Option.isSome(yield* Effect.serviceOption(SqlClient.TransactionConnection))) {
          return yield* sql.withTransaction(effect)
        }
        const state = { wrote: false }
        const result = yield* sql.withTransaction(Effect.locally(effect, transactionWrote, state))
        if (state.wrote) yield* wakeup.signal
        return result
      })

    const record = (projectId: string, type: WebhookEventType, data: unknown) => {
      const subscribed = JSON.stringify([type])
      return sql`
        WITH endpoints AS (
          SELECT id FROM webhook_endpoints
          WHERE project_id = ${projectId}::uuid AND enabled AND events @> ${subscribed}::jsonb
        ), event AS (
          INSERT INTO webhook_events (id, project_id, type, data)
          SELECT ${newEventId()}, ${projectId}::uuid, ${type}, ${JSON.stringify(data)}
          WHERE EXISTS (SELECT 1 FROM endpoints)
          RETURNING id
        )
        INSERT INTO webhook_deliveries (id, project_id, endpoint_id, event_id, next_attempt_at)
        SELECT gen_random_uuid(), ${projectId}::uuid, endpoints.id, event.id, now()
        FROM endpoints CROSS JOIN event
        RETURNING 1 AS written`.pipe(
        Effect.tap((rows) => rows.length > 0 ? deliveriesWritten : Effect.void),
        Effect.asVoid,
        Effect.orDie
      )
    }

    /** A `webhook.test` event for one endpoint; its delivery's id. */
    const recordTest = (projectId: string, endpointId: string) =>
      sql<{ id: string }>`
        WITH event AS (
          INSERT INTO webhook_events (id, project_id, type, data)
          VALUES (${newEventId()}, ${projectId}::uuid, 'webhook.test', ${JSON.stringify({ endpoint_id: endpointId })})
          RETURNING id
        )
        INSERT INTO webhook_deliveries (id, project_id, endpoint_id, event_id, next_attempt_at)
        SELECT gen_random_uuid(), ${projectId}::uuid, ${endpointId}::uuid, event.id, now() FROM event
        RETURNING id::text AS id`.pipe(Effect.tap(() => deliveriesWritten), Effect.map((rows) => rows[0]!.id), Effect.orDie)

    return { record, recordTest, transaction, wake: wakeup.signal } as const
  }),
  dependencies: [WebhookWakeup.Default]
}) {}
