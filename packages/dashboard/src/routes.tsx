import type { ComponentType } from "preact"
import { AccountPage } from "./pages/AccountPage.js"
import { AccountsPage } from "./pages/AccountsPage.js"
import { ApiKeysPage } from "./pages/ApiKeysPage.js"
import { RequestLogPage } from "./pages/RequestLogPage.js"
import { RequestLogsPage } from "./pages/RequestLogsPage.js"
import { OverviewPage } from "./pages/OverviewPage.js"
import { WebhooksPage } from "./pages/WebhooksPage.js"
import type { Route } from "./router.js"

export interface PageProps {
  readonly route: Route
}

export interface Section {
  /** The first path segment: `#/<path>`. */
  readonly path: string
  readonly title: string
  readonly page: ComponentType<PageProps>
  /** Shown only to sessions that may use it (API keys: Full Access). */
  readonly fullAccessOnly?: boolean
}

/**
 * A section with a list at `#/<path>` and one item's view at `#/<path>/<id>`; `key` gives the
 * item's view a fresh state for each id.
 */
const listAndDetail = (List: ComponentType<PageProps>, Detail: ComponentType<{ id: string }>) => ({ route }: PageProps) => {
  const id = route.segments[1]
  return id === undefined ? <List route={route} /> : <Detail key={id} id={id} />
}

/** The dashboard's sections, in the navigation's order; the first is the landing view. */
export const sections: ReadonlyArray<Section> = [
  { path: "overview", title: "Overview", page: OverviewPage },
  { path: "accounts", title: "Accounts", page: listAndDetail(AccountsPage, AccountPage) },
  { path: "logs", title: "Request logs", page: listAndDetail(RequestLogsPage, RequestLogPage) },
  { path: "webhooks", title: "Webhooks", page: WebhooksPage },
  { path: "api-keys", title: "API keys", page: ApiKeysPage, fullAccessOnly: true }
]
