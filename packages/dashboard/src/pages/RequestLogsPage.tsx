import type { ListRequestLogsParams, RequestLogSourceType } from "@switchyard/api"
import { DateTime } from "effect"
import { api } from "../api.js"
import type { PageProps } from "../routes.js"
import { href } from "../router.js"
import { Empty, Loaded } from "../ui/Feedback.js"
import { anyFilterSet, FilterForm, filtersOf, SelectFilter, TextFilter, useFilterValues } from "../ui/Filters.js"
import { PageHeader } from "../ui/PageHeader.js"
import { RequestLogTable, sourceLabels } from "../ui/RequestLogTable.js"
import { useLoad } from "../ui/useLoad.js"

const PAGE_SIZE = 50

/*
 * The filters live in the URL's query under the API's own names (`#/logs?account_ids=<id>&success=false`),
 * so a filtered view is a link to share, and other views link to it. `order` stands for the
 * API's order_by and order_direction; `next` is the API's cursor to the following page.
 */
const filterNames = [
  "account_ids",
  "providers",
  "actions",
  "source_types",
  "success",
  "status_codes",
  "http_methods",
  "request_ids",
  "start_date",
  "end_date",
  "order"
] as const
type Filters = Record<(typeof filterNames)[number], string>
type AccountFilterOptions = Awaited<ReturnType<typeof api.accounts.list_account_filters>>

const orders = {
  "": { label: "Newest first", order_by: "event_datetime", order_direction: "desc" },
  oldest: { label: "Oldest first", order_by: "event_datetime", order_direction: "asc" },
  slowest: { label: "Slowest first", order_by: "duration", order_direction: "desc" },
  fastest: { label: "Fastest first", order_by: "duration", order_direction: "asc" }
} as const

const listOf = (text: string) => text.split(",").map((item) => item.trim()).filter((item) => item.length > 0)

/** A time from the form (the browser's local time) or a link (ISO 8601), or a failure saying which field. */
const timeOf = (text: string, field: string) => {
  const date = new Date(text)
  if (Number.isNaN(date.getTime())) throw new Error(`${field} “${text}” is not a date and time.`)
  return DateTime.unsafeFromDate(date)
}

/** The API's parameters for the filters; a value the API would refuse fails here, in words. */
const paramsOf = (filters: Filters, next: string): ListRequestLogsParams => {
  const statusCodes = listOf(filters.status_codes).map((code) => {
    const status = Number(code)
    if (!Number.isInteger(status) || status < 100 || status > 599) {
      throw new Error(`Status codes must be HTTP status codes such as 404 or 502; “${code}” is not one.`)
    }
    return status
  })
  const order = orders[filters.order as keyof typeof orders] ?? orders[""]
  return {
    page_size: PAGE_SIZE,
    order_by: order.order_by,
    order_direction: order.order_direction,
    ...(next === "" ? {} : { next }),
    ...(filters.account_ids === "" ? {} : { account_ids: listOf(filters.account_ids) }),
    ...(filters.providers === "" ? {} : { providers: listOf(filters.providers) }),
    ...(filters.actions === "" ? {} : { actions: listOf(filters.actions) }),
    ...(filters.source_types === "" ? {} : { source_types: listOf(filters.source_types) as Array<RequestLogSourceType> }),
    ...(filters.success === "true" || filters.success === "false" ? { success: filters.success === "true" } : {}),
    ...(statusCodes.length === 0 ? {} : { status_codes: statusCodes }),
    ...(filters.http_methods === "" ? {} : { http_methods: listOf(filters.http_methods) }),
    ...(filters.request_ids === "" ? {} : { request_ids: listOf(filters.request_ids) }),
    ...(filters.start_date === "" ? {} : { start_date: timeOf(filters.start_date, "From") }),
    ...(filters.end_date === "" ? {} : { end_date: timeOf(filters.end_date, "Until") })
  }
}

