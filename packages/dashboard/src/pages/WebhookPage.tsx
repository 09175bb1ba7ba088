import type { WebhookEndpoint, WebhookEndpointWithSecret, WebhookEventType } from "@switchyard/api"
import { Fragment } from "preact"
import { useState } from "preact/hooks"
import { api } from "../api.js"
import { href, navigate } from "../router.js"
import { Badge } from "../ui/Badge.js"
import { Confirm } from "../ui/Confirm.js"
import { CopyField } from "../ui/CopyField.js"
import { ErrorNote, Loaded } from "../ui/Feedback.js"
import { formatTime } from "../ui/format.js"
import { PageHeader } from "../ui/PageHeader.js"
import { useSession } from "../ui/SessionContext.js"
import { useAction, useLoad } from "../ui/useLoad.js"
import { Deliveries } from "./webhooks/Deliveries.js"
import { EventsField } from "./webhooks/EventsField.js"

/** One endpoint: its settings, what may be done to it, and its deliveries. */
export const WebhookPage = ({ id }: { id: string }) => {
  const endpoint = useLoad(() => api.webhooks.get_webhook({ path: { id } }), [id])
  // bumped to reload the deliveries after something that adds or changes one (a test event)
  const [deliveriesVersion, setDeliveriesVersion] = useState(0)
  return (
    <>
      <Loaded load={endpoint} what="the webhook endpoint">
        {(found) => (
          <>
            <Endpoint
              endpoint={found}
              onChanged={endpoint.reload}
              onDelivery={() => setDeliveriesVersion((version) => version + 1)}
            />
            <Deliveries endpoint={found} version={deliveriesVersion} />
          </>
        )}
      </Loaded>
      {endpoint.state === "failed" ? <p><a href={href("webhooks")}>← Back to the webhook endpoints</a></p> : null}
    </>
  )
}

const Endpoint = (
  { endpoint, onChanged, onDelivery }: { endpoint: WebhookEndpoint; onChanged: () => void; onDelivery: () => void }
) => {
  const { canWrite } = useSession()
  const action = useAction()
  const [confirming, setConfirming] = useState<"rotate" | "delete" | undefined>(undefined)
  const [secret, setSecret] = useState<WebhookEndpointWithSecret | undefined>(undefined)
  const [notice, setNotice] = useState<string | undefined>(undefined)
  const [editing, setEditing] = useState(false)
  const sendTest = () =>
    action.run(() => api.webhooks.test_webhook({ path: { id: endpoint.id } })).then((delivery) => {
      if (delivery === undefined) return
      setNotice(endpoint.enabled
        ? "A webhook.test event is queued: it shows in the deliveries below."
        : "A webhook.test event is queued; it is sent once the endpoint is enabled.")
      onDelivery()
    })
  const setEnabled = (enabled: boolean) =>
    action.run(() => api.webhooks.update_webhook({ path: { id: endpoint.id }, payload: { enabled } })).then((updated) => {
      if (updated === undefined) return
      setNotice(enabled ? "The endpoint is enabled: deliveries due are sent again." : "The endpoint is disabled: nothing is sent to it until it is enabled.")
      onChanged()
    })
  const rotate = () =>
    action.run(() => api.webhooks.rotate_webhook_secret({ path: { id: endpoint.id } })).then((rotated) => {
      setConfirming(undefined)
      if (rotated === undefined) return
      setNotice(undefined)
      setSecret(rotated)
      onChanged()
    })
  const remove = () =>
    // delete answers nothing (204): `true` tells its success from a failure, which `run` answers as undefined
    action.run(() => api.webhooks.delete_webhook({ path: { id: endpoint.id } }).then(() => true)).then((deleted) => {
      setConfirming(undefined)
      if (deleted === true) navigate(href("webhooks"))
    })
  return (
    <>
      <PageHeader title="Webhook endpoint" back={{ href: href("webhooks"), label: "Webhooks" }}>
        {canWrite
          ? (
            <>
              <button type="button" disabled={action.busy} onClick={sendTest}>Send test event</button>
              {endpoint.enabled
                ? <button type="button" disabled={action.busy} onClick={() => setEnabled(false)}>Disable</button>
                : <button type="button" disabled={action.busy} onClick={() => setEnabled(true)}>Enable</button>}
              <button type="button" disabled={action.busy} onClick={() => setConfirming("rotate")}>Rotate secret</button>
              <button type="button" class="danger" disabled={action.busy} onClick={() => setConfirming("delete")}>Delete</button>
            </>
          )
          : null}
      </PageHeader>
      {action.error === undefined ? null : <ErrorNote error={action.error} title="That did not work" />}
      {notice === undefined ? null : <p class="notice" role="status">{notice}</p>}
      {secret === undefined ? null : (
        <section class="panel" aria-label="New signing secret">
          <CopyField
            label="The new signing secret"
            value={secret.secret}
            note={`Copy it now into the receiver's configuration: it is not shown again. The previous secret also signs deliveries until ${
              formatTime(secret.previous_secret_expires_at)
            }.`}
          />
          <button type="button" onClick={() => setSecret(undefined)}>Done</button>
        </section>
      )}
      {editing
        ? <EditSettings endpoint={endpoint} onDone={(changed) => {
          setEditing(false)
          if (changed) onChanged()
        }} />
        : <Settings endpoint={endpoint} onEdit={canWrite ? () => setEditing(true) : undefined} />}
      <Confirm
        open={confirming === "rotate"}
        title="Rotate the signing secret?"
        confirmLabel="Rotate secret"
        busy={action.busy}
        onCancel={() => setConfirming(undefined)}
        onConfirm={rotate}
      >
        <p>
          A new secret signs every delivery from now on, and is shown once. The current one keeps signing alongside it for 24
          hours, time to give the receiver the new one.
        </p>
      </Confirm>
      <Confirm
        open={confirming === "delete"}
        title="Delete this endpoint?"
        confirmLabel="Delete endpoint"
        busy={action.busy}
        onCancel={() => setConfirming(undefined)}
        onConfirm={remove}
      >
        <p>
          <code>{endpoint.url}</code> stops getting events at once, and its deliveries, sent or waiting, are deleted with it. This
          cannot be undone.
        </p>
      </Confirm>
    </>
  )
}

