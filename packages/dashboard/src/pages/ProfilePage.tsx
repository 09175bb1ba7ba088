import type { Connector, ConnectorActionSummary, ConnectorProfile } from "@switchyard/api"
import { Fragment } from "preact"
import { useState } from "preact/hooks"
import { api } from "../api.js"
import { href, navigate } from "../router.js"
import { Badge } from "../ui/Badge.js"
import { Confirm } from "../ui/Confirm.js"
import { ErrorNote, Loaded } from "../ui/Feedback.js"
import { formatCount, formatTime } from "../ui/format.js"
import { PageHeader } from "../ui/PageHeader.js"
import { useSession } from "../ui/SessionContext.js"
import { draftOf, SettingsEditor, settingsOf } from "../ui/SettingsEditor.js"
import { useAction, useLoad } from "../ui/useLoad.js"

interface Detail {
  readonly profile: ConnectorProfile
  /** The connector at the version the profile resolves to, with its actions; undefined when no version matches. */
  readonly connector: Connector | undefined
}

const loadDetail = async (id: string): Promise<Detail> => {
  const profile = await api.connector_profiles.get_connector_profile({
    path: { id },
    urlParams: { expand: ["connector", "version", "accounts_count", "enabled_actions_count"] }
  })
  if (profile.version === null) return { profile, connector: undefined }
  const connector = await api.connectors.get_connector({
    path: { id: profile.connector_key },
    urlParams: {
      version: profile.version,
      ...(profile.connector === null ? {} : { owner: profile.connector.owner }),
      expand: ["actions"]
    }
  })
  return { profile, connector }
}

/** One connector profile: what it is, its actions and settings; edited in place by sessions that may write. */
export const ProfilePage = ({ id }: { id: string }) => {
  const { canWrite } = useSession()
  const detail = useLoad(() => loadDetail(id), [id])
  const [deleting, setDeleting] = useState(false)
  const [saved, setSaved] = useState<string | undefined>(undefined)
  const remove = useAction()
  const title = detail.state === "loaded" ? detail.data.profile.label : "Connector profile"
  return (
    <>
      <PageHeader title={title} back={{ href: href("profiles"), label: "Connector profiles" }}>
        {canWrite && detail.state === "loaded"
          ? <button type="button" class="danger" onClick={() => setDeleting(true)}>Delete profile</button>
          : null}
      </PageHeader>
      {remove.error === undefined ? null : <ErrorNote error={remove.error} title="Could not delete the profile" />}
      <Loaded load={detail} what="the connector profile">
        {({ profile, connector }) => {
          const actions = connector?.actions?.actions ?? []
          return (
            <>
              <dl class="facts">
                <dt>Connector</dt>
                <dd>
                  <a href={href(["connectors", profile.connector_key])}>{profile.connector?.title ?? profile.connector_key}</a>{" "}
                  <code>{profile.connector_key}</code>
                </dd>
                <dt>Version</dt>
                <dd>
                  {profile.version === null
                    ? <span class="muted">No version of the connector matches {profile.version_spec}</span>
                    : <>{profile.version}{profile.version_spec === profile.version ? null : <span class="muted"> (from {profile.version_spec})</span>}</>}
                </dd>
                <dt>Status</dt><dd><Badge label={profile.active ? "Active" : "Inactive"} /></dd>
                <dt>Accounts</dt><dd>{formatCount(profile.accounts_count ?? 0)} linked through this profile</dd>
                <dt>Enabled actions</dt><dd>{formatCount(profile.enabled_actions_count ?? profile.enabled_actions.length)} of {formatCount(actions.length)}</dd>
                {profile.setup_fields_set.length === 0 ? null : (
                  <>
                    <dt>Setup values stored</dt>
                    <dd>{profile.setup_fields_set.map((name) => <code key={name} class="tag">{name}</code>)} (never shown)</dd>
                  </>
                )}
                <dt>Updated</dt><dd>{formatTime(profile.updated_at)}</dd>
              </dl>
              {canWrite
                ? (
                  <ProfileEditor
                    key={profile.updated_at}
                    profile={profile}
                    actions={connector === undefined ? undefined : actions}
                    saved={saved}
                    onSaved={() => {
                      setSaved(`Saved at ${formatTime(new Date().toISOString())}.`)
                      detail.reload()
                    }}
                    onEdited={() => setSaved(undefined)}
                  />
                )
                : <ProfileReadOnly profile={profile} actions={actions} />}
            </>
          )
        }}
      </Loaded>
      <Confirm
        open={deleting}
        title={`Delete the profile “${title}”?`}
        confirmLabel="Delete profile"
        busy={remove.busy}
        onCancel={() => setDeleting(false)}
        onConfirm={() =>
          // the deletion answers nothing (204): `true` tells its success from a failure, which run answers as undefined
          remove.run(async () => {
            await api.connector_profiles.delete_connector_profile({ path: { id } })
            return true
          }).then((done) => {
            setDeleting(false)
            if (done !== undefined) navigate(href("profiles"))
          })}
      >
        <p>
          Its settings and stored setup values are deleted. A profile that accounts still link through cannot be deleted: relink
          or delete those accounts first. This cannot be undone.
        </p>
      </Confirm>
    </>
  )
}