/** Request logs: every action run of the project, filtered, a page at a time. */
export const RequestLogsPage = ({ route }: PageProps) => {
  const filters: Filters = filtersOf(filterNames, route.query)
  const next = route.query.get("next") ?? ""
  const key = route.query.toString()
  // paramsOf runs inside the load, so a value it refuses shows as the list's failure
  const logs = useLoad(() => Promise.resolve().then(() => api.request_logs.list_request_logs({ urlParams: paramsOf(filters, next) })), [key])
  const options = useLoad(() => api.accounts.list_account_filters({}), [])
  const names = new Map(options.state === "loaded" ? options.data.account_ids.map((option) => [option.value, option.label]) : [])
  const filtered = filterNames.some((name) => name !== "order" && filters[name] !== "")
  return (
    <>
      <PageHeader title="Request logs" />
      <p class="muted">
        Every action run of the project (action RPC, unified API, MCP) and the connect page's credential checks, with the provider
        calls each made. Open an entry to see its calls.
      </p>
      <LogFilters key={key} filters={filters} options={options.state === "loaded" ? options.data : undefined} />
      <Loaded load={logs} what="request logs">
        {(page) =>
          page.data.length === 0
            ? next !== ""
              ? <Empty title="No more entries"><a href={href("logs", filters)}>Back to the first page</a>.</Empty>
              : filtered
              ? <Empty title="No request matches these filters"><a href={href("logs")}>Clear the filters</a> to see every request.</Empty>
              : <Empty title="No requests logged yet">Calls on linked accounts through the API, the unified endpoints or MCP appear here.</Empty>
            : (
              <>
                <RequestLogTable entries={page.data} names={names} caption="Request log entries" />
                <div class="pager" role="navigation" aria-label="Pages of request logs">
                  {next === "" ? null : <a href={href("logs", filters)}>First page</a>}
                  {page.next === null ? <span class="muted">End of the log.</span> : <a href={href("logs", { ...filters, next: page.next })}>Next page</a>}
                </div>
              </>
            )}
      </Loaded>
    </>
  )
}

const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"].map((method) => ({ value: method, label: method }))
/** The API counts a status of 400 or above as a failure. */
const outcomes = [{ value: "false", label: "Failed" }, { value: "true", label: "Succeeded" }]
const sources = (Object.keys(sourceLabels) as Array<RequestLogSourceType>).map((source) => ({ value: source, label: sourceLabels[source] }))
const orderOptions = Object.entries(orders).filter(([value]) => value !== "").map(([value, order]) => ({ value, label: order.label }))

const LogFilters = ({ filters, options }: { filters: Filters; options: AccountFilterOptions | undefined }) => {
  const { values, set, submit } = useFilterValues("logs", filters)
  return (
    <FilterForm
      label="Filter request logs"
      path="logs"
      active={anyFilterSet(filters)}
      onSubmit={submit}
      moreActive={anyFilterSet({ a: filters.actions, s: filters.status_codes, m: filters.http_methods, r: filters.request_ids })}
      more={
        <>
          <TextFilter id="logs-action" label="Action" value={values.actions} placeholder="e.g. ats_list_applications" onInput={set("actions")} />
          <TextFilter id="logs-status" label="Status codes" narrow value={values.status_codes} placeholder="e.g. 404, 502" inputMode="numeric"
            onInput={set("status_codes")} />
          <SelectFilter id="logs-method" label="HTTP method" any="Any method" value={values.http_methods} current={filters.http_methods}
            options={methods} onChange={set("http_methods")} />
          <TextFilter id="logs-request" label="Request id" value={values.request_ids} onInput={set("request_ids")} />
        </>
      }
    >
      <SelectFilter id="logs-account" label="Account" any="Any account" value={values.account_ids} current={filters.account_ids}
        options={options?.account_ids} onChange={set("account_ids")} />
      <SelectFilter id="logs-provider" label="Provider" any="Any provider" value={values.providers} current={filters.providers}
        options={options?.connector_keys} onChange={set("providers")} />
      <SelectFilter id="logs-outcome" label="Outcome" any="Any outcome" value={values.success} current={filters.success}
        options={outcomes} onChange={set("success")} />
      <SelectFilter id="logs-source" label="Source" any="Any source" value={values.source_types} current={filters.source_types}
        options={sources} onChange={set("source_types")} />
      <TextFilter id="logs-from" label="From" type="datetime-local" step={1} value={localInput(values.start_date)} onInput={set("start_date")} />
      <TextFilter id="logs-until" label="Until" type="datetime-local" step={1} value={localInput(values.end_date)} onInput={set("end_date")} />
      <SelectFilter id="logs-order" label="Order" any={orders[""].label} value={values.order} current={filters.order}
        options={orderOptions} onChange={set("order")} />
    </FilterForm>
  )
}

/**
 * A datetime-local field holds the browser's local time without a zone; a link may carry an
 * ISO time with one (`2024-05-01T10:00:00Z`), shown in local time.
 */
const localInput = (value: string) => {
  if (value === "" || /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/.test(value)) return value
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return ""
  const pad = (n: number) => String(n).padStart(2, "0")
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${
    pad(date.getSeconds())
  }`
}
