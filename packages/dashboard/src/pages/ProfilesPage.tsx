import { recordsOf } from "@switchyard/client"
import { useState } from "preact/hooks"
import { api } from "../api.js"
import type { PageProps } from "../routes.js"
import { href, navigate } from "../router.js"
import { Badge } from "../ui/Badge.js"
import { Empty, ErrorNote, Loaded } from "../ui/Feedback.js"
import { formatCount } from "../ui/format.js"
import { PageHeader } from "../ui/PageHeader.js"
import { useSession } from "../ui/SessionContext.js"
import { emptyDraft, SettingsEditor, settingsOf } from "../ui/SettingsEditor.js"
import { useDisclosure, useFocusOnMount } from "../ui/useDisclosure.js"
import { useAction, useLoad } from "../ui/useLoad.js"
import { ProfilePage } from "./ProfilePage.js"

/** `#/profiles` lists the project's connector profiles; `#/profiles/<id>` is one of them. */
export const ProfilesPage = ({ route }: PageProps) => {
  const id = route.segments[1]
  return id === undefined ? <ProfileList /> : <ProfilePage id={id} />
}

/** Every profile with its connector, the version it resolves to and its usage, by label. */
const loadProfiles = async () => {
  const answer = await api.connector_profiles.list_connector_profiles({
    urlParams: { expand: ["connector", "version", "accounts_count", "enabled_actions_count"] }
  })
  return [...recordsOf(answer)].sort((a, b) => a.label.localeCompare(b.label))
}

const loadConnectors = async () =>
  [...recordsOf(await api.connectors.list_connectors({ urlParams: {} }))].sort((a, b) => a.title.localeCompare(b.title))