const ProfileReadOnly = ({ profile, actions }: { profile: ConnectorProfile; actions: ReadonlyArray<ConnectorActionSummary> }) => {
  const settings = Object.entries(profile.account_settings).sort(([a], [b]) => a.localeCompare(b))
  return (
    <>
      <h2>Actions</h2>
      <ul class="plain action-states">
        {actions.map((action) => (
          <li key={action.id}>
            <Badge label={profile.enabled_actions.includes(action.id) ? "Enabled" : "Disabled"} /> {action.label} <code>{action.id}</code>
          </li>
        ))}
      </ul>
      <h2>Account settings</h2>
      {settings.length === 0
        ? <p class="muted">None: accounts linked through this profile receive no shared settings.</p>
        : (
          <dl class="facts">
            {settings.map(([name, value]) => (
              <Fragment key={name}>
                <dt><code>{name}</code></dt>
                <dd>{typeof value === "string" ? value : <code>{JSON.stringify(value)}</code>}</dd>
              </Fragment>
            ))}
          </dl>
        )}
    </>
  )
}

/**
 * The profile's form: label, active, version, enabled actions (a checkbox per action of the
 * version it resolves to) and account settings, sent with update_connector_profile. Keyed by
 * `updated_at`, so a save starts it again from what the server stored.
 */
