import type { ChangelogEntry, Connector, ConnectorActionSummary, ConnectorVersion } from "@switchyard/api"
import { useState } from "preact/hooks"
import { api } from "../api.js"
import { href, navigate } from "../router.js"
import { Badge } from "../ui/Badge.js"
import { Confirm } from "../ui/Confirm.js"
import { authLabel, categoryLabel, ownerLabel, verificationLabel, verificationMeaning, verificationTone } from "../ui/connectorLabels.js"
import { Empty, ErrorNote, Loaded } from "../ui/Feedback.js"
import { formatCount, formatTime } from "../ui/format.js"
import { PageHeader } from "../ui/PageHeader.js"
import { useSession } from "../ui/SessionContext.js"
import { useAction, useLoad } from "../ui/useLoad.js"

interface Detail {
  readonly connector: Connector
  readonly versions: ReadonlyArray<ConnectorVersion>
}

/** The version (and owner) a view of a connector is about, from its `?version=&owner=`; latest otherwise. */
export const versionQuery = (query: URLSearchParams) => {
  const version = query.get("version") ?? undefined
  const owner = query.get("owner") ?? undefined
  return { ...(version === undefined ? {} : { version }), ...(owner === undefined ? {} : { owner }) }
}

const loadDetail = async (key: string, query: { version?: string; owner?: string }): Promise<Detail> => {
  const [connector, versions] = await Promise.all([
    api.connectors.get_connector({
      path: { id: key },
      urlParams: { ...query, expand: ["actions", "changelog", "accounts_count", "connector_profiles_count"] }
    }),
    api.connectors.list_connector_versions({ path: { id: key } })
  ])
  return { connector, versions }
}

