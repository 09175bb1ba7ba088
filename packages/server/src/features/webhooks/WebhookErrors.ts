import { Data } from "effect"

/*
 * How webhook rules fail. Each error states its own message; `toApiError` chooses the status.
 */

export class WebhookEndpointNotFound extends Data.TaggedError("WebhookEndpointNotFound")<{
  readonly endpointId: string
}> {
  override get message() {
    return `Webhook endpoint ${this.endpointId} not found`
  }
}

export class WebhookDeliveryNotFound extends Data.TaggedError("WebhookDeliveryNotFound")<{
  readonly deliveryId: string
}> {
  override get message() {
    return `Webhook delivery ${this.deliveryId} not found`
  }
}

/** A request the schema accepts but the rules refuse (e.g. a URL the server does not call). */
export class InvalidWebhookRequest extends Data.TaggedError("InvalidWebhookRequest")<{
  readonly message: string
}> {}

export type WebhookError = WebhookEndpointNotFound | WebhookDeliveryNotFound | InvalidWebhookRequest
