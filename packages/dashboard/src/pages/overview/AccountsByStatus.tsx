import type { AccountStatus } from "@switchyard/api"
import { api } from "../../api.js"
import { href } from "../../router.js"
import { Badge } from "../../ui/Badge.js"
import { Empty, Loaded } from "../../ui/Feedback.js"
import { formatCount } from "../../ui/format.js"
import { useSession } from "../../ui/SessionContext.js"
import { useLoad } from "../../ui/useLoad.js"

interface StatusCount {
  readonly status: AccountStatus
  readonly label: string
  readonly count: number
}

/** Most urgent first: the statuses that stop an account's calls lead, so they are not missed. */
const ORDER: ReadonlyArray<AccountStatus> = ["error", "expired", "suspended", "disabled", "inactive", "active"]

/**
 * The statuses the project's accounts are in (list_account_filters), then a one-row page of
 * each, whose `total` is the count: a handful of small requests, however many accounts there are.
 */
const countsByStatus = async (): Promise<ReadonlyArray<StatusCount>> => {
  const filters = await api.accounts.list_account_filters({})
  const counts = await Promise.all(filters.statuses.map(async (option) => {
    const status = option.value as AccountStatus
    const page = await api.accounts.list_accounts({ urlParams: { status: [status], page: 1, page_size: 1 } })
    return { status, label: option.label, count: "total" in page ? page.total : page.length }
  }))
  return counts.filter((entry) => entry.count > 0).sort((a, b) => ORDER.indexOf(a.status) - ORDER.indexOf(b.status))
}

export const AccountsByStatus = () => {
  const { canWrite } = useSession()
  const counts = useLoad(countsByStatus, [])
  return (
    <section class="overview-panel" aria-labelledby="accounts-by-status">
      <h2 id="accounts-by-status">Accounts by status</h2>
      <Loaded load={counts} what="the accounts">
        {(list) =>
          list.length === 0
            ? (
              <Empty title="No accounts linked yet">
                {canWrite
                  ? <>Link one under <a href={href("accounts")}>Accounts</a>, or create a connect session and send its link to the person whose account it is.</>
                  : "Accounts are linked with a key that has write access, or by their owners through a connect link."}
              </Empty>
            )
            : (
              <table>
                <caption class="visually-hidden">Accounts by status</caption>
                <thead>
                  <tr><th scope="col">Status</th><th scope="col" class="number">Accounts</th></tr>
                </thead>
                <tbody>
                  {list.map((entry) => (
                    <tr key={entry.status}>
                      <td><Badge label={entry.label} /></td>
                      <td class="number">
                        <a href={href("accounts", { status: entry.status })} aria-label={`${formatCount(entry.count)} ${entry.label.toLowerCase()} ${entry.count === 1 ? "account" : "accounts"}`}>
                          {formatCount(entry.count)}
                        </a>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
      </Loaded>
    </section>
  )
}