const ProfileList = () => {
  const { canWrite } = useSession()
  const profiles = useLoad(loadProfiles, [])
  const create = useDisclosure()
  return (
    <>
      <PageHeader title="Connector profiles">
        {canWrite && !create.open
          ? <button type="button" class="primary" ref={create.opener} onClick={create.show}>Create a profile</button>
          : null}
      </PageHeader>
      <p class="muted">
        A profile is how this project uses a connector: the version its accounts run, the actions they may run and the settings
        they share. Accounts link through a profile.
      </p>
      {canWrite && create.open ? <CreateProfile onClose={create.hide} /> : null}
      <Loaded load={profiles} what="connector profiles">
        {(list) =>
          list.length === 0
            ? (
              <Empty title="No connector profiles yet">
                {canWrite
                  ? "Accounts link to a connector through a profile. Create one: choose the connector and give it a label; then choose its actions on its page."
                  : "A session with write access can create one; until then no account can link."}
              </Empty>
            )
            : (
              <table>
                <caption class="visually-hidden">Connector profiles, by label</caption>
                <thead>
                  <tr>
                    <th scope="col">Label</th>
                    <th scope="col">Connector</th>
                    <th scope="col">Version</th>
                    <th scope="col" class="number">Enabled actions</th>
                    <th scope="col" class="number">Accounts</th>
                    <th scope="col">Status</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((profile) => (
                    <tr key={profile.id}>
                      <td><a href={href(["profiles", profile.id])}>{profile.label}</a></td>
                      <td>
                        {profile.connector === null
                          ? <code>{profile.connector_key}</code>
                          : <><a href={href(["connectors", profile.connector_key])}>{profile.connector.title}</a> <code>{profile.connector_key}</code></>}
                      </td>
                      <td>
                        {profile.version ?? <span class="muted">none matches</span>}
                        {profile.version_spec === profile.version ? null : <span class="muted"> ({profile.version_spec})</span>}
                      </td>
                      <td class="number">{formatCount(profile.enabled_actions_count ?? profile.enabled_actions.length)}</td>
                      <td class="number">{formatCount(profile.accounts_count ?? 0)}</td>
                      <td><Badge label={profile.active ? "Active" : "Inactive"} /></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
      </Loaded>
    </>
  )
}

/** A new profile: the connector, a label, optionally a version, and the account settings. */
const CreateProfile = ({ onClose }: { onClose: () => void }) => {
  const connectors = useLoad(loadConnectors, [])
  const [connectorKey, setConnectorKey] = useState("")
  const [label, setLabel] = useState("")
  const [version, setVersion] = useState("")
  const [settings, setSettings] = useState(emptyDraft)
  const [problem, setProblem] = useState<{ field: "connector" | "label" | "settings"; message: string } | undefined>(undefined)
  const create = useAction()
  const heading = useFocusOnMount<HTMLHeadingElement>()
  const submit = async (event: Event) => {
    event.preventDefault()
    setProblem(undefined)
    if (connectorKey === "") return setProblem({ field: "connector", message: "Choose the connector the profile is for." })
    if (label.trim() === "") return setProblem({ field: "label", message: "Give the profile a label, such as “Recruiting”." })
    const parsed = settingsOf(settings)
    if ("error" in parsed) return setProblem({ field: "settings", message: parsed.error })
    const created = await create.run(() =>
      api.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: {
          connector_key: connectorKey,
          label: label.trim(),
          ...(version.trim() === "" ? {} : { version: version.trim() }),
          account_settings: parsed.settings
        }
      })
    )
    if (created !== undefined) navigate(href(["profiles", created.id]))
  }
  const errorFor = (field: "connector" | "label") =>
    problem?.field === field ? <p id={`profile-${field}-error`} class="field-error" role="alert">{problem.message}</p> : null
  return (
    <form class="panel" onSubmit={submit} aria-labelledby="create-profile-title" noValidate>
      <h2 id="create-profile-title" ref={heading} tabIndex={-1}>Create a connector profile</h2>
      <Loaded load={connectors} what="connectors">
        {(list) => (
          <div class="field">
            <label for="profile-connector">Connector</label>
            <select id="profile-connector" value={connectorKey} onChange={(event) => setConnectorKey(event.currentTarget.value)}
              aria-invalid={problem?.field === "connector" ? "true" : undefined}
              aria-describedby={problem?.field === "connector" ? "profile-connector-error" : undefined}>
              <option value="">Choose a connector…</option>
              {list.map((connector) => (
                <option key={connector.key} value={connector.key}>
                  {connector.title} ({connector.key}{connector.owner === "custom" ? ", custom" : ""})
                </option>
              ))}
            </select>
            {errorFor("connector")}
          </div>
        )}
      </Loaded>
      <div class="field">
        <label for="profile-label">Label</label>
        <input id="profile-label" maxLength={200} value={label} placeholder="e.g. Recruiting"
          aria-invalid={problem?.field === "label" ? "true" : undefined}
          aria-describedby={problem?.field === "label" ? "profile-label-error" : undefined}
          onInput={(event) => setLabel(event.currentTarget.value)} />
        {errorFor("label")}
      </div>
      <div class="field">
        <label for="profile-version">Version</label>
        <input id="profile-version" maxLength={100} value={version} placeholder="latest" aria-describedby="profile-version-help"
          onInput={(event) => setVersion(event.currentTarget.value)} />
        <p id="profile-version-help" class="muted">
          Leave empty for the latest; an exact version (1.2.0) or a range (1.x) holds accounts to it.
        </p>
      </div>
      <SettingsEditor id="create-settings" draft={settings} onChange={setSettings}
        error={problem?.field === "settings" ? problem.message : undefined} />
      <p class="muted">Every action of the connector is enabled; choose fewer on the profile's page once it is created.</p>
      {create.error === undefined ? null : <ErrorNote error={create.error} title="Could not create the profile" />}
      <div class="actions">
        <button type="submit" class="primary" disabled={create.busy}>{create.busy ? "Creating…" : "Create profile"}</button>
        <button type="button" onClick={onClose}>Cancel</button>
      </div>
    </form>
  )
}
