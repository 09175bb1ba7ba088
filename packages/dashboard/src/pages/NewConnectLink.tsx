import type { Connector, ConnectorProfile, CreatedConnectSession } from "@switchyard/api"
import { useEffect, useRef, useState } from "preact/hooks"
import { api } from "../api.js"
import { CopyField } from "../ui/CopyField.js"
import { ErrorNote } from "../ui/Feedback.js"
import { formatTime } from "../ui/format.js"
import { useAction, useLoad } from "../ui/useLoad.js"

/** Both lists answer a bare array when no page is asked for; the envelope's data otherwise. */
const recordsOf = <A,>(result: ReadonlyArray<A> | { readonly data: ReadonlyArray<A> }): ReadonlyArray<A> =>
  Array.isArray(result) ? result : (result as { readonly data: ReadonlyArray<A> }).data

/** What the link may link: the project's active profiles, and the connector catalog. */
const choices = () =>
  Promise.all([
    api.connector_profiles.list_connector_profiles({ urlParams: { active: true, expand: ["connector"] } }).then(recordsOf<ConnectorProfile>),
    api.connectors.list_connectors({ urlParams: {} }).then(recordsOf<Connector>)
  ]).then(([profiles, connectors]) => ({ profiles, connectors }))

/*
 * The select's value says which of create_connect_session's narrowing fields it sets:
 * `profile:<id>` (connector_profile_id), `connector:<key>` (provider), or "" for neither, when
 * the connect page offers every profile of the project (or every connector if it has none).
 */
const narrowing = (choice: string) =>
  choice.startsWith("profile:")
    ? { connector_profile_id: choice.slice("profile:".length) }
    : choice.startsWith("connector:")
    ? { provider: choice.slice("connector:".length) }
    : {}

/**
 * "New connect link": a connect session for one customer (the owner), its hosted page's link
 * to copy and send them. The link is shown once here, as the API answers its token once.
 */
export const NewConnectLink = ({ onClose }: { onClose: () => void }) => {
  const options = useLoad(choices, [])
  const [ownerId, setOwnerId] = useState("")
  const [ownerName, setOwnerName] = useState("")
  const [choice, setChoice] = useState("")
  const [created, setCreated] = useState<CreatedConnectSession | undefined>(undefined)
  const create = useAction()
  const first = useRef<HTMLInputElement>(null)
  useEffect(() => first.current?.focus(), [])
  const submit = async (event: Event) => {
    event.preventDefault()
    const session = await create.run(() =>
      api.connect_sessions.create_connect_session({
        payload: { origin_owner_id: ownerId.trim(), origin_owner_name: ownerName.trim(), ...narrowing(choice) }
      })
    )
    if (session !== undefined) setCreated(session)
  }
  if (created !== undefined) {
    return (
      <section class="panel" aria-labelledby="connect-link-title">
        <h2 id="connect-link-title" class="panel-title">Connect link for {created.origin_owner_name}</h2>
        <CopyField
          label="Connect link"
          value={created.auth_link_url}
          note={`Send it to ${created.origin_owner_name}: it opens the page where they enter their credentials, links one account, and works until ${
            formatTime(created.expires_at)
          }. It is not shown again.`}
        />
        <div class="actions">
          <button type="button" onClick={() => {
            setCreated(undefined)
            setOwnerId("")
            setOwnerName("")
            setChoice("")
          }}>Create another</button>
          <button type="button" onClick={onClose}>Done</button>
        </div>
      </section>
    )
  }
  const loaded = options.state === "loaded" ? options.data : undefined
  return (
    <form class="panel" aria-labelledby="connect-form-title" onSubmit={submit}>
      <h2 id="connect-form-title" class="panel-title">New connect link</h2>
      <p class="muted">The customer who will link an account: the account is listed under this owner.</p>
      <div class="inline-form">
        <div class="field">
          <label for="connect-owner-id">Owner id</label>
          <input id="connect-owner-id" ref={first} required maxLength={200} value={ownerId} placeholder="e.g. customer-42"
            onInput={(event) => setOwnerId(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="connect-owner-name">Owner name</label>
          <input id="connect-owner-name" required maxLength={200} value={ownerName} placeholder="e.g. Acme Inc"
            onInput={(event) => setOwnerName(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="connect-choice">Link to</label>
          <select id="connect-choice" value={choice} disabled={loaded === undefined} onChange={(event) => setChoice(event.currentTarget.value)}>
            <option value="">Any of the project's connectors</option>
            {loaded === undefined || loaded.profiles.length === 0 ? null : (
              <optgroup label="Connector profiles">
                {loaded.profiles.map((profile) => (
                  <option key={profile.id} value={`profile:${profile.id}`}>
                    {profile.connector?.title ?? profile.connector_key} – {profile.label}
                  </option>
                ))}
              </optgroup>
            )}
            {loaded === undefined ? null : (
              <optgroup label="Connectors">
                {loaded.connectors.map((connector) => (
                  <option key={connector.id} value={`connector:${connector.key}`}>{connector.title}</option>
                ))}
              </optgroup>
            )}
          </select>
        </div>
      </div>
      {options.state === "failed" ? <ErrorNote error={options.error} title="Could not load the connectors to choose from" /> : null}
      {create.error === undefined ? null : <ErrorNote error={create.error} title="Could not create the connect link" />}
      <div class="actions">
        <button type="submit" class="primary" disabled={create.busy}>{create.busy ? "Creating…" : "Create link"}</button>
        <button type="button" onClick={onClose}>Cancel</button>
      </div>
    </form>
  )
}