/** One connector: what it is, how accounts authenticate, its versions, changelog and actions. */
export const ConnectorPage = ({ connectorKey, query }: { connectorKey: string; query: URLSearchParams }) => {
  const { canWrite } = useSession()
  const selected = versionQuery(query)
  const detail = useLoad(() => loadDetail(connectorKey, selected), [connectorKey, selected.version, selected.owner])
  const [deleting, setDeleting] = useState<ConnectorVersion | undefined>(undefined)
  const remove = useAction()
  const title = detail.state === "loaded" ? detail.data.connector.title : connectorKey

  const confirmDelete = async () => {
    const version = deleting!
    // the deletion answers nothing (204): `true` tells its success from a failure, which run answers as undefined
    const done = await remove.run(async () => {
      await api.connectors.delete_connector({ path: { id: `${version.key}@${version.version}` } })
      return true
    })
    setDeleting(undefined)
    if (done === undefined) return
    // the view showed that version: show the key's latest (a built-in, another custom version), or the catalog when none is left
    const left = detail.state === "loaded" ? detail.data.versions.filter((other) => other !== version) : []
    if (left.length === 0) navigate(href("connectors"))
    else if (selected.version !== undefined) navigate(href(["connectors", connectorKey]))
    else detail.reload()
  }

  return (
    <>
      <PageHeader title={title} back={{ href: href("connectors"), label: "Connectors" }} />
      {remove.error === undefined ? null : <ErrorNote error={remove.error} title="Could not delete the connector version" />}
      <Loaded load={detail} what="the connector">
        {({ connector, versions }) => (
          <>
            {connector.description === null ? null : <p class="lead">{connector.description}</p>}
            <dl class="facts">
              <dt>Key</dt><dd><code>{connector.key}</code></dd>
              <dt>Version</dt>
              <dd>
                {connector.version} <Badge label={ownerLabel(connector.owner)} tone={connector.owner === "custom" ? "warn" : "neutral"} />
                {selected.version === undefined ? " (latest)" : <> · <a href={href(["connectors", connector.key])}>show the latest</a></>}
              </dd>
              <dt>Categories</dt><dd>{connector.categories.map(categoryLabel).join(", ") || "None"}</dd>
              <dt>Verification</dt>
              <dd>
                <Badge label={verificationLabel[connector.verification.level]} tone={verificationTone(connector.verification.level)} />{" "}
                {verificationMeaning[connector.verification.level]}
                {connector.verification.document_url === null
                  ? null
                  : <> (<a href={connector.verification.document_url} rel="noreferrer" target="_blank">the provider's document</a>)</>}
              </dd>
              {connector.documentation_url === null ? null : (
                <>
                  <dt>Provider documentation</dt>
                  <dd><a href={connector.documentation_url} rel="noreferrer" target="_blank">{connector.documentation_url}</a></dd>
                </>
              )}
              <dt>Used by</dt>
              <dd>
                {formatCount(connector.accounts_count ?? 0)} account{connector.accounts_count === 1 ? "" : "s"},{" "}
                {formatCount(connector.connector_profiles_count ?? 0)} connector profile{connector.connector_profiles_count === 1 ? "" : "s"}
              </dd>
            </dl>

            <OnThisPage
              parts={[
                ["connector-authentication", "Authentication"],
                ["connector-versions", `Versions (${versions.length})`],
                ["connector-changelog", `Changelog (${connector.changelog?.length ?? 0})`],
                ["connector-actions", `Actions (${connector.actions?.actions.length ?? 0})`],
                ...((connector.actions?.event_actions.length ?? 0) === 0
                  ? []
                  : [["connector-event-actions", `Event actions (${connector.actions!.event_actions.length})`] as const])
              ]}
            />

            <h2 id="connector-authentication" tabIndex={-1}>Authentication</h2>
            {connector.authentication_methods.length === 0
              ? <p>Accounts of this connector need no credentials.</p>
              : connector.authentication_methods.map((method) => (
                <section key={method.key} class="auth-method" aria-label={`Authentication: ${authLabel(method)}`}>
                  <h3>{authLabel(method)} <span class="muted">({method.type}{method.authorization_type === null ? "" : `, ${method.authorization_type}`})</span></h3>
                  {method.config_fields.length === 0
                    ? <p class="muted">No fields to fill in.</p>
                    : (
                      <ul class="plain">
                        {method.config_fields.map((field) => (
                          <li key={field.key}>
                            <strong>{field.label ?? field.key}</strong> <code>{field.key}</code>
                            {field.required ? " · required" : " · optional"}
                            {field.secret ? " · secret" : ""}
                            {field.description === null ? null : <span class="muted"> — {field.description}</span>}
                          </li>
                        ))}
                      </ul>
                    )}
                </section>
              ))}

            <h2 id="connector-versions" tabIndex={-1}>Versions</h2>
            <table>
              <caption class="visually-hidden">Versions of {connector.title}, newest first</caption>
              <thead>
                <tr><th scope="col">Version</th><th scope="col">Owner</th><th scope="col">Added</th><th scope="col">Content hash</th>{canWrite ? <th scope="col"><span class="visually-hidden">Actions</span></th> : null}</tr>
              </thead>
              <tbody>
                {versions.map((version) => {
                  const shown = version.version === connector.version && version.owner === connector.owner
                  return (
                    <tr key={`${version.version}~${version.owner}`} aria-current={shown ? "true" : undefined}>
                      <td>
                        {shown
                          ? <strong>{version.version} (shown)</strong>
                          : <a href={href(["connectors", version.key], { version: version.version, owner: version.owner })}>{version.version}</a>}
                      </td>
                      <td>{ownerLabel(version.owner)}</td>
                      <td>{formatTime(version.created_at)}</td>
                      <td><code>{version.content_hash.slice(0, 12)}</code></td>
                      {canWrite
                        ? (
                          <td>
                            {version.owner === "custom"
                              ? <button type="button" class="danger" onClick={() => setDeleting(version)}>Delete {version.version}</button>
                              : null}
                          </td>
                        )
                        : null}
                    </tr>
                  )
                })}
              </tbody>
            </table>

            <h2 id="connector-changelog" tabIndex={-1}>Changelog</h2>
            {(connector.changelog ?? []).length === 0
              ? <p class="muted">This connector publishes no changelog.</p>
              : (
                <ul class="changelog">
                  {newestFirst(connector.changelog!).map((entry) => (
                    <li key={`${entry.version}-${entry.release_date}-${entry.summary}`}>
                      <strong>{entry.version}</strong> <span class="muted">{entry.release_date}</span>{" "}
                      {entry.labels.map((label) => <Badge key={label} label={label} />)}
                      <p>{entry.summary}</p>
                      {entry.affected_actions.length === 0 ? null : (
                        <p class="muted">Actions: {entry.affected_actions.map((id, index) => <span key={id}>{index === 0 ? "" : ", "}<code>{id}</code></span>)}</p>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            <h2 id="connector-actions" tabIndex={-1}>Actions</h2>
            <ActionTable connector={connector} kind="actions" list={connector.actions?.actions ?? []} selected={selected} />
            {(connector.actions?.event_actions.length ?? 0) === 0 ? null : (
              <>
                <h2 id="connector-event-actions" tabIndex={-1}>Event actions</h2>
                <p class="muted">How the connector reads the events its provider sends.</p>
                <ActionTable connector={connector} kind="event_actions" list={connector.actions!.event_actions} selected={selected} />
              </>
            )}

          </>
        )}
      </Loaded>
      <Confirm
        open={deleting !== undefined}
        title={`Delete ${deleting?.key ?? ""} ${deleting?.version ?? ""}?`}
        confirmLabel="Delete version"
        busy={remove.busy}
        onCancel={() => setDeleting(undefined)}
        onConfirm={confirmDelete}
      >
        <p>
          The custom version <code>{deleting?.key}@{deleting?.version}</code> leaves this project's catalog; a built-in or an older
          custom version with its key takes its place. A version that connector profiles or accounts use cannot be deleted.
          This cannot be undone.
        </p>
      </Confirm>
    </>
  )
}

/**
 * Links to the view's parts, which a long list of actions pushes far down. Buttons rather than
 * `#id` links: the fragment is the dashboard's route. Focus moves to the part's heading.
 */
const OnThisPage = ({ parts }: { parts: ReadonlyArray<readonly [id: string, label: string]> }) => (
  <nav class="on-this-page" aria-label="On this page">
    <span>On this page:</span>
    {parts.map(([id, label]) => (
      <button key={id} type="button" class="link" onClick={() => {
        const heading = document.getElementById(id)
        heading?.scrollIntoView({ block: "start" })
        heading?.focus({ preventScroll: true })
      }}>
        {label}
      </button>
    ))}
  </nav>
)

/** Release dates are ISO dates (`2026-11-20`), so they sort as text; the newest change is what a reader looks for. */
const newestFirst = (entries: ReadonlyArray<ChangelogEntry>) =>
  [...entries].sort((a, b) => b.release_date.localeCompare(a.release_date))

const ActionTable = (
  { connector, kind, list, selected }: {
    connector: Connector
    kind: "actions" | "event_actions"
    list: ReadonlyArray<ConnectorActionSummary>
    selected: { version?: string; owner?: string }
  }
) =>
  list.length === 0
    ? <Empty title="No actions">This version of the connector defines none; accounts of it can link but not run anything.</Empty>
    : (
      <table>
        <caption class="visually-hidden">{kind === "actions" ? "Actions" : "Event actions"} of {connector.title}</caption>
        <thead>
          <tr><th scope="col">Action</th><th scope="col">Id</th><th scope="col">Type</th><th scope="col" class="number">Inputs</th><th scope="col">Required scopes</th></tr>
        </thead>
        <tbody>
          {list.map((action) => (
            <tr key={action.id}>
              <td>
                <a href={href(["connectors", connector.key, kind, action.id], selected)}>{action.label}</a>
                {action.description === null ? null : <div class="muted small">{action.description}</div>}
              </td>
              <td><code>{action.id}</code></td>
              <td>{action.action_type}</td>
              <td class="number">{action.inputs.length}</td>
              <td>{action.required_scopes.map((scope) => <code key={scope} class="tag">{scope}</code>)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    )
