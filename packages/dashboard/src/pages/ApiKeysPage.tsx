import type { ApiKey, ApiKeyScope, ApiKeyWithSecret } from "@switchyard/api"
import { useState } from "preact/hooks"
import { api } from "../api.js"
import { Badge } from "../ui/Badge.js"
import { Confirm } from "../ui/Confirm.js"
import { CopyField } from "../ui/CopyField.js"
import { Empty, ErrorNote, Loaded } from "../ui/Feedback.js"
import { formatTime, scopeLabels } from "../ui/format.js"
import { PageHeader } from "../ui/PageHeader.js"
import { useAction, useLoad } from "../ui/useLoad.js"

const scopes = (Object.entries(scopeLabels) as Array<[ApiKeyScope, string]>).map(([value, label]) => ({ value, label }))

/** Every key of the project, revoked ones included, following the pages to the end. */
const allKeys = async (): Promise<ReadonlyArray<ApiKey>> => {
  const keys: Array<ApiKey> = []
  let next: string | undefined
  do {
    const page = await api.api_keys.list_api_keys({ urlParams: { page_size: 100, include_revoked: "true", ...(next === undefined ? {} : { next }) } })
    keys.push(...page.data)
    next = page.next ?? undefined
  } while (next !== undefined)
  return keys
}

/** API keys: list, create (the key shown once), revoke. Only Full Access sessions reach this view. */
export const ApiKeysPage = () => {
  const keys = useLoad(allKeys, [])
  const [created, setCreated] = useState<ApiKeyWithSecret | undefined>(undefined)
  const [revoking, setRevoking] = useState<ApiKey | undefined>(undefined)
  const revoke = useAction()
  return (
    <>
      <PageHeader title="API keys" />
      <p class="muted">
        Keys authenticate the API (HTTP Basic, the key as username). A key is shown once, when it is created; only its first
        characters are kept to tell keys apart. Revoking a key also ends the dashboard sessions signed in with it.
      </p>
      <CreateKey onCreated={(key) => {
        setCreated(key)
        keys.reload()
      }} />
      {created === undefined ? null : (
        <section class="panel" aria-label="New key">
          <CopyField
            label={`The new key “${created.name}” (${scopeLabels[created.scope]})`}
            value={created.key}
            note="Copy it now: it is not shown again."
          />
          <button type="button" onClick={() => setCreated(undefined)}>Done</button>
        </section>
      )}
      {revoke.error === undefined ? null : <ErrorNote error={revoke.error} title="Could not revoke the key" />}
      <Loaded load={keys} what="API keys">
        {(list) =>
          list.length === 0
            ? <Empty title="No API keys yet">Create one above; the server also prints one at its first start.</Empty>
            : (
              <table>
                <caption class="visually-hidden">API keys, newest first</caption>
                <thead>
                  <tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Scope</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr>
                </thead>
                <tbody>
                  {list.map((key) => (
                    <tr key={key.id}>
                      <td>{key.name}</td>
                      <td><code>{key.key_prefix}…</code></td>
                      <td>{scopeLabels[key.scope]}</td>
                      <td>{formatTime(key.created_at)}</td>
                      <td>{formatTime(key.last_used_at)}</td>
                      <td>{key.revoked_at === null ? <Badge label="Active" tone="good" /> : <Badge label={`Revoked ${formatTime(key.revoked_at)}`} tone="neutral" />}</td>
                      <td>
                        {key.revoked_at === null
                          ? <button type="button" class="danger" aria-label={`Revoke ${key.name}`} onClick={() => setRevoking(key)}>Revoke</button>
                          : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
      </Loaded>
      <Confirm
        open={revoking !== undefined}
        title={`Revoke “${revoking?.name ?? ""}”?`}
        confirmLabel="Revoke key"
        busy={revoke.busy}
        onCancel={() => setRevoking(undefined)}
        onConfirm={() =>
          revoke.run(() => api.api_keys.revoke_api_key({ path: { id: revoking!.id } })).then(() => {
            setRevoking(undefined)
            keys.reload()
          })}
      >
        <p>Requests with <code>{revoking?.key_prefix}…</code> stop working at once, and its dashboard sessions end. This cannot be undone.</p>
      </Confirm>
    </>
  )
}

const CreateKey = ({ onCreated }: { onCreated: (key: ApiKeyWithSecret) => void }) => {
  const [name, setName] = useState("")
  const [scope, setScope] = useState<ApiKeyScope>("read_only")
  const create = useAction()
  const submit = async (event: Event) => {
    event.preventDefault()
    const key = await create.run(() => api.api_keys.create_api_key({ payload: { name, scope } }))
    if (key !== undefined) {
      setName("")
      onCreated(key)
    }
  }
  return (
    <form class="panel inline-form" onSubmit={submit} aria-label="Create an API key">
      <div class="field">
        <label for="key-name">Name</label>
        <input id="key-name" required maxLength={100} value={name} placeholder="e.g. Support dashboard"
          onInput={(event) => setName(event.currentTarget.value)} />
      </div>
      <div class="field">
        <label for="key-scope">Scope</label>
        <select id="key-scope" value={scope} onChange={(event) => setScope(event.currentTarget.value as ApiKeyScope)}>
          {scopes.map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
        </select>
      </div>
      <button type="submit" class="primary" disabled={create.busy}>Create key</button>
      {create.error === undefined ? null : <ErrorNote error={create.error} title="Could not create the key" />}
    </form>
  )
}
