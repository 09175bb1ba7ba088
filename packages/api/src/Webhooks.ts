import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authentication } from "./Authentication.js"
import { commaSeparated, isHttpUrl, NextCursor, PageSize, strictObject } from "./Params.js"

/** The events an endpoint may subscribe to. */
export const WebhookEventType = Schema.Literal(
  "account.created",
  "account.updated",
  "account.deleted",
  "connect_session.completed",
  "connect_session.failed"
).annotations({
  identifier: "WebhookEventType",
  message: () =>
    "events must each be one of account.created, account.updated, account.deleted, connect_session.completed, connect_session.failed"
})
export type WebhookEventType = typeof WebhookEventType.Type

/** What `POST /webhooks/{id}/test` sends; nobody subscribes to it. */
export const WEBHOOK_TEST_EVENT = "webhook.test"

const WebhookUrl = Schema.String.pipe(
  Schema.maxLength(2000, { message: () => "url must be at most 2000 characters" }),
  Schema.filter(isHttpUrl, { message: () => "url must be an absolute http or https URL" })
)

const WebhookEvents = Schema.Array(WebhookEventType).pipe(
  Schema.minItems(1, { message: () => "events must name at least one event type" }),
  Schema.maxItems(20, { message: () => "events must name at most 20 event types" })
)

const Description = Schema.String.pipe(
  Schema.maxLength(500, { message: () => "description must be at most 500 characters" })
)

export const CreateWebhookEndpoint = Schema.Struct({
  url: WebhookUrl,
  events: WebhookEvents,
  description: Schema.optional(Description),
  enabled: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "CreateWebhookEndpoint", ...strictObject })
export type CreateWebhookEndpoint = typeof CreateWebhookEndpoint.Type

export const PatchWebhookEndpoint = Schema.Struct({
  url: Schema.optional(WebhookUrl),
  events: Schema.optional(WebhookEvents),
  description: Schema.optional(Schema.NullOr(Description)),
  enabled: Schema.optional(Schema.Boolean.annotations({
    description: "true re-enables an endpoint the server disabled (and clears disabled_reason)"
  }))
}).annotations({ identifier: "PatchWebhookEndpoint", ...strictObject })
export type PatchWebhookEndpoint = typeof PatchWebhookEndpoint.Type

export const WebhookEndpoint = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  url: Schema.String,
  events: Schema.Array(WebhookEventType),
  description: Schema.NullOr(Schema.String),
  enabled: Schema.Boolean,
  disabled_reason: Schema.NullOr(Schema.String).annotations({
    description: "Why the server disabled the endpoint (410 Gone, or failing for days)"
  }),
  previous_secret_expires_at: Schema.NullOr(Schema.String).annotations({
    description: "Until when deliveries are also signed with the secret a rotation replaced"
  }),
  created_at: Schema.String,
  updated_at: Schema.String
}).annotations({ identifier: "WebhookEndpoint" })
export type WebhookEndpoint = typeof WebhookEndpoint.Type

/** The create and rotate answers: the only time the signing secret is shown. */
export const WebhookEndpointWithSecret = Schema.Struct({
  ...WebhookEndpoint.fields,
  secret: Schema.String.annotations({ description: "whsec_<base64>; shown once; verify with any Standard Webhooks library" })
}).annotations({ identifier: "WebhookEndpointWithSecret" })
export type WebhookEndpointWithSecret = typeof WebhookEndpointWithSecret.Type

export const WebhookDeliveryStatus = Schema.Literal("pending", "succeeded", "failed")
  .annotations({ identifier: "WebhookDeliveryStatus" })

export const WebhookDelivery = Schema.Struct({
  id: Schema.String,
  endpoint_id: Schema.String,
  event_id: Schema.String.annotations({ description: "Sent as webhook-id; the same on every attempt" }),
  event_type: Schema.String,
  account_id: Schema.NullOr(Schema.String).annotations({
    description: "The account the event is about (account.* events, a completed connect session's account); null for others"
  }),
  status: WebhookDeliveryStatus,
  attempts: Schema.Int,
  last_status_code: Schema.NullOr(Schema.Int).annotations({ description: "The receiver's last answer code" }),
  last_error: Schema.NullOr(Schema.String).annotations({ description: "Why the last attempt failed without an answer" }),
  last_attempt_at: Schema.NullOr(Schema.String),
  next_attempt_at: Schema.NullOr(Schema.String).annotations({ description: "null once delivered or given up" }),
  created_at: Schema.String
}).annotations({ identifier: "WebhookDelivery" })
export type WebhookDelivery = typeof WebhookDelivery.Type

export const WebhookEndpointList = Schema.Struct({
  data: Schema.Array(WebhookEndpoint).annotations({ description: "Oldest first, at most page_size" }),
  next: Schema.NullOr(Schema.String).annotations({
    description: "Pass as `next` for the following page; null on the last page"
  })
}).annotations({ identifier: "WebhookEndpointList" })

/** Keyset pages of the project's endpoints, oldest first; `page_size` 1..100, default 25. */
export const ListWebhooksParams = Schema.Struct({
  page_size: Schema.optional(PageSize),
  next: Schema.optional(NextCursor)
})
export type ListWebhooksParams = typeof ListWebhooksParams.Type

