import { SqlClient } from "@effect/sql"
import type { WebhookEventType } from "@switchyard/api"
import { Effect } from "effect"
import * as Crypto from "node:crypto"

/** Event ids are the `webhook-id` a receiver deduplicates on. */
export const newEventId = () => `msg_${Crypto.randomBytes(16).toString("base64url")}`

/**
 * Writes an event and its deliveries (one per enabled endpoint of the project subscribed to
 * its type). Call it inside the transaction of the change the event reports: both commit or
 * neither does, so a receiver never misses a change nor hears of one that did not happen.
 * A project with no subscribed endpoint stores nothing.
 */
export class WebhookOutbox extends Effect.Service<WebhookOutbox>()("Switchyard/WebhookOutbox", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

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
        FROM endpoints CROSS JOIN event`.pipe(Effect.asVoid, Effect.orDie)
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
        RETURNING id::text AS id`.pipe(Effect.map((rows) => rows[0]!.id), Effect.orDie)

    return { record, recordTest } as const
  })
}) {}
