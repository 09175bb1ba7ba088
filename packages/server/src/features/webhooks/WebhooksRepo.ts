import { SqlClient } from "@effect/sql"
import { WebhookEventType } from "@switchyard/api"
import { Effect, Option, Schema } from "effect"
import type { Sealed } from "../../platform/crypto/CredentialCipher.js"
import { isUuid } from "../../platform/database/isUuid.js"


/** An endpoint as stored, without its sealed secrets. */
export const WebhookEndpointRow = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  url: Schema.String,
  events: Schema.Array(WebhookEventType),
  description: Schema.NullOr(Schema.String),
  enabled: Schema.Boolean,
  disabled_reason: Schema.NullOr(Schema.String),
  previous_secret_expires_at: Schema.NullOr(Schema.DateFromSelf),
  created_at: Schema.DateFromSelf,
  updated_at: Schema.DateFromSelf
})
export type WebhookEndpointRow = typeof WebhookEndpointRow.Type

export const WebhookEndpointPageRow = Schema.Struct({
  ...WebhookEndpointRow.fields,
  /** `created_at` in microseconds since the epoch */
  created_micros: Schema.String
})
export type WebhookEndpointPageRow = typeof WebhookEndpointPageRow.Type

/** Where a page of endpoints starts: strictly after this endpoint in the (created_at, id) order. */
export interface EndpointPosition {
  readonly createdMicros: string
  readonly id: string
}

export const WebhookDeliveryRow = Schema.Struct({
  id: Schema.String,
  endpoint_id: Schema.String,
  event_id: Schema.String,
  event_type: Schema.String,
  account_id: Schema.NullOr(Schema.String),
  status: Schema.Literal("pending", "succeeded", "failed"),
  attempts: Schema.Number,
  last_status_code: Schema.NullOr(Schema.Number),
  last_error: Schema.NullOr(Schema.String),
  last_attempt_at: Schema.NullOr(Schema.DateFromSelf),
  next_attempt_at: Schema.NullOr(Schema.DateFromSelf),
  created_at: Schema.DateFromSelf
})
export type WebhookDeliveryRow = typeof WebhookDeliveryRow.Type

/** A delivery of a listed page, with where it stands in the keyset order (newest first). */
export const WebhookDeliveryPageRow = Schema.Struct({
  ...WebhookDeliveryRow.fields,
  /** `created_at` in microseconds since the epoch (a JS Date would lose the last three digits) */
  created_micros: Schema.String,
  sequence: Schema.String
})
export type WebhookDeliveryPageRow = typeof WebhookDeliveryPageRow.Type

/** Where a page starts: strictly older than this delivery in the (created_at, sequence) order. */
export interface DeliveryPosition {
  readonly createdMicros: string
  readonly sequence: string
}

export interface DeliveryQuery {
  readonly limit: number
  readonly after: DeliveryPosition | undefined
  readonly statuses: ReadonlyArray<string> | undefined
  readonly eventTypes: ReadonlyArray<string> | undefined
}

/** A delivery the worker holds the lease of, with what sending it needs. */
export const ClaimedDelivery = Schema.Struct({
  id: Schema.String,
  endpoint_id: Schema.String,
  attempts: Schema.Number,
  url: Schema.String,
  secret_ciphertext: Schema.String,
  secret_key_id: Schema.String,
  previous_secret_ciphertext: Schema.NullOr(Schema.String),
  previous_secret_key_id: Schema.NullOr(Schema.String),
  event_id: Schema.String,
  event_type: Schema.String,
  sequence: Schema.NumberFromString,
  data: Schema.String,
  event_created_at: Schema.DateFromSelf
})
export type ClaimedDelivery = typeof ClaimedDelivery.Type

export interface NewEndpoint {
  readonly id: string
  readonly projectId: string
  readonly url: string
  readonly events: ReadonlyArray<string>
  readonly description: string | null
  readonly enabled: boolean
  readonly secret: Sealed
}

export interface EndpointChanges {
  readonly url?: string | undefined
  readonly events?: ReadonlyArray<string> | undefined
  readonly description?: string | null | undefined
  readonly enabled?: boolean | undefined
}

/** How one attempt ended, as the worker records it. */
export type AttemptOutcome =
  | { readonly _tag: "Delivered"; readonly statusCode: number }
  | {
    readonly _tag: "Failed"
    readonly statusCode: number | null
    readonly error: string | null
    /** When to try again; none: the delivery has failed for good. */
    readonly retryInSeconds: Option.Option<number>
    /** Disable the endpoint with this reason (410 Gone); else the failing-for-days rule decides. */
    readonly disableReason: string | null
  }

