import type { WebhookEndpointWithSecret, WebhookEventType } from "@switchyard/api"
import { Fragment } from "preact"
import { useState } from "preact/hooks"
import { api } from "../api.js"
import type { PageProps } from "../routes.js"
import { href } from "../router.js"
import { Badge } from "../ui/Badge.js"
import { CopyField } from "../ui/CopyField.js"
import { Empty, ErrorNote, Loaded } from "../ui/Feedback.js"
import { formatTime } from "../ui/format.js"
import { PageHeader } from "../ui/PageHeader.js"
import { Pager } from "../ui/Pager.js"
import { useSession } from "../ui/SessionContext.js"
import { useCursorPages } from "../ui/useCursorPages.js"
import { useAction, useLoad } from "../ui/useLoad.js"
import { WebhookPage } from "./WebhookPage.js"
import { EventsField } from "./webhooks/EventsField.js"

const PAGE_SIZE = 25

/** `#/webhooks`: the endpoints and a form to add one; `#/webhooks/<id>`: one endpoint. */
export const WebhooksPage = ({ route }: PageProps) => {
  const id = route.segments[1]
  return id === undefined ? <WebhookList /> : <WebhookPage id={id} />
}

const WebhookList = () => {
  const { canWrite } = useSession()
  const pages = useCursorPages()
  const endpoints = useLoad(
    () => api.webhooks.list_webhooks({ urlParams: { page_size: PAGE_SIZE, ...(pages.cursor === undefined ? {} : { next: pages.cursor }) } }),
    [pages.cursor]
  )
  const [created, setCreated] = useState<WebhookEndpointWithSecret | undefined>(undefined)
  return (
    <>
      <PageHeader title="Webhooks" />
      <p class="muted">
        Endpoints get a signed POST (Standard Webhooks) when the project's accounts are linked, change or are deleted, and when
        connect links finish. A delivery that fails is tried again for about a day; each endpoint's page lists its deliveries.
      </p>
      {canWrite ? <CreateWebhook onCreated={(endpoint) => {
        setCreated(endpoint)
        pages.reset()
        endpoints.reload()
      }} /> : null}
      {created === undefined ? null : (
        <section class="panel" aria-label="New endpoint">
          <CopyField
            label={`Signing secret of ${created.url}`}
            value={created.secret}
            note="Copy it now into the receiver's configuration: it is not shown again (rotating it makes a new one)."
          />
          <div class="actions">
            <a href={href(["webhooks", created.id])}>Open the endpoint</a>
            <button type="button" onClick={() => setCreated(undefined)}>Done</button>
          </div>
        </section>
      )}
      <Loaded load={endpoints} what="webhook endpoints">
        {(page) =>
          page.data.length === 0 && pages.number === 1
            ? (
              <Empty title="No webhook endpoints yet">
                {canWrite
                  ? "Add one above: the URL of a service of yours that should hear about account changes."
                  : "A key with write access can add one: the URL of a service that should hear about account changes."}
              </Empty>
            )
            : (
              <>
                <table>
                  <caption class="visually-hidden">Webhook endpoints, oldest first</caption>
                  <thead>
                    <tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">State</th><th scope="col">Created</th></tr>
                  </thead>
                  <tbody>
                    {page.data.map((endpoint) => (
                      <tr key={endpoint.id}>
                        <td class="url-cell">
                          <a href={href(["webhooks", endpoint.id])}>{endpoint.url}</a>
                          {endpoint.description === null ? null : <span class="muted block">{endpoint.description}</span>}
                        </td>
                        <td>{endpoint.events.map((event) => <Fragment key={event}><code class="event">{event}</code> </Fragment>)}</td>
                        <td>
                          {endpoint.enabled ? <Badge label="Enabled" /> : <Badge label="Disabled" />}
                          {endpoint.disabled_reason === null ? null : <span class="muted block">{endpoint.disabled_reason}</span>}
                        </td>
                        <td>{formatTime(endpoint.created_at)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                <Pager pages={pages} next={page.next} label="Pages of webhook endpoints" />
              </>
            )}
      </Loaded>
    </>
  )
}

const CreateWebhook = ({ onCreated }: { onCreated: (endpoint: WebhookEndpointWithSecret) => void }) => {
  const [url, setUrl] = useState("")
  const [description, setDescription] = useState("")
  const [events, setEvents] = useState<ReadonlyArray<WebhookEventType>>(["account.created", "account.updated", "account.deleted"])
  const create = useAction()
  const submit = async (event: Event) => {
    event.preventDefault()
    const endpoint = await create.run(() =>
      api.webhooks.create_webhook({
        payload: { url: url.trim(), events: [...events], ...(description.trim() === "" ? {} : { description: description.trim() }) }
      })
    )
    if (endpoint !== undefined) {
      setUrl("")
      setDescription("")
      onCreated(endpoint)
    }
  }
  return (
    <form class="panel" onSubmit={submit} aria-label="Add a webhook endpoint" noValidate>
      <h2 class="form-title">Add an endpoint</h2>
      <div class="field">
        <label for="webhook-url">URL</label>
        <input id="webhook-url" type="url" class="wide" required maxLength={2000} value={url} placeholder="https://example.com/hooks/switchyard"
          onInput={(change) => setUrl(change.currentTarget.value)} />
      </div>
      <div class="field">
        <label for="webhook-description">Description <span class="muted">(optional)</span></label>
        <input id="webhook-description" class="wide" maxLength={500} value={description} placeholder="e.g. CRM sync"
          onInput={(change) => setDescription(change.currentTarget.value)} />
      </div>
      <EventsField idPrefix="new-webhook" value={events} onChange={setEvents} />
      {create.error === undefined ? null : <ErrorNote error={create.error} title="Could not add the endpoint" />}
      <button type="submit" class="primary" disabled={create.busy}>Add endpoint</button>
    </form>
  )
}
