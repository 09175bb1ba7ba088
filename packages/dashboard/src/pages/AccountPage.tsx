import type { Account, AccountMeta, AccountMetaOperation } from "@switchyard/api"
import { useState } from "preact/hooks"
import { api } from "../api.js"
import { href, navigate } from "../router.js"
import { Badge } from "../ui/Badge.js"
import { Confirm } from "../ui/Confirm.js"
import { Empty, ErrorNote, Loaded } from "../ui/Feedback.js"
import { formatTime } from "../ui/format.js"
import { PageHeader } from "../ui/PageHeader.js"
import { RequestLogTable } from "../ui/RequestLogTable.js"
import { useSession } from "../ui/SessionContext.js"
import { StatusReasons } from "../ui/StatusReasons.js"
import { useAction, useLoad } from "../ui/useLoad.js"
import { Values } from "../ui/Values.js"

const RECENT = 10

/** Why the dashboard suspended an account, kept with it until it is activated again. */
const SUSPENDED_HERE = { code: "suspended_in_dashboard", description: "Suspended in the dashboard" }

/** One account: what it is, what it serves, its last requests; suspend, activate and delete. */
export const AccountPage = ({ id }: { id: string }) => {
  const { canWrite } = useSession()
  const account = useLoad(
    () => api.accounts.get_account({ path: { id }, urlParams: { expand: ["connector", "connector_profile", "last_request"] } }),
    [id]
  )
  const [changed, setChanged] = useState<Account | undefined>(undefined)
  const shown = changed?.id === id ? changed : account.state === "loaded" ? account.data : undefined
  const change = useAction()
  const remove = useAction()
  const [deleting, setDeleting] = useState(false)
  const setStatus = (suspend: boolean) =>
    change.run(() =>
      api.accounts.patch_account({
        path: { id },
        urlParams: { expand: ["connector", "connector_profile", "last_request"] },
        // activating clears the reasons: they explained the status being left
        payload: suspend ? { status: "suspended", status_reasons: [SUSPENDED_HERE] } : { status: "active", status_reasons: [] }
      })
    ).then((updated) => updated !== undefined && setChanged(updated))
  const suspended = shown?.status === "suspended"
  // one header whatever the state, so the heading the view focuses stays in place once the account arrives
  return (
    <>
      <PageHeader title={shown?.name ?? "Account"} back={{ href: href("accounts"), label: "Accounts" }}>
        {canWrite && shown !== undefined
          ? (
            <>
              {suspended
                ? <button type="button" disabled={change.busy} onClick={() => setStatus(false)}>Activate</button>
                : <button type="button" disabled={change.busy} onClick={() => setStatus(true)}>Suspend</button>}
              <button type="button" class="danger" onClick={() => setDeleting(true)}>Delete</button>
            </>
          )
          : undefined}
      </PageHeader>
      {shown === undefined
        // loading, or failed (a deleted account's link): said in words under the heading
        ? <Loaded load={account} what="the account">{() => null}</Loaded>
        : (
          <>
            <p class="status-line" role="status">
              <Badge label={shown.status} />
              {suspended ? <span class="muted"> Actions and unified calls on it are refused (412) until it is activated.</span> : null}
            </p>
            <StatusReasons reasons={shown.status_reasons} />
            {change.error === undefined ? null : <ErrorNote error={change.error} title="Could not change the status" />}
            <Facts account={shown} />
            <h2>Settings</h2>
            {Object.keys(shown.settings).length === 0
              ? <p class="muted">No settings: the connector's defaults apply.</p>
              : <Values values={shown.settings} />}
            {shown.metadata === null ? null : (
              <>
                <h2>Metadata</h2>
                <p class="muted">What the connect session that linked it carried.</p>
                <Values values={shown.metadata} />
              </>
            )}
            <RecentRequests id={id} />
            <Operations id={id} />
            <Confirm
              open={deleting}
              title={`Delete “${shown.name}”?`}
              confirmLabel="Delete account"
              busy={remove.busy}
              onCancel={() => {
                remove.clear()
                setDeleting(false)
              }}
              onConfirm={() =>
                remove.run(() => api.accounts.delete_account({ path: { id } }).then(() => true)).then((done) => {
                  if (done === true) {
                    setDeleting(false)
                    navigate(href("accounts"))
                  }
                })}
            >
              <p>
                Its stored credentials are removed and calls with its id stop working at once. {shown.owner_name ?? shown.owner_id}{" "}
                would have to link it again. Its request logs are kept. This cannot be undone.
              </p>
              {remove.error === undefined ? null : <ErrorNote error={remove.error} title="Could not delete the account" />}
            </Confirm>
          </>
        )}
    </>
  )
}