const ProfileEditor = (
  { profile, actions: known, saved, onSaved, onEdited }: {
    profile: ConnectorProfile
    /** The actions of the version the profile resolves to; undefined when no version matches (then they are left as they are). */
    actions: ReadonlyArray<ConnectorActionSummary> | undefined
    /** What the last save did, shown beside the button until the next edit. */
    saved: string | undefined
    onSaved: () => void
    onEdited: () => void
  }
) => {
  const actions = known ?? []
  const [label, setLabel] = useState(profile.label)
  const [active, setActive] = useState(profile.active)
  const [version, setVersion] = useState(profile.version_spec)
  const [enabled, setEnabled] = useState<ReadonlySet<string>>(() => new Set(profile.enabled_actions))
  const [settings, setSettings] = useState(() => draftOf(profile.account_settings))
  const [problem, setProblem] = useState<{ field: "label" | "settings"; message: string } | undefined>(undefined)
  const save = useAction()
  const edited = <A,>(set: (value: A) => void) => (value: A) => {
    onEdited()
    set(value)
  }
  const toggle = (id: string, on: boolean) => {
    const next = new Set(enabled)
    if (on) next.add(id)
    else next.delete(id)
    edited(setEnabled)(next)
  }
  const submit = async (event: Event) => {
    event.preventDefault()
    setProblem(undefined)
    if (label.trim() === "") return setProblem({ field: "label", message: "The label cannot be empty." })
    const parsed = settingsOf(settings)
    if ("error" in parsed) return setProblem({ field: "settings", message: parsed.error })
    const done = await save.run(() =>
      api.connector_profiles.update_connector_profile({
        path: { id: profile.id },
        urlParams: {},
        payload: {
          label: label.trim(),
          active,
          ...(version.trim() === "" || version.trim() === profile.version_spec ? {} : { version: version.trim() }),
          // in the connector's order; ids the version does not have are not kept (the server would refuse them)
          ...(known === undefined ? {} : { enabled_actions: known.filter((action) => enabled.has(action.id)).map((action) => action.id) }),
          account_settings: parsed.settings
        }
      })
    )
    if (done !== undefined) onSaved()
  }
  const enabledCount = actions.filter((action) => enabled.has(action.id)).length
  return (
    <form class="profile-form" onSubmit={submit} aria-label="Edit the profile" noValidate>
      <h2>Edit the profile</h2>
      <div class="field">
        <label for="edit-label">Label</label>
        <input id="edit-label" maxLength={200} value={label} onInput={(event) => edited(setLabel)(event.currentTarget.value)}
          aria-invalid={problem?.field === "label" ? "true" : undefined}
          aria-describedby={problem?.field === "label" ? "edit-label-error" : undefined} />
        {problem?.field === "label" ? <p id="edit-label-error" class="field-error" role="alert">{problem.message}</p> : null}
      </div>
      <div class="field">
        <label for="edit-version">Version</label>
        <input id="edit-version" maxLength={100} value={version} aria-describedby="edit-version-help"
          onInput={(event) => edited(setVersion)(event.currentTarget.value)} />
        <p id="edit-version-help" class="muted">
          <code>latest</code>, an exact version (1.2.0) or a range (1.x). The actions below are those of {profile.version ?? "the current version"}.
        </p>
      </div>
      <div class="field checkbox">
        <input id="edit-active" type="checkbox" checked={active} aria-describedby="edit-active-help"
          onChange={(event) => edited(setActive)(event.currentTarget.checked)} />
        <label for="edit-active">Active</label>
        <p id="edit-active-help" class="muted">An inactive profile switches the integration off: its accounts' calls are refused.</p>
      </div>
      <fieldset class="action-choices">
        <legend>Enabled actions ({enabledCount} of {actions.length})</legend>
        {actions.length === 0
          ? <p class="muted">{known === undefined ? "No version of the connector matches the profile's version, so its actions cannot be listed; they are kept as they are." : "This version of the connector has no actions."}</p>
          : (
            <>
              <div class="actions">
                <button type="button" onClick={() => edited(setEnabled)(new Set(actions.map((action) => action.id)))}>Enable all</button>
                <button type="button" onClick={() => edited(setEnabled)(new Set())}>Disable all</button>
              </div>
              <ul class="checkbox-grid">
                {actions.map((action) => (
                  <li key={action.id}>
                    <input id={`action-${action.id}`} type="checkbox" checked={enabled.has(action.id)}
                      onChange={(event) => toggle(action.id, event.currentTarget.checked)} />
                    <label for={`action-${action.id}`}>{action.label} <code>{action.id}</code></label>
                  </li>
                ))}
              </ul>
            </>
          )}
      </fieldset>
      <SettingsEditor id="edit-settings" draft={settings} onChange={edited(setSettings)}
        error={problem?.field === "settings" ? problem.message : undefined} />
      {save.error === undefined ? null : <ErrorNote error={save.error} title="Could not save the profile" />}
      <div class="actions">
        <button type="submit" class="primary" disabled={save.busy}>{save.busy ? "Saving…" : "Save changes"}</button>
        {saved === undefined ? null : <span class="saved" role="status">{saved}</span>}
      </div>
    </form>
  )
}
