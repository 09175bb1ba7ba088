import type {
  Caller,
  ListWebhookDeliveriesParams,
  ListWebhooksParams,
  CreateWebhookEndpoint,
  PatchWebhookEndpoint,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret
} from "@switchyard/api"
import { DEFAULT_PAGE_SIZE } from "@switchyard/api"
import { Effect, Either, Option } from "effect"
import * as Crypto from "node:crypto"
import { SwitchyardConfig } from "../../platform/Config.js"
import { CredentialCipher } from "../../platform/crypto/CredentialCipher.js"
import { signedCursor } from "../../platform/crypto/SignedCursor.js"
import { checkOutboundUrl } from "../../platform/outboundHttp/OutboundUrlGuard.js"
import { InvalidWebhookRequest, WebhookDeliveryNotFound, WebhookEndpointNotFound } from "./WebhookErrors.js"
import { WebhookOutbox } from "./WebhookOutbox.js"
import { newWebhookSecret } from "./webhookSignature.js"
import {
  type DeliveryPosition,
  type EndpointPosition,
  type WebhookDeliveryPageRow,
  type WebhookDeliveryRow,
  type WebhookEndpointPageRow,
  type WebhookEndpointRow,
  WebhooksRepo
} from "./WebhooksRepo.js"
import { isUuid } from "../../platform/database/isUuid.js"

/** How long a rotated-out secret keeps signing beside the new one. */
const ROTATION_OVERLAP_SECONDS = 24 * 3600

const MICROS = /^\d{1,18}$/

/**
 * The lists' `next` payloads: where a page ended, in one project's endpoints list or one
 * endpoint's deliveries. Sealed by `SignedCursor`; anything that does not open to a position
 * of this very list is refused with a 400 naming `next`.
 */
const endpointPosition = (projectId: string, last: WebhookEndpointPageRow) => ({ p: projectId, t: last.created_micros, i: last.id })

const deliveryPosition = (endpointId: string, last: WebhookDeliveryPageRow) => ({ w: endpointId, t: last.created_micros, s: last.sequence })

const asEndpointPosition = (projectId: string, value: unknown): Option.Option<EndpointPosition> => {
  const { i, p, t } = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>
  if (p !== projectId || typeof t !== "string" || typeof i !== "string" || !MICROS.test(t) || !isUuid(i)) return Option.none()
  return Option.some({ createdMicros: t, id: i })
}

const asDeliveryPosition = (endpointId: string, value: unknown): Option.Option<DeliveryPosition> => {
  const { s, t, w } = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>
  if (w !== endpointId || typeof t !== "string" || typeof s !== "string" || !MICROS.test(t) || !MICROS.test(s)) return Option.none()
  return Option.some({ createdMicros: t, sequence: s })
}

export const renderEndpoint = (row: WebhookEndpointRow): WebhookEndpoint => ({
  id: row.id,
  project_id: row.project_id,
  url: row.url,
  events: row.events,
  description: row.description,
  enabled: row.enabled,
  disabled_reason: row.disabled_reason,
  previous_secret_expires_at: row.previous_secret_expires_at === null || row.previous_secret_expires_at.getTime() <= Date.now()
    ? null
    : row.previous_secret_expires_at.toISOString(),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString()
})

export const renderDelivery = (row: WebhookDeliveryRow): WebhookDelivery => ({
  id: row.id,
  endpoint_id: row.endpoint_id,
  event_id: row.event_id,
  event_type: row.event_type,
  account_id: row.account_id,
  status: row.status,
  attempts: row.attempts,
  last_status_code: row.last_status_code,
  last_error: row.last_error,
  last_attempt_at: row.last_attempt_at?.toISOString() ?? null,
  next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
  created_at: row.created_at.toISOString()
})