const Settings = ({ endpoint, onEdit }: { endpoint: WebhookEndpoint; onEdit: (() => void) | undefined }) => (
  <section aria-labelledby="webhook-settings">
    <div class="section-title-row">
      <h2 id="webhook-settings">Settings</h2>
      {onEdit === undefined ? null : <button type="button" onClick={onEdit}>Edit settings</button>}
    </div>
    <dl class="facts">
      <dt>URL</dt>
      <dd><code>{endpoint.url}</code></dd>
      <dt>Description</dt>
      <dd>{endpoint.description ?? <span class="muted">none</span>}</dd>
      <dt>Events</dt>
      <dd>{endpoint.events.map((event) => <Fragment key={event}><code class="event">{event}</code> </Fragment>)}</dd>
      <dt>State</dt>
      <dd>
        {endpoint.enabled ? <Badge label="Enabled" /> : <Badge label="Disabled" />}
        {endpoint.disabled_reason === null ? null : <> Disabled by the server: {endpoint.disabled_reason}</>}
      </dd>
      <dt>Previous secret</dt>
      <dd>
        {endpoint.previous_secret_expires_at === null || Date.parse(endpoint.previous_secret_expires_at) < Date.now()
          ? <span class="muted">none signing</span>
          : `also signs deliveries until ${formatTime(endpoint.previous_secret_expires_at)}`}
      </dd>
      <dt>Created</dt>
      <dd>{formatTime(endpoint.created_at)}</dd>
      <dt>Updated</dt>
      <dd>{formatTime(endpoint.updated_at)}</dd>
      <dt>Id</dt>
      <dd><code>{endpoint.id}</code></dd>
    </dl>
  </section>
)

const EditSettings = ({ endpoint, onDone }: { endpoint: WebhookEndpoint; onDone: (changed: boolean) => void }) => {
  const [url, setUrl] = useState(endpoint.url)
  const [description, setDescription] = useState(endpoint.description ?? "")
  const [events, setEvents] = useState<ReadonlyArray<WebhookEventType>>(endpoint.events)
  const save = useAction()
  const submit = async (event: Event) => {
    event.preventDefault()
    const updated = await save.run(() =>
      api.webhooks.update_webhook({
        path: { id: endpoint.id },
        payload: { url: url.trim(), events: [...events], description: description.trim() === "" ? null : description.trim() }
      })
    )
    if (updated !== undefined) onDone(true)
  }
  return (
    <form class="panel" onSubmit={submit} aria-label="Edit the endpoint's settings" noValidate>
      <h2 class="form-title">Edit settings</h2>
      <div class="field">
        <label for="edit-webhook-url">URL</label>
        <input id="edit-webhook-url" type="url" class="wide" required maxLength={2000} value={url}
          onInput={(change) => setUrl(change.currentTarget.value)} />
      </div>
      <div class="field">
        <label for="edit-webhook-description">Description <span class="muted">(optional)</span></label>
        <input id="edit-webhook-description" class="wide" maxLength={500} value={description}
          onInput={(change) => setDescription(change.currentTarget.value)} />
      </div>
      <EventsField idPrefix="edit-webhook" value={events} onChange={setEvents} />
      {save.error === undefined ? null : <ErrorNote error={save.error} title="Could not save the settings" />}
      <div class="actions">
        <button type="submit" class="primary" disabled={save.busy}>Save settings</button>
        <button type="button" disabled={save.busy} onClick={() => onDone(false)}>Cancel</button>
      </div>
    </form>
  )
}
