import { type WebhookEventType, WebhookEventType as EventTypes } from "@switchyard/api"

/** What each event means, beside its name (the name is what the receiver sees as `type`). */
const meaning: Record<WebhookEventType, string> = {
  "account.created": "an account is linked",
  "account.updated": "an account's status or details change",
  "account.deleted": "an account is deleted",
  "connect_session.completed": "an end user finishes a connect link",
  "connect_session.failed": "a connect link fails"
}

/** The events an endpoint subscribes to, as checkboxes: the list comes from the API's own schema. */
export const EventsField = (
  { idPrefix, value, onChange }: {
    idPrefix: string
    value: ReadonlyArray<WebhookEventType>
    onChange: (events: ReadonlyArray<WebhookEventType>) => void
  }
) => (
  <fieldset class="events-field">
    <legend>Events</legend>
    {EventTypes.literals.map((event) => (
      <div class="check" key={event}>
        <input
          id={`${idPrefix}-${event}`}
          type="checkbox"
          checked={value.includes(event)}
          onChange={(change) =>
            onChange(change.currentTarget.checked ? EventTypes.literals.filter((e) => e === event || value.includes(e)) : value.filter((e) => e !== event))}
        />
        <label for={`${idPrefix}-${event}`}><code>{event}</code> <span class="muted">when {meaning[event]}</span></label>
      </div>
    ))}
  </fieldset>
)
