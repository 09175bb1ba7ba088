import type { WebhookDelivery, WebhookEndpoint } from "@switchyard/api"
import { api } from "../../api.js"
import { formatTime } from "../../ui/format.js"

export type WebhookHealth =
  | { readonly state: "delivering" | "quiet" }
  | { readonly state: "failing" | "disabled"; readonly why: string }

/** How the latest attempt ended, in words. */
export const lastAnswer = (delivery: WebhookDelivery): string =>
  delivery.last_status_code !== null
    ? `HTTP ${delivery.last_status_code}`
    : delivery.last_error ?? (delivery.attempts === 0 ? "not sent yet" : "no answer")

/**
 * Whether an endpoint is getting its events: disabled (by a person, or by the server after 410
 * Gone or days of failures), failing (its latest attempted delivery failed, given up or to be
 * retried), delivering, or quiet (nothing sent yet). Deliveries newest first; one queued but
 * not yet attempted says nothing, so the newest attempted one decides.
 */
export const healthOf = (endpoint: WebhookEndpoint, deliveries: ReadonlyArray<WebhookDelivery>): WebhookHealth => {
  if (!endpoint.enabled) {
    return { state: "disabled", why: endpoint.disabled_reason === null ? "Disabled" : `Disabled by the server: ${endpoint.disabled_reason}` }
  }
  const latest = deliveries.find((delivery) => delivery.attempts > 0)
  if (latest === undefined) return { state: "quiet" }
  if (latest.status === "succeeded") return { state: "delivering" }
  const attempts = `${latest.attempts} ${latest.attempts === 1 ? "attempt" : "attempts"}`
  return {
    state: "failing",
    why: latest.status === "failed"
      ? `Latest delivery (${latest.event_type}) gave up after ${attempts}: ${lastAnswer(latest)}, ${formatTime(latest.last_attempt_at)}`
      : `Latest delivery (${latest.event_type}) failed ${attempts}: ${lastAnswer(latest)}; next try ${formatTime(latest.next_attempt_at)}`
  }
}

/** Every endpoint of the project, following the pages to the end. */
export const allWebhooks = async (): Promise<ReadonlyArray<WebhookEndpoint>> => {
  const endpoints: Array<WebhookEndpoint> = []
  for await (const endpoint of api.paginate((cursor) => api.webhooks.list_webhooks({ urlParams: { page_size: 100, ...cursor } }))) {
    endpoints.push(endpoint)
  }
  return endpoints
}

/** Each endpoint with its health, from its few newest deliveries (a few endpoints at a time). */
export const webhooksWithHealth = async (): Promise<ReadonlyArray<{ endpoint: WebhookEndpoint; health: WebhookHealth }>> => {
  const endpoints = await allWebhooks()
  const results: Array<{ endpoint: WebhookEndpoint; health: WebhookHealth }> = []
  for (let start = 0; start < endpoints.length; start += 6) {
    results.push(...await Promise.all(endpoints.slice(start, start + 6).map(async (endpoint) => {
      const recent = endpoint.enabled
        ? (await api.webhooks.list_webhook_deliveries({ path: { id: endpoint.id }, urlParams: { page_size: 10 } })).data
        : []
      return { endpoint, health: healthOf(endpoint, recent) }
    })))
  }
  return results
}
