import type { Account, AccountStatus } from "@switchyard/api"
import { useState } from "preact/hooks"
import { api } from "../api.js"
import type { PageProps } from "../routes.js"
import { href } from "../router.js"
import { Badge } from "../ui/Badge.js"
import { Empty, Loaded } from "../ui/Feedback.js"
import { anyFilterSet, FilterForm, filtersOf, SelectFilter, TextFilter, useFilterValues } from "../ui/Filters.js"
import { formatCount, formatTime } from "../ui/format.js"
import { PageHeader } from "../ui/PageHeader.js"
import { useSession } from "../ui/SessionContext.js"
import { StatusReasons } from "../ui/StatusReasons.js"
import { useLoad } from "../ui/useLoad.js"
import { NewConnectLink } from "./NewConnectLink.js"

const PAGE_SIZE = 25

/** The list's filters, as the URL's query carries them (`#/accounts?status=error&page=2`). */
const filterNames = ["search", "connector_key", "status", "owner_id"] as const
type Filters = Record<(typeof filterNames)[number], string>
type AccountFilterOptions = Awaited<ReturnType<typeof api.accounts.list_account_filters>>

const pageOf = (query: URLSearchParams) => {
  const page = Number(query.get("page") ?? "1")
  return Number.isInteger(page) && page >= 1 ? page : 1
}

const listAccounts = (filters: Filters, page: number) =>
  api.accounts.list_accounts({
    urlParams: {
      page,
      page_size: PAGE_SIZE,
      expand: ["connector", "last_request"],
      ...(filters.search === "" ? {} : { search: filters.search }),
      ...(filters.connector_key === "" ? {} : { connector_key: [filters.connector_key] }),
      ...(filters.status === "" ? {} : { status: [filters.status as AccountStatus] }),
      ...(filters.owner_id === "" ? {} : { owner_id: [filters.owner_id] })
    }
  }).then((result) =>
    // with page and page_size the answer is the envelope; a bare array would be every match
    Array.isArray(result)
      ? { data: result as ReadonlyArray<Account>, page: 1, page_size: result.length, total: result.length, next_page: null }
      : result as Exclude<typeof result, ReadonlyArray<Account>>
  )

/** Accounts: the project's linked accounts, searchable and filtered, and new connect links. */
export const AccountsPage = ({ route }: PageProps) => {
  const { canWrite } = useSession()
  const filters: Filters = filtersOf(filterNames, route.query)
  const page = pageOf(route.query)
  const key = route.query.toString()
  const accounts = useLoad(() => listAccounts(filters, page), [key])
  // the filters' options change as accounts come and go: loaded again with the list
  const options = useLoad(() => api.accounts.list_account_filters({}), [key])
  const [linking, setLinking] = useState(false)
  const filtered = anyFilterSet(filters)
  return (
    <>
      <PageHeader title="Accounts">
        {canWrite && !linking
          ? <button type="button" class="primary" onClick={() => setLinking(true)}>New connect link</button>
          : null}
      </PageHeader>
      <p class="muted">
        A linked account is one customer's connection to a provider; its credentials are stored encrypted and never shown.
        Customers link their own through a connect link.
      </p>
      {canWrite && linking
        ? (
          <NewConnectLink onClose={() => {
            setLinking(false)
            // the customer may have used the link meanwhile: show their account
            accounts.reload()
            options.reload()
          }} />
        )
        : null}
      <AccountFilters key={key} filters={filters} options={options.state === "loaded" ? options.data : undefined} />
      <Loaded load={accounts} what="accounts">
        {(result) =>
          result.data.length === 0
            ? filtered
              ? <Empty title="No account matches these filters"><a href={href("accounts")}>Clear the filters</a> to see every account.</Empty>
              : (
                <Empty title="No accounts linked yet">
                  {canWrite
                    ? "Create a connect link above and send it to a customer: the account appears here once they link it."
                    : "Accounts appear here once customers link them through a connect link."}
                </Empty>
              )
            : (
              <>
                <AccountsTable accounts={result.data} />
                <Pager filters={filters} page={result.page} pageSize={result.page_size} total={result.total} shown={result.data.length}
                  hasNext={result.next_page !== null} />
              </>
            )}
      </Loaded>
    </>
  )
}

const statuses: ReadonlyArray<AccountStatus> = ["active", "inactive", "error", "suspended", "expired", "disabled"]

const statusOptions = statuses.map((status) => ({ value: status, label: status }))

const AccountFilters = ({ filters, options }: { filters: Filters; options: AccountFilterOptions | undefined }) => {
  const { values, set, submit } = useFilterValues("accounts", filters)
  return (
    <FilterForm label="Filter accounts" path="accounts" active={anyFilterSet(filters)} onSubmit={submit}>
      <TextFilter id="accounts-search" label="Search" type="search" value={values.search} placeholder="Name or username"
        onInput={set("search")} />
      <SelectFilter id="accounts-connector" label="Connector" any="Any connector" value={values.connector_key}
        current={filters.connector_key} options={options?.connector_keys} onChange={set("connector_key")} />
      {/* every status, not only those in use: filtering by one no account has shows an empty list, which is an answer */}
      <SelectFilter id="accounts-status" label="Status" any="Any status" value={values.status} current={filters.status}
        options={statusOptions} onChange={set("status")} />
      <SelectFilter id="accounts-owner" label="Owner" any="Any owner" value={values.owner_id} current={filters.owner_id}
        options={options?.owner_ids.map((option) => ({ value: option.value, label: option.label === option.value ? option.value : `${option.label} (${option.value})` }))}
        onChange={set("owner_id")} />
    </FilterForm>
  )
}

const AccountsTable = ({ accounts }: { accounts: ReadonlyArray<Account> }) => (
  <table>
    <caption class="visually-hidden">Linked accounts</caption>
    <thead>
      <tr>
        <th scope="col">Name</th>
        <th scope="col">Connector</th>
        <th scope="col">Owner</th>
        <th scope="col">Status</th>
        <th scope="col">Last active</th>
        <th scope="col">Linked</th>
      </tr>
    </thead>
    <tbody>
      {accounts.map((account) => (
        <tr key={account.id}>
          <td><a href={href(["accounts", account.id])}>{account.name}</a>{account.label === null ? null : <div class="muted">{account.label}</div>}</td>
          <td>{account.connector?.title ?? account.connector_key}</td>
          <td>{account.owner_name ?? account.owner_id}{account.owner_name === null ? null : <div class="muted">{account.owner_id}</div>}</td>
          <td><Badge label={account.status} /><StatusReasons reasons={account.status_reasons} compact /></td>
          <td>{formatTime(account.last_request)}</td>
          <td>{formatTime(account.connected_at)}</td>
        </tr>
      ))}
    </tbody>
  </table>
)

const Pager = (
  { filters, page, pageSize, total, shown, hasNext }: {
    filters: Filters
    page: number
    pageSize: number
    total: number
    shown: number
    hasNext: boolean
  }
) => {
  const first = (page - 1) * pageSize + 1
  return (
    <div class="pager" role="navigation" aria-label="Pages of accounts">
      <span>{formatCount(first)}–{formatCount(first + shown - 1)} of {formatCount(total)}</span>
      {page > 1 ? <a href={href("accounts", { ...filters, page: String(page - 1) })}>Previous page</a> : null}
      {hasNext ? <a href={href("accounts", { ...filters, page: String(page + 1) })}>Next page</a> : null}
    </div>
  )
}
