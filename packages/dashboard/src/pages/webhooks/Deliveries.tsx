import type { WebhookDelivery, WebhookEndpoint } from "@switchyard/api"
import { useEffect, useState } from "preact/hooks"
import { api } from "../../api.js"
import { href } from "../../router.js"
import { Badge } from "../../ui/Badge.js"
import { Empty, ErrorNote, Loaded } from "../../ui/Feedback.js"
import { formatTime } from "../../ui/format.js"
import { Pager } from "../../ui/Pager.js"
import { useSession } from "../../ui/SessionContext.js"
import { useCursorPages } from "../../ui/useCursorPages.js"
import { useAction, useLoad } from "../../ui/useLoad.js"
import { lastAnswer } from "./webhookHealth.js"

const PAGE_SIZE = 25
/** How often the list is read again while a delivery shown is being sent. */
const REFRESH_MS = 1000
/** A pending delivery due within this is "being sent": the list follows it until it settles. */
const SOON_MS = 60_000

type StatusFilter = "" | WebhookDelivery["status"]

const statusLabel: Record<WebhookDelivery["status"], string> = { pending: "Pending", succeeded: "Succeeded", failed: "Failed" }

/** A delivery is worth retrying once an attempt failed: given up, or waiting for its next try. */
const retryable = (delivery: WebhookDelivery) =>
  delivery.status === "failed" || (delivery.status === "pending" && delivery.attempts > 0)

const dueSoon = (delivery: WebhookDelivery, now: number) =>
  delivery.status === "pending" && (delivery.next_attempt_at === null || Date.parse(delivery.next_attempt_at) < now + SOON_MS)

/**
 * The endpoint's deliveries, newest first, a page at a time; `version` changes when the page
 * above added one (a test event). While a delivery shown is about to be sent the list reads
 * itself again every second, so an attempt's outcome shows without a reload.
 */
export const Deliveries = ({ endpoint, version }: { endpoint: WebhookEndpoint; version: number }) => {
  const { canWrite } = useSession()
  const pages = useCursorPages()
  const [status, setStatus] = useState<StatusFilter>("")
  const deliveries = useLoad(
    () =>
      api.webhooks.list_webhook_deliveries({
        path: { id: endpoint.id },
        urlParams: {
          page_size: PAGE_SIZE,
          ...(pages.cursor === undefined ? {} : { next: pages.cursor }),
          ...(status === "" ? {} : { status: [status] })
        }
      }),
    [endpoint.id, pages.cursor, status, version]
  )
  const retry = useAction()
  const [retried, setRetried] = useState<string | undefined>(undefined)
  const shown = deliveries.state === "loaded" ? deliveries.data.data : []
  const following = endpoint.enabled && shown.some((delivery) => dueSoon(delivery, Date.now()))
  useEffect(() => {
    if (!following) return
    const timer = setTimeout(deliveries.reload, REFRESH_MS)
    return () => clearTimeout(timer)
  }, [following, shown])
  const retryDelivery = (delivery: WebhookDelivery) =>
    retry.run(() => api.webhooks.retry_webhook_delivery({ path: { id: endpoint.id, delivery_id: delivery.id } })).then((queued) => {
      if (queued === undefined) return
      setRetried(endpoint.enabled
        ? `The ${delivery.event_type} delivery of ${formatTime(delivery.created_at)} was sent again: its row shows how it went.`
        : `The ${delivery.event_type} delivery of ${formatTime(delivery.created_at)} is due again; it is sent once the endpoint is enabled.`)
      deliveries.reload()
    })
  return (
    <section aria-labelledby="deliveries">
      <div class="section-title-row">
        <h2 id="deliveries">Deliveries</h2>
        <div class="field inline-field">
          <label for="delivery-status">Status</label>
          <select id="delivery-status" value={status} onChange={(change) => {
            setStatus(change.currentTarget.value as StatusFilter)
            pages.reset()
          }}>
            <option value="">All</option>
            {Object.entries(statusLabel).map(([value, label]) => <option key={value} value={value}>{label}</option>)}
          </select>
        </div>
      </div>
      {retry.error === undefined ? null : <ErrorNote error={retry.error} title="Could not retry the delivery" />}
      {retried === undefined ? null : <p class="notice" role="status">{retried}</p>}
      <Loaded load={deliveries} what="the deliveries">
        {(page) =>
          page.data.length === 0 && pages.number === 1
            ? (
              <Empty title={status === "" ? "No deliveries yet" : `No ${statusLabel[status].toLowerCase()} deliveries`}>
                {status !== ""
                  ? "Choose another status to see the others."
                  : canWrite
                  ? "Deliveries appear when a subscribed event happens. Send a test event to check the receiver now."
                  : "Deliveries appear when a subscribed event happens."}
              </Empty>
            )
            : (
              <>
                <table>
                  <caption class="visually-hidden">Deliveries to this endpoint, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Event</th>
                      <th scope="col">Status</th>
                      <th scope="col" class="number">Attempts</th>
                      <th scope="col">Last answer</th>
                      <th scope="col">Last attempt</th>
                      <th scope="col">Next attempt</th>
                      <th scope="col">Created</th>
                      {canWrite ? <th scope="col"><span class="visually-hidden">Actions</span></th> : null}
                    </tr>
                  </thead>
                  <tbody>
                    {page.data.map((delivery) => (
                      <tr key={delivery.id}>
                        <td>
                          <code>{delivery.event_type}</code>
                          {delivery.account_id === null ? null : (
                            // what the account was doing around a failure: its requests in the log
                            <a class="block" href={href("logs", { account_ids: delivery.account_id })}>
                              The account's requests
                            </a>
                          )}
                        </td>
                        <td><Badge label={statusLabel[delivery.status]} /></td>
                        <td class="number">{delivery.attempts}</td>
                        <td>{delivery.attempts === 0 ? <span class="muted">not sent yet</span> : lastAnswer(delivery)}</td>
                        <td>{delivery.last_attempt_at === null ? <span class="muted">–</span> : formatTime(delivery.last_attempt_at)}</td>
                        <td>{delivery.next_attempt_at === null ? <span class="muted">–</span> : formatTime(delivery.next_attempt_at)}</td>
                        <td>{formatTime(delivery.created_at)}</td>
                        {canWrite
                          ? (
                            <td>
                              {retryable(delivery)
                                ? (
                                  <button
                                    type="button"
                                    disabled={retry.busy}
                                    aria-label={`Retry the ${delivery.event_type} delivery of ${formatTime(delivery.created_at)}`}
                                    onClick={() => retryDelivery(delivery)}
                                  >
                                    Retry
                                  </button>
                                )
                                : null}
                            </td>
                          )
                          : null}
                      </tr>
                    ))}
                  </tbody>
                </table>
                <Pager pages={pages} next={page.next} label="Pages of deliveries" previousLabel="Newer" nextLabel="Older" />
              </>
            )}
      </Loaded>
    </section>
  )
}
