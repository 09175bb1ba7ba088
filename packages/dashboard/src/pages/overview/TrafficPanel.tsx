import type { RequestLogStats } from "@switchyard/api"
import { DateTime } from "effect"
import { api } from "../../api.js"
import { href, navigate } from "../../router.js"
import { Empty, Loaded } from "../../ui/Feedback.js"
import { formatCount, formatDuration, formatPercent } from "../../ui/format.js"
import { RequestsChart } from "../../ui/RequestsChart.js"
import { useSession } from "../../ui/SessionContext.js"
import { useLoad } from "../../ui/useLoad.js"

export type Range = "24h" | "7d"

const HOUR = 3_600_000

const ranges: ReadonlyArray<{ value: Range; label: string; title: string; hours: number }> = [
  { value: "24h", label: "24 hours", title: "Requests per hour over the last 24 hours, by provider", hours: 24 },
  { value: "7d", label: "7 days", title: "Requests per hour over the last 7 days, by provider", hours: 7 * 24 }
]

/**
 * The last 24 or 168 whole hours (the current one last), hourly: the server rounds a range out
 * to whole buckets, so starting on an hour's edge gives exactly that many of them.
 */
const statsFor = (range: Range) => {
  const hours = ranges.find((entry) => entry.value === range)!.hours
  const start = Math.ceil(Date.now() / HOUR) * HOUR - hours * HOUR
  return api.request_logs.get_request_log_stats({
    urlParams: { interval: "hour", group_by: "provider", start_date: DateTime.unsafeMake(start) }
  })
}

const Figure = ({ label, value, note }: { label: string; value: string; note?: string }) => (
  <div class="card">
    <span class="label">{label}</span>
    <span class="figure">{value}</span>
    {note === undefined ? null : <span class="label">{note}</span>}
  </div>
)

const Figures = ({ stats, range }: { stats: RequestLogStats; range: string }) => (
  <div class="cards" role="group" aria-label={`Figures of the last ${range}`}>
    <Figure label="Requests" value={formatCount(stats.totals.requests)} />
    <Figure label="Errors" value={formatCount(stats.totals.errors)} note={`${formatPercent(stats.totals.errors, stats.totals.requests)} error rate`} />
    <Figure label="p50 latency" value={formatDuration(stats.totals.p50_duration)} />
    <Figure label="p95 latency" value={formatDuration(stats.totals.p95_duration)} />
  </div>
)

/** The request figures and chart of the range in the view's query (`?range=7d`), the last 24 hours by default. */
export const TrafficPanel = ({ range, path }: { range: Range; path: string }) => {
  const { canWrite } = useSession()
  const stats = useLoad(() => statsFor(range), [range])
  return (
    <section aria-labelledby="traffic">
      <div class="section-title-row">
        <h2 id="traffic">Requests</h2>
        <div class="toggle" role="group" aria-label="Time range">
          {ranges.map((entry) => (
            <button
              key={entry.value}
              type="button"
              aria-pressed={entry.value === range}
              // the same path (the landing view has none), so the view stays and keeps focus on the toggle
              onClick={() => navigate(href(path, { range: entry.value === "24h" ? undefined : entry.value }))}
            >
              {entry.label}
            </button>
          ))}
        </div>
      </div>
      <Loaded load={stats} what="the request figures">
        {(data) => {
          // named after the range the figures are of: while another range loads, the last one stays
          const shown = ranges.find((entry) => entry.hours === data.buckets.length) ?? ranges[0]!
          return (
            <>
              <Figures stats={data} range={shown.label} />
              {data.totals.requests === 0
                ? (
                  <Empty title={`No requests in the last ${shown.label}`}>
                    Requests show here once your application calls actions or unified endpoints with a linked account
                    {canWrite ? <>: link one under <a href={href("accounts")}>Accounts</a></> : null}. Every call is then in{" "}
                    <a href={href("logs")}>Request logs</a>.
                  </Empty>
                )
                : <RequestsChart stats={data} title={shown.title} />}
            </>
          )
        }}
      </Loaded>
    </section>
  )
}