export const WebhookDeliveryList = Schema.Struct({
  data: Schema.Array(WebhookDelivery).annotations({ description: "Newest first, at most page_size" }),
  next: Schema.NullOr(Schema.String).annotations({
    description: "Pass as `next` for the following (older) page; null on the last page"
  })
}).annotations({ identifier: "WebhookDeliveryList" })

/** What `event_type` may name: the subscribable types and `webhook.test`. */
const DeliveryEventType = Schema.Literal(
  "account.created",
  "account.updated",
  "account.deleted",
  "connect_session.completed",
  "connect_session.failed",
  "webhook.test"
)

/**
 * Keyset pages, newest first: a delivery written while a client pages is neither repeated
 * nor skipped. `page_size` is bounded like the platform lists (1..100, default 25).
 */
export const ListWebhookDeliveriesParams = Schema.Struct({
  page_size: Schema.optional(PageSize),
  next: Schema.optional(NextCursor),
  status: Schema.optional(
    commaSeparated(WebhookDeliveryStatus.annotations({ message: () => "status must each be one of pending, succeeded, failed" }))
  ),
  event_type: Schema.optional(commaSeparated(DeliveryEventType.annotations({
    message: () =>
      "event_type must each be one of account.created, account.updated, account.deleted, connect_session.completed, connect_session.failed, webhook.test"
  })))
})
export type ListWebhookDeliveriesParams = typeof ListWebhookDeliveriesParams.Type

const EndpointId = HttpApiSchema.param("id", Schema.String)
const DeliveryId = HttpApiSchema.param("delivery_id", Schema.String)

export class WebhooksGroup extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.post("create_webhook", "/webhooks")
      .setPayload(CreateWebhookEndpoint)
      .addSuccess(WebhookEndpointWithSecret, { status: 201 })
      .annotate(OpenApi.Summary, "Create a webhook endpoint")
      .annotate(OpenApi.Description, "Register an endpoint for the project's events; the signing secret is shown once")
  )
  .add(
    HttpApiEndpoint.get("list_webhooks", "/webhooks")
      .setUrlParams(ListWebhooksParams)
      .addSuccess(WebhookEndpointList)
      .annotate(OpenApi.Summary, "List webhook endpoints")
      .annotate(OpenApi.Description, "The project's endpoints, oldest first, a page at a time (follow `next`)")
  )
  .add(
    HttpApiEndpoint.get("get_webhook")`/webhooks/${EndpointId}`
      .addSuccess(WebhookEndpoint)
      .annotate(OpenApi.Summary, "Get a webhook endpoint")
      .annotate(
        OpenApi.Description,
        "One endpoint of the project (404 otherwise), never its signing secret; `disabled_reason` says why the server disabled it"
      )
  )
  .add(
    HttpApiEndpoint.patch("update_webhook")`/webhooks/${EndpointId}`
      .setPayload(PatchWebhookEndpoint)
      .addSuccess(WebhookEndpoint)
      .annotate(OpenApi.Summary, "Update a webhook endpoint")
      .annotate(
        OpenApi.Description,
        "Changes only the fields given. `enabled: true` turns an endpoint the server disabled back on and clears `disabled_reason`; a new `url` passes the outbound address guard (a private or loopback address is 400 unless SWITCHYARD_OUTBOUND_ALLOWLIST allows it)"
      )
  )
  .add(
    HttpApiEndpoint.del("delete_webhook")`/webhooks/${EndpointId}`
      .addSuccess(HttpApiSchema.NoContent)
      .annotate(OpenApi.Summary, "Delete a webhook endpoint")
      .annotate(OpenApi.Description, "Removes the endpoint with its deliveries, sent or not: 204, or 404 for an unknown id")
  )
  .add(
    HttpApiEndpoint.post("rotate_webhook_secret")`/webhooks/${EndpointId}/rotate_secret`
      .addSuccess(WebhookEndpointWithSecret)
      .annotate(OpenApi.Summary, "Rotate a webhook endpoint's signing secret")
      .annotate(OpenApi.Description, "A new signing secret; the previous one keeps signing alongside it for 24 hours")
  )
  .add(
    HttpApiEndpoint.post("test_webhook")`/webhooks/${EndpointId}/test`
      .addSuccess(WebhookDelivery, { status: 202 })
      .annotate(OpenApi.Summary, "Send a test event to a webhook endpoint")
      .annotate(OpenApi.Description, "Queue a webhook.test event to this endpoint (sent once the endpoint is enabled)")
  )
  .add(
    HttpApiEndpoint.get("list_webhook_deliveries")`/webhooks/${EndpointId}/deliveries`
      .setUrlParams(ListWebhookDeliveriesParams)
      .addSuccess(WebhookDeliveryList)
      .annotate(OpenApi.Summary, "List a webhook endpoint's deliveries")
      .annotate(
        OpenApi.Description,
        "The endpoint's deliveries, newest first, a page at a time (follow `next`); filter by status and event_type"
      )
  )
  .add(
    HttpApiEndpoint.post("retry_webhook_delivery")`/webhooks/${EndpointId}/deliveries/${DeliveryId}/retry`
      .addSuccess(WebhookDelivery, { status: 202 })
      .annotate(OpenApi.Summary, "Retry a webhook delivery")
      .annotate(OpenApi.Description, "Send the delivery again now; its earlier attempts count toward the retry schedule")
  )
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Endpoints that hear about the project's accounts and connect sessions, with signed deliveries (Standard Webhooks) and retries")
{}
