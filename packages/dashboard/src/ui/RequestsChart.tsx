import type { RequestLogStats } from "@switchyard/api"
import { useEffect, useRef } from "preact/hooks"
import uPlot from "uplot"
import { formatCount, formatPercent } from "./format.js"

/*
 * Requests per bucket, one line per group (provider…), and the error rate on its own axis:
 * uPlot draws on a canvas, which the `role="img"` wrapper names in one sentence, and the table
 * under it gives every figure to those who cannot see the lines (and to anyone who wants the
 * numbers).
 */

/** Distinguishable on white and for the common colour blindnesses (Okabe–Ito, darkened); `other` is grey. */
const PALETTE = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#8a6d00", "#56b4e9", "#6a3d9a", "#e69f00", "#1b7837", "#7f3b08"]
const OTHER_COLOUR = "#7a8190"
const ERROR_COLOUR = "#b3261e"
const HEIGHT = 280

export interface ChartSeries {
  readonly label: string
  readonly colour: string
  readonly values: ReadonlyArray<number>
  readonly total: number
}

const groupLabel = (group: { key: string | null; other: boolean }, groupBy: string | null) =>
  group.other ? "Others" : group.key ?? (groupBy === "provider" ? "No provider" : "Not recorded")

/** The stats as chart series: one per group (or one "Requests" when ungrouped). */
export const seriesOf = (stats: RequestLogStats): ReadonlyArray<ChartSeries> =>
  stats.groups.length === 0
    ? [{ label: "Requests", colour: PALETTE[0]!, values: stats.buckets.map((bucket) => bucket.requests), total: stats.totals.requests }]
    : stats.groups.map((group, index) => ({
      label: groupLabel(group, stats.group_by),
      colour: group.other ? OTHER_COLOUR : PALETTE[index % PALETTE.length]!,
      values: stats.buckets.map((bucket) => bucket.groups[index]?.requests ?? 0),
      total: group.requests
    }))

/** Day buckets start at UTC midnight: shown in UTC, or a reader east or west of it sees the wrong dates. */
const bucketLabel = (start: string, interval: RequestLogStats["interval"]) => {
  const date = new Date(start)
  return interval === "day"
    ? date.toLocaleDateString(undefined, { timeZone: "UTC", weekday: "short", month: "short", day: "numeric" })
    : date.toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" })
}

export const RequestsChart = ({ stats, title }: { stats: RequestLogStats; title: string }) => {
  const container = useRef<HTMLDivElement>(null)
  const series = seriesOf(stats)
  const quiet = stats.buckets.filter((bucket) => bucket.requests === 0).length
  useEffect(() => {
    const element = container.current
    if (element === null) return
    const xs = stats.buckets.map((bucket) => Date.parse(bucket.start) / 1000)
    const rates = stats.buckets.map((bucket) => bucket.requests === 0 ? null : (bucket.errors / bucket.requests) * 100)
    const daily = stats.interval === "day"
    const plot = new uPlot(
      {
        width: Math.max(element.clientWidth, 320),
        height: HEIGHT,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        ...(daily ? { tzDate: (seconds: number) => uPlot.tzDate(new Date(seconds * 1000), "Etc/UTC") } : {}),
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(max, 1)] }, rate: { range: [0, 100] } },
        axes: [
          // daily buckets: ticks on whole days only (no 12pm between them)
          { stroke: "#5a6272", grid: { stroke: "#eceef2" }, ...(daily ? { incrs: [86_400, 2 * 86_400, 7 * 86_400] } : {}) },
          { label: "Requests", stroke: "#5a6272", grid: { stroke: "#eceef2" }, values: (_u, ticks) => ticks.map((tick) => Number.isInteger(tick) ? formatCount(tick) : "") },
          { scale: "rate", side: 1, label: "Error rate", stroke: ERROR_COLOUR, grid: { show: false }, values: (_u, ticks) => ticks.map((tick) => `${tick}%`) }
        ],
        series: [
          {},
          ...series.map((line) => ({ label: line.label, stroke: line.colour, width: 2, points: { show: daily } })),
          // an hour without requests has no rate (a gap, not 0%): points, so a rate between two gaps still shows
          { label: "Error rate", scale: "rate", stroke: ERROR_COLOUR, width: 1.5, dash: [6, 4], points: { show: true, size: 6, fill: ERROR_COLOUR } }
        ]
      },
      [xs, ...series.map((line) => [...line.values]), rates],
      element
    )
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(element.clientWidth, 320), height: HEIGHT }))
    resize.observe(element)
    return () => {
      resize.disconnect()
      plot.destroy()
    }
  }, [stats])
  const summary = `${title}: ${formatCount(stats.totals.requests)} requests, ${formatCount(stats.totals.errors)} errors (${
    formatPercent(stats.totals.errors, stats.totals.requests)
  })${series.length > 1 ? `, by provider: ${series.map((line) => `${line.label} ${formatCount(line.total)}`).join(", ")}` : ""}. The table below has every figure.`
  return (
    <figure class="requests-chart">
      <figcaption>{title}</figcaption>
      <ul class="chart-legend" aria-label="Lines">
        {series.map((line) => (
          <li key={line.label}><span class="swatch" style={{ background: line.colour }} />{line.label} ({formatCount(line.total)})</li>
        ))}
        <li><span class="swatch swatch-dashed" style={{ borderColor: ERROR_COLOUR }} />Error rate (right axis)</li>
      </ul>
      <div class="chart" ref={container} role="img" aria-label={summary} />
      <details class="chart-table">
        <summary>The chart's figures as a table</summary>
        <table>
          <caption class="visually-hidden">{title}, per {stats.interval}</caption>
          <thead>
            <tr>
              <th scope="col">{stats.interval === "day" ? "Day (UTC)" : "Hour starting"}</th>
              {series.length > 1 ? series.map((line) => <th scope="col" class="number" key={line.label}>{line.label}</th>) : null}
              <th scope="col" class="number">Requests</th>
              <th scope="col" class="number">Errors</th>
              <th scope="col" class="number">Error rate</th>
            </tr>
          </thead>
          <tbody>
            {stats.buckets.map((bucket, index) => bucket.requests === 0 ? null : (
              <tr key={bucket.start}>
                <th scope="row">{bucketLabel(bucket.start, stats.interval)}</th>
                {series.length > 1 ? series.map((line) => <td class="number" key={line.label}>{formatCount(line.values[index] ?? 0)}</td>) : null}
                <td class="number">{formatCount(bucket.requests)}</td>
                <td class="number">{formatCount(bucket.errors)}</td>
                <td class="number">{formatPercent(bucket.errors, bucket.requests)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {quiet === 0 ? null : (
          // a week is 168 hours, mostly quiet ones: the table lists those with requests
          <p class="muted">
            {quiet} of the {stats.buckets.length} {stats.interval === "day" ? "days" : "hours"} had no requests and are left out.
          </p>
        )}
      </details>
    </figure>
  )
}
