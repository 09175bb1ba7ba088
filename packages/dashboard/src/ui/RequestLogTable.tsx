import type { RequestLogRecord } from "@switchyard/api"
import { href } from "../router.js"
import { Badge } from "./Badge.js"
import { formatDuration, formatTime } from "./format.js"

/** How each source calls an action, in words. */
export const sourceLabels: Readonly<Record<RequestLogRecord["source_type"], string>> = {
  rpc: "Action RPC",
  unified: "Unified API",
  mcp: "MCP tool",
  connect: "Connect page check"
}

/** The status a call was answered with, and in words whether it failed (a 4xx is the caller's, a 5xx the provider's or ours). */
export const OutcomeBadge = ({ status, success }: { status: number | null; success: boolean }) =>
  status === null
    ? <Badge label="No answer" tone="bad" />
    : <Badge label={`${status} ${success ? "OK" : "failed"}`} tone={success ? "good" : status >= 500 ? "bad" : "warn"} />

/**
 * A connect page's check of entered credentials is logged before any account exists, under
 * `connect-session:<id>`: it names no account to link to.
 */
export const isAccountId = (accountId: string) => !accountId.startsWith("connect-session:")

/** The account a log entry ran on: its name linked to it when known, else its id. */
export const AccountRef = ({ accountId, names }: { accountId: string; names?: ReadonlyMap<string, string> | undefined }) =>
  isAccountId(accountId)
    ? <a href={href(["accounts", accountId])}>{names?.get(accountId) ?? <code>{accountId}</code>}</a>
    : <span class="muted">Connect session</span>

/**
 * Request log entries, newest first unless the list says otherwise: each links to its detail.
 * `names` maps account ids to names (list_account_filters); `showAccount` is off on an
 * account's own page.
 */
export const RequestLogTable = (
  { entries, names, showAccount = true, caption }: {
    entries: ReadonlyArray<RequestLogRecord>
    names?: ReadonlyMap<string, string> | undefined
    showAccount?: boolean
    caption: string
  }
) => (
  <table>
    <caption class="visually-hidden">{caption}</caption>
    <thead>
      <tr>
        <th scope="col">Time</th>
        {showAccount ? <th scope="col">Account</th> : null}
        <th scope="col">Provider</th>
        <th scope="col">Action</th>
        <th scope="col">Source</th>
        <th scope="col">Status</th>
        <th scope="col" class="number">Duration</th>
      </tr>
    </thead>
    <tbody>
      {entries.map((entry) => (
        <tr key={entry.request_id}>
          <td><a href={href(["logs", entry.request_id])}>{formatTime(entry.event_datetime)}</a></td>
          {showAccount ? <td><AccountRef accountId={entry.account_id} names={names} /></td> : null}
          <td>{entry.provider ?? <span class="muted">–</span>}</td>
          <td><code>{entry.action}</code></td>
          <td>{sourceLabels[entry.source_type]}</td>
          <td><OutcomeBadge status={entry.status} success={entry.success} /></td>
          <td class="number">{formatDuration(entry.duration)}</td>
        </tr>
      ))}
    </tbody>
  </table>
)
