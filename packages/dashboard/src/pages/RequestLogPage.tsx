import type { RequestLogDetail, RequestLogStep } from "@switchyard/api"
import { api } from "../api.js"
import { href } from "../router.js"
import { Empty, Loaded } from "../ui/Feedback.js"
import { formatDuration, formatTime } from "../ui/format.js"
import { PageHeader } from "../ui/PageHeader.js"
import { AccountRef, isAccountId, OutcomeBadge, sourceLabels } from "../ui/RequestLogTable.js"
import { useLoad } from "../ui/useLoad.js"

/** One request log entry: the call, what it was answered, and the provider calls it made. */
export const RequestLogPage = ({ id }: { id: string }) => {
  const entry = useEntry(id)
  const loaded = entry.state === "loaded" ? entry.data : undefined
  // one header whatever the state, so the heading the view focuses stays in place once the entry arrives
  return (
    <>
      <PageHeader
        title={loaded === undefined ? "Request log entry" : `${loaded.data.action} · ${loaded.data.success ? "succeeded" : "failed"}`}
        back={{ href: href("logs"), label: "Request logs" }}
      />
      {loaded === undefined
        // loading, or failed (an entry past the retention, a mistyped link): said in words under the heading
        ? <Loaded load={entry} what="the request log entry">{() => null}</Loaded>
        : (
          <>
            <Request entry={loaded.data} names={loaded.names} />
            <h2>Provider calls</h2>
            <Steps steps={loaded.data.step_requests} />
            {isAccountId(loaded.data.account_id)
              ? (
                <p>
                  <a href={href(["accounts", loaded.data.account_id])}>The account</a> ·{" "}
                  <a href={href("logs", { account_ids: loaded.data.account_id })}>All requests of this account</a>
                </p>
              )
              : null}
          </>
        )}
    </>
  )
}

/** The entry, and the account names to show it with (a deleted account shows its id). */
const useEntry = (id: string) =>
  useLoad(
    () =>
      Promise.all([
        api.request_logs.get_request_log({ path: { id } }),
        api.accounts.list_account_filters({}).catch(() => undefined)
      ]).then(([{ data }, filters]) => ({
        data,
        names: new Map(filters?.account_ids.map((option) => [option.value, option.label]) ?? [])
      })),
    [id]
  )

const Request = ({ entry, names }: { entry: RequestLogDetail; names: ReadonlyMap<string, string> }) => (
  <dl class="facts">
    <dt>Outcome</dt>
    <dd><OutcomeBadge status={entry.status} success={entry.success} /></dd>
    {entry.error_message === null ? null : (
      <>
        <dt>Error</dt>
        <dd class="error-text">{entry.error_message}</dd>
      </>
    )}
    <dt>Account</dt>
    <dd><AccountRef accountId={entry.account_id} names={names} /></dd>
    <dt>Provider</dt>
    <dd>{entry.provider ?? <span class="muted">Not recorded</span>}</dd>
    <dt>Action</dt>
    <dd><code>{entry.action}</code></dd>
    <dt>Source</dt>
    <dd>{sourceLabels[entry.source_type]}</dd>
    <dt>Request</dt>
    <dd>
      {entry.http_method === null && entry.url === null && entry.path === null
        ? <span class="muted">Not recorded</span>
        : <code>{entry.http_method ?? ""} {entry.url ?? entry.path}</code>}
    </dd>
    <dt>Started</dt>
    <dd>{formatTime(entry.start_time)}</dd>
    <dt>Duration</dt>
    <dd>{formatDuration(entry.duration)}</dd>
    <dt>Request id</dt>
    <dd><code>{entry.request_id}</code></dd>
  </dl>
)

const Steps = ({ steps }: { steps: ReadonlyArray<RequestLogStep> }) => {
  if (steps.length === 0) {
    return <Empty title="No provider call">The request was answered before any call to the provider (refused, or not allowed).</Empty>
  }
  const keptBodies = steps.some((step) => step.request_body !== null || step.response_body !== null)
  return (
    <>
      <p class="muted">
        URLs and bodies are shown as the server logged them, with credentials redacted.
        {keptBodies ? null : (
          <> This project does not keep provider bodies; <code>switchyard projects request-log-bodies &lt;project-id&gt; on</code> turns them on.</>
        )}
      </p>
      <ol class="steps">
        {steps.map((step, index) => (
          <li key={index} class="step">
            <div class="step-head">
              <OutcomeBadge status={step.status} success={step.success} />
              <code class="step-url">{step.http_method} {step.url}</code>
              <span class="muted">{formatDuration(step.duration)}</span>
            </div>
            {step.request_body === null ? null : <Body title="Request body" body={step.request_body} />}
            {step.response_body === null ? null : <Body title="Response body" body={step.response_body} />}
          </li>
        ))}
      </ol>
    </>
  )
}

/** A body, pretty-printed when it is JSON, in a disclosure so long ones do not bury the rest. */
const Body = ({ title, body }: { title: string; body: string }) => (
  <details>
    <summary>{title} <span class="muted">({body.length.toLocaleString()} characters)</span></summary>
    <pre>{pretty(body)}</pre>
  </details>
)

const pretty = (body: string) => {
  try {
    return JSON.stringify(JSON.parse(body), null, 2)
  } catch {
    return body
  }
}