const Facts = ({ account }: { account: Account }) => (
  <dl class="facts">
    <dt>Account id</dt>
    <dd><code>{account.id}</code></dd>
    <dt>Connector</dt>
    <dd>
      {account.connector?.title ?? account.connector_key} <span class="muted">
        (<code>{account.connector_key}</code>{account.connector_version === null ? ", latest version" : <>, version <code>{account.connector_version}</code></>})
      </span>
    </dd>
    <dt>Connector profile</dt>
    <dd>
      {account.connector_profile === null
        ? <span class="muted">None</span>
        : <a href={href(["profiles", account.connector_profile.id])}>{account.connector_profile.label}</a>}
    </dd>
    <dt>Owner</dt>
    <dd>
      {account.owner_name ?? account.owner_id}
      <span class="muted">
        {" "}(id <code>{account.owner_id}</code>{account.owner_username === null ? null : <>, username <code>{account.owner_username}</code></>})
      </span>
    </dd>
    {account.label === null ? null : <><dt>Label</dt><dd>{account.label}</dd></>}
    <dt>Linked via</dt>
    <dd>
      {account.linked_via === "connect_session"
        ? <>Connect link{account.connect_session_id === null ? null : <span class="muted"> (session <code>{account.connect_session_id}</code>)</span>}</>
        : "The API (POST /v2/accounts)"}
    </dd>
    <dt>Linked</dt>
    <dd>{formatTime(account.connected_at)}</dd>
    <dt>Created</dt>
    <dd>{formatTime(account.created_at)}</dd>
    <dt>Updated</dt>
    <dd>{formatTime(account.updated_at)}</dd>
    <dt>Last active</dt>
    <dd>{formatTime(account.last_request)}</dd>
  </dl>
)

/**
 * The operations by unified model (`ats_applications`), in the meta's order; an operation no
 * model lists goes under "other".
 */
const byModel = (meta: AccountMeta): ReadonlyArray<readonly [string, ReadonlyArray<AccountMetaOperation>]> => {
  const grouped = Object.entries(meta.models).map(([model, { operations }]) => [model, operations] as const)
  const listed = new Set(grouped.flatMap(([, operations]) => operations.map((operation) => operation.id)))
  const other = meta.operations.filter((operation) => !listed.has(operation.id))
  return other.length === 0 ? grouped : [...grouped, ["other", other] as const]
}

/** The unified operations the account can serve, a disclosure per model (a connector may serve dozens). */
const Operations = ({ id }: { id: string }) => {
  const meta = useLoad(() => api.accounts.get_account_meta({ path: { id } }), [id])
  return (
    <section aria-labelledby="operations-title">
      <h2 id="operations-title">Operations</h2>
      <Loaded load={meta} what="the operations it serves">
        {(found: AccountMeta) =>
          found.operations.length === 0
            ? (
              <Empty title="It serves no unified operation">
                Its connector version implements none, or its connector profile enables none. Its actions can still be run through the
                action RPC.
              </Empty>
            )
            : (
              <>
                <p class="muted">
                  {found.provider_name} <code>{found.connector.version}</code>
                  {found.categories.length === 0 ? null : <> · {found.categories.join(", ").toUpperCase()}</>} · {found.operations.length}{" "}
                  unified {found.operations.length === 1 ? "operation" : "operations"}. Open a model to see its endpoints.
                </p>
                <div class="models">
                  {byModel(found).map(([model, operations]) => (
                    <details key={model} class="model">
                      <summary>
                        <code>{model}</code> <span class="muted">· {operations.length} {operations.length === 1 ? "operation" : "operations"}</span>
                      </summary>
                      <table>
                        <caption class="visually-hidden">Operations of {model}</caption>
                        <thead>
                          <tr><th scope="col">Operation</th><th scope="col">Endpoint</th></tr>
                        </thead>
                        <tbody>
                          {operations.map((operation) => (
                            <tr key={operation.id}>
                              <td><code>{operation.id}</code></td>
                              <td><code class="endpoint">{operation.method.toUpperCase()} {operation.path}</code></td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </details>
                  ))}
                </div>
              </>
            )}
      </Loaded>
    </section>
  )
}

const RecentRequests = ({ id }: { id: string }) => {
  const logs = useLoad(() => api.request_logs.list_request_logs({ urlParams: { account_ids: [id], page_size: RECENT } }), [id])
  return (
    <section aria-labelledby="recent-title">
      <h2 id="recent-title">Last requests</h2>
      <Loaded load={logs} what="its last requests">
        {(page) =>
          page.data.length === 0
            ? <Empty title="No requests yet">Calls on this account through the API, unified endpoints or MCP are logged here.</Empty>
            : (
              <>
                <RequestLogTable entries={page.data} showAccount={false} caption="The account's last requests, newest first" />
                <p><a href={href("logs", { account_ids: id })}>All requests of this account</a></p>
              </>
            )}
      </Loaded>
    </section>
  )
}