/** Webhook endpoints of the caller's project: another project's are not found. */
export class Webhooks extends Effect.Service<Webhooks>()("Switchyard/Webhooks", {
  effect: Effect.gen(function*() {
    const repo = yield* WebhooksRepo
    const outbox = yield* WebhookOutbox
    const cipher = yield* CredentialCipher
    const config = yield* SwitchyardConfig
    const cursor = signedCursor(cipher.derivedKey("webhooks-cursor"))
    const opened = <A>(token: string, position: (value: unknown) => Option.Option<A>) =>
      Either.match(cursor.open(token), { onLeft: () => Option.none<A>(), onRight: position })

    /** The same guard as provider calls: no private address unless the operator allows it. */
    const checkUrl = (url: string) =>
      checkOutboundUrl(url, config.outboundAllowlist).pipe(
        Effect.mapError((refused) => new InvalidWebhookRequest({ message: `url: ${refused.message}` }))
      )

    const found = (id: string) => <A>(row: Option.Option<A>) =>
      Option.match(row, { onNone: () => Effect.fail(new WebhookEndpointNotFound({ endpointId: id })), onSome: Effect.succeed })

    const endpoint = (caller: Caller, id: string) => Effect.flatMap(repo.find(caller.projectId, id), found(id))

    const create = (caller: Caller, body: CreateWebhookEndpoint) =>
      Effect.gen(function*() {
        yield* checkUrl(body.url)
        const secret = newWebhookSecret()
        const row = yield* repo.insert({
          id: Crypto.randomUUID(),
          projectId: caller.projectId,
          url: body.url,
          events: [...new Set(body.events)],
          description: body.description ?? null,
          enabled: body.enabled ?? true,
          secret: cipher.seal(secret)
        })
        return { ...renderEndpoint(row), secret } satisfies WebhookEndpointWithSecret
      })

    const list = (caller: Caller, params: ListWebhooksParams) =>
      Effect.gen(function*() {
        let after: EndpointPosition | undefined
        if (params.next !== undefined) {
          const position = opened(params.next, (value) => asEndpointPosition(caller.projectId, value))
          if (Option.isNone(position)) {
            return yield* new InvalidWebhookRequest({ message: "next: not a cursor of this project's webhooks list" })
          }
          after = position.value
        }
        const pageSize = params.page_size ?? DEFAULT_PAGE_SIZE
        const rows = yield* repo.list(caller.projectId, pageSize + 1, after)
        const page = rows.slice(0, pageSize)
        return {
          data: page.map(renderEndpoint),
          next: rows.length > pageSize ? cursor.seal(endpointPosition(caller.projectId, page[page.length - 1]!)) : null
        }
      })

    const get = (caller: Caller, id: string) => Effect.map(endpoint(caller, id), renderEndpoint)

    const patch = (caller: Caller, id: string, body: PatchWebhookEndpoint) =>
      Effect.gen(function*() {
        if (body.url !== undefined) yield* checkUrl(body.url)
        const row = yield* Effect.flatMap(
          repo.update(caller.projectId, id, {
            ...body,
            ...(body.events === undefined ? {} : { events: [...new Set(body.events)] })
          }),
          found(id)
        )
        return renderEndpoint(row)
      })

    const remove = (caller: Caller, id: string) =>
      Effect.flatMap(repo.remove(caller.projectId, id), (removed) =>
        removed ? Effect.void : Effect.fail(new WebhookEndpointNotFound({ endpointId: id })))

    const rotateSecret = (caller: Caller, id: string) =>
      Effect.gen(function*() {
        const secret = newWebhookSecret()
        const row = yield* Effect.flatMap(
          repo.rotate(caller.projectId, id, cipher.seal(secret), ROTATION_OVERLAP_SECONDS),
          found(id)
        )
        return { ...renderEndpoint(row), secret } satisfies WebhookEndpointWithSecret
      })

    const delivery = (endpointId: string, id: string) =>
      Effect.flatMap(repo.findDelivery(endpointId, id), (row) =>
        Option.match(row, {
          onNone: () => Effect.fail(new WebhookDeliveryNotFound({ deliveryId: id })),
          onSome: (row) => Effect.succeed(renderDelivery(row))
        }))

    const sendTest = (caller: Caller, id: string) =>
      Effect.gen(function*() {
        const target = yield* endpoint(caller, id)
        const deliveryId = yield* outbox.recordTest(caller.projectId, target.id)
        return yield* delivery(target.id, deliveryId)
      }).pipe(outbox.transaction, Effect.catchTag("SqlError", Effect.die))

    const deliveries = (caller: Caller, id: string, params: ListWebhookDeliveriesParams) =>
      Effect.gen(function*() {
        const target = yield* endpoint(caller, id)
        let after: DeliveryPosition | undefined
        if (params.next !== undefined) {
          const position = opened(params.next, (value) => asDeliveryPosition(target.id, value))
          if (Option.isNone(position)) {
            return yield* new InvalidWebhookRequest({ message: "next: not a cursor of this endpoint's deliveries list" })
          }
          after = position.value
        }
        const pageSize = params.page_size ?? DEFAULT_PAGE_SIZE
        const rows = yield* repo.deliveries(target.id, {
          limit: pageSize + 1,
          after,
          statuses: params.status,
          eventTypes: params.event_type
        })
        const page = rows.slice(0, pageSize)
        return {
          data: page.map(renderDelivery),
          next: rows.length > pageSize ? cursor.seal(deliveryPosition(target.id, page[page.length - 1]!)) : null
        }
      })

    const retry = (caller: Caller, id: string, deliveryId: string) =>
      Effect.gen(function*() {
        const target = yield* endpoint(caller, id)
        if (!(yield* repo.retryDelivery(target.id, deliveryId))) {
          return yield* new WebhookDeliveryNotFound({ deliveryId })
        }
        yield* outbox.wake
        return yield* delivery(target.id, deliveryId)
      })

    return { create, list, get, patch, remove, rotateSecret, sendTest, deliveries, retry } as const
  }),
  dependencies: [WebhooksRepo.Default, WebhookOutbox.Default, CredentialCipher.Default, SwitchyardConfig.Default]
}) {}