export class WebhooksRepo extends Effect.Service<WebhooksRepo>()("Switchyard/WebhooksRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const endpointColumns = sql`
      id::text AS id, project_id::text AS project_id, url, events, description, enabled, disabled_reason,
      previous_secret_expires_at, created_at, updated_at`

    const deliveryColumns = sql`
      d.id::text AS id, d.endpoint_id::text AS endpoint_id, d.event_id, e.type AS event_type,
      -- the account the event is about, read from the data sent (an account.* event is the account itself)
      CASE WHEN e.type LIKE 'account.%' THEN e.data::jsonb ->> 'id'
        WHEN e.type = 'connect_session.completed' THEN e.data::jsonb ->> 'account_id' END AS account_id,
      d.status, d.attempts,
      d.last_status_code, d.last_error, d.last_attempt_at,
      CASE WHEN d.status = 'pending' THEN d.next_attempt_at END AS next_attempt_at, d.created_at`

    const decodeEndpoint = Schema.decodeUnknown(WebhookEndpointRow)
    const decodeDelivery = Schema.decodeUnknown(WebhookDeliveryRow)
    const one = <A>(decode: (row: unknown) => Effect.Effect<A, unknown>) => (rows: ReadonlyArray<unknown>) =>
      rows.length === 0 ? Effect.succeedNone : Effect.asSome(decode(rows[0]))

    const insert = (endpoint: NewEndpoint) =>
      sql`
        INSERT INTO webhook_endpoints (id, project_id, url, events, description, enabled, secret_ciphertext, secret_key_id)
        VALUES (${endpoint.id}::uuid, ${endpoint.projectId}::uuid, ${endpoint.url}, ${JSON.stringify(endpoint.events)}::jsonb,
          ${endpoint.description}, ${endpoint.enabled}, ${endpoint.secret.ciphertext}, ${endpoint.secret.keyId})
        RETURNING ${endpointColumns}`.pipe(Effect.flatMap((rows) => decodeEndpoint(rows[0])), Effect.orDie)

    const decodeEndpointPage = Schema.decodeUnknown(Schema.Array(WebhookEndpointPageRow))

    /** Oldest first by (created_at, id), a keyset order: paging neither repeats nor skips. */
    const list = (projectId: string, limit: number, after: EndpointPosition | undefined) =>
      sql`
        SELECT ${endpointColumns}, (extract(epoch FROM created_at) * 1000000)::bigint::text AS created_micros
        FROM webhook_endpoints
        WHERE project_id = ${projectId}::uuid ${
        after === undefined ? sql`` : sql`AND (created_at, id) > (
            timestamptz 'epoch' + ${after.createdMicros}::bigint * interval '1 microsecond', ${after.id}::uuid)`
      }
        ORDER BY created_at, id LIMIT ${limit}`
        .pipe(Effect.flatMap(decodeEndpointPage), Effect.orDie)

    const find = (projectId: string, id: string) =>
      !isUuid(id) ? Effect.succeedNone : sql`
        SELECT ${endpointColumns} FROM webhook_endpoints WHERE project_id = ${projectId}::uuid AND id = ${id}::uuid`
        .pipe(Effect.flatMap(one(decodeEndpoint)), Effect.orDie)

    /** Re-enabling clears why the server disabled it, and the failure streak that led there. */
    const update = (projectId: string, id: string, changes: EndpointChanges) =>
      !isUuid(id) ? Effect.succeedNone : sql`
        UPDATE webhook_endpoints SET
          url = COALESCE(${changes.url ?? null}, url),
          events = COALESCE(${changes.events === undefined ? null : JSON.stringify(changes.events)}::jsonb, events),
          description = ${changes.description === undefined ? sql`description` : sql`${changes.description}`},
          enabled = COALESCE(${changes.enabled ?? null}::boolean, enabled),
          disabled_reason = ${changes.enabled === true ? sql`NULL` : sql`disabled_reason`},
          failing_since = ${changes.enabled === true ? sql`NULL` : sql`failing_since`},
          updated_at = now()
        WHERE project_id = ${projectId}::uuid AND id = ${id}::uuid
        RETURNING ${endpointColumns}`.pipe(Effect.flatMap(one(decodeEndpoint)), Effect.orDie)

    const remove = (projectId: string, id: string) =>
      !isUuid(id) ? Effect.succeed(false) : sql`
        DELETE FROM webhook_endpoints WHERE project_id = ${projectId}::uuid AND id = ${id}::uuid RETURNING id`
        .pipe(Effect.map((rows) => rows.length > 0), Effect.orDie)

    /** The new secret signs from now on; the current one keeps signing beside it for `overlapSeconds`. */
    const rotate = (projectId: string, id: string, secret: Sealed, overlapSeconds: number) =>
      !isUuid(id) ? Effect.succeedNone : sql`
        UPDATE webhook_endpoints SET
          previous_secret_ciphertext = secret_ciphertext, previous_secret_key_id = secret_key_id,
          previous_secret_expires_at = now() + make_interval(secs => ${overlapSeconds}),
          secret_ciphertext = ${secret.ciphertext}, secret_key_id = ${secret.keyId}, updated_at = now()
        WHERE project_id = ${projectId}::uuid AND id = ${id}::uuid
        RETURNING ${endpointColumns}`.pipe(Effect.flatMap(one(decodeEndpoint)), Effect.orDie)

    const decodeDeliveryPage = Schema.decodeUnknown(Schema.Array(WebhookDeliveryPageRow))

    /** Newest first by (created_at, sequence): a keyset order, so paging neither repeats nor skips. */
    const deliveries = (endpointId: string, query: DeliveryQuery) => {
      const conditions = [sql`d.endpoint_id = ${endpointId}::uuid`]
      if (query.after !== undefined) {
        conditions.push(sql`(d.created_at, e.sequence) < (
          timestamptz 'epoch' + ${query.after.createdMicros}::bigint * interval '1 microsecond', ${query.after.sequence}::bigint)`)
      }
      if (query.statuses !== undefined && query.statuses.length > 0) conditions.push(sql`d.status IN ${sql.in(query.statuses)}`)
      if (query.eventTypes !== undefined && query.eventTypes.length > 0) conditions.push(sql`e.type IN ${sql.in(query.eventTypes)}`)
      return sql`
        SELECT ${deliveryColumns},
          (extract(epoch FROM d.created_at) * 1000000)::bigint::text AS created_micros, e.sequence::text AS sequence
        FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
        WHERE ${sql.and(conditions)}
        ORDER BY d.created_at DESC, e.sequence DESC LIMIT ${query.limit}`
        .pipe(Effect.flatMap(decodeDeliveryPage), Effect.orDie)
    }

    const findDelivery = (endpointId: string, id: string) =>
      !isUuid(id) ? Effect.succeedNone : sql`
        SELECT ${deliveryColumns} FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
        WHERE d.endpoint_id = ${endpointId}::uuid AND d.id = ${id}::uuid`
        .pipe(Effect.flatMap(one(decodeDelivery)), Effect.orDie)

    /** Due again now; the attempts made so far count toward the retry schedule. */
    const retryDelivery = (endpointId: string, id: string) =>
      !isUuid(id) ? Effect.succeed(false) : sql`
        UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now()
        WHERE endpoint_id = ${endpointId}::uuid AND id = ${id}::uuid RETURNING id`
        .pipe(Effect.map((rows) => rows.length > 0), Effect.orDie)

    const decodeClaimed = Schema.decodeUnknown(Schema.Array(ClaimedDelivery))

    /**
     * Up to `limit` due deliveries of enabled endpoints, leased to `holder` for `leaseSeconds`.
     * SKIP LOCKED lets processes claim side by side without waiting on each other, and the
     * lease (not the row lock, which ends with this statement) keeps others off while the
     * request is in flight; a process that dies mid-delivery leaves a lease that runs out.
     * Oldest events first, so an account's events leave in the order they happened.
     */
    const claim = (holder: string, limit: number, leaseSeconds: number) =>
      sql`
        WITH due AS (
          SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
          WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND w.enabled
            AND (d.lease_until IS NULL OR d.lease_until < now())
          ORDER BY d.next_attempt_at, d.created_at
          LIMIT ${limit}
          FOR UPDATE OF d SKIP LOCKED
        )
        UPDATE webhook_deliveries d
        SET lease_holder = ${holder}, lease_until = now() + make_interval(secs => ${leaseSeconds})
        FROM due, webhook_endpoints w, webhook_events e
        WHERE d.id = due.id AND w.id = d.endpoint_id AND e.id = d.event_id
        RETURNING d.id::text AS id, d.endpoint_id::text AS endpoint_id, d.attempts, w.url,
          w.secret_ciphertext, w.secret_key_id,
          CASE WHEN w.previous_secret_expires_at > now() THEN w.previous_secret_ciphertext END AS previous_secret_ciphertext,
          CASE WHEN w.previous_secret_expires_at > now() THEN w.previous_secret_key_id END AS previous_secret_key_id,
          e.id AS event_id, e.type AS event_type, e.sequence::text AS sequence, e.data, e.created_at AS event_created_at`
        .pipe(
          Effect.flatMap(decodeClaimed),
          Effect.map((rows) => [...rows].sort((a, b) => a.sequence - b.sequence)),
          Effect.orDie
        )

    /**
     * Records an attempt, releasing the lease; nothing when the lease was lost meanwhile (another
     * process has taken the delivery over). Endpoint bookkeeping goes with it in one transaction:
     * a success ends the failure streak; a failure starts one, and an endpoint failing for longer
     * than `disableAfterSeconds` (or that answered 410) is disabled with the reason.
     */
    const recordAttempt = (
      claimed: ClaimedDelivery,
      holder: string,
      outcome: AttemptOutcome,
      disableAfterSeconds: number
    ) =>
      Effect.gen(function*() {
        const delivered = outcome._tag === "Delivered"
        const status = delivered ? "succeeded" : Option.isSome(outcome.retryInSeconds) ? "pending" : "failed"
        const retryIn = delivered ? 0 : Option.getOrElse(outcome.retryInSeconds, () => 0)
        const updated = yield* sql`
          UPDATE webhook_deliveries SET
            status = ${status}, attempts = attempts + 1, last_attempt_at = now(),
            last_status_code = ${outcome.statusCode}, last_error = ${delivered ? null : outcome.error},
            next_attempt_at = ${status === "pending" ? sql`now() + make_interval(secs => ${retryIn})` : sql`NULL`},
            lease_holder = NULL, lease_until = NULL
          WHERE id = ${claimed.id}::uuid AND lease_holder = ${holder}
          RETURNING id`
        if (updated.length === 0) return
        if (delivered) {
          yield* sql`UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ${claimed.endpoint_id}::uuid AND failing_since IS NOT NULL`
          return
        }
        if (outcome.disableReason !== null) {
          yield* sql`
            UPDATE webhook_endpoints SET enabled = false, disabled_reason = ${outcome.disableReason}, updated_at = now()
            WHERE id = ${claimed.endpoint_id}::uuid`
          return
        }
        yield* sql`
          UPDATE webhook_endpoints SET
            failing_since = COALESCE(failing_since, now()),
            enabled = CASE WHEN failing_since <= now() - make_interval(secs => ${disableAfterSeconds}) THEN false ELSE enabled END,
            disabled_reason = CASE WHEN failing_since <= now() - make_interval(secs => ${disableAfterSeconds})
              THEN 'every delivery has failed since ' || to_char(failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
                || '; last: ' || ${describeFailure(outcome.statusCode, outcome.error)}
              ELSE disabled_reason END,
            updated_at = now()
          WHERE id = ${claimed.endpoint_id}::uuid`
      }).pipe(sql.withTransaction, Effect.orDie)

    /** A lease given up without an attempt recorded (the process is stopping): due again at once. */
    const release = (id: string, holder: string) =>
      sql`UPDATE webhook_deliveries SET lease_holder = NULL, lease_until = NULL WHERE id = ${id}::uuid AND lease_holder = ${holder}`
        .pipe(Effect.asVoid, Effect.orDie)

    /**
     * Deletes up to `limit` events older than `days` that have nothing left to send (their
     * deliveries go with them); the number deleted. Events still pending stay, however old.
     */
    const deleteFinishedOlderThan = (days: number, limit: number) =>
      sql`
        DELETE FROM webhook_events WHERE id IN (
          SELECT e.id FROM webhook_events e
          WHERE e.created_at < now() - make_interval(days => ${days})
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
          LIMIT ${limit}
        )
        RETURNING id`.pipe(Effect.map((rows) => rows.length), Effect.orDie)

    return {
      release,
      deleteFinishedOlderThan,
      insert,
      list,
      find,
      update,
      remove,
      rotate,
      deliveries,
      findDelivery,
      retryDelivery,
      claim,
      recordAttempt
    } as const
  })
}) {}

const describeFailure = (statusCode: number | null, error: string | null) =>
  statusCode !== null ? `HTTP ${statusCode}` : (error ?? "no answer")
