import type { ApiKeyScope } from "@switchyard/api"
import type { ComponentType } from "preact"
import { AccountPage } from "./pages/AccountPage.js"
import { AccountsPage } from "./pages/AccountsPage.js"
import { ApiKeysPage } from "./pages/ApiKeysPage.js"
import { ConnectorsPage } from "./pages/ConnectorsPage.js"
import { OverviewPage } from "./pages/OverviewPage.js"
import { ProfilesPage } from "./pages/ProfilesPage.js"
import { RequestLogPage } from "./pages/RequestLogPage.js"
import { RequestLogsPage } from "./pages/RequestLogsPage.js"
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
  /**
   * The scopes whose sessions see it, those the server lets read what it shows (ScopePolicy):
   * Full Access and Read Only unless said otherwise.
   */
  readonly scopes?: ReadonlyArray<ApiKeyScope>
}

const everyReader: ReadonlyArray<ApiKeyScope> = ["full_access", "read_only"]

/** The sections a session of `scope` sees. */
export const sectionsFor = (scope: ApiKeyScope) => sections.filter((section) => (section.scopes ?? everyReader).includes(scope))

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
  { path: "accounts", title: "Accounts", page: listAndDetail(AccountsPage, AccountPage), scopes: [...everyReader, "accounts"] },
  { path: "logs", title: "Request logs", page: listAndDetail(RequestLogsPage, RequestLogPage) },
  { path: "connectors", title: "Connectors", page: ConnectorsPage },
  { path: "profiles", title: "Connector profiles", page: ProfilesPage },
  { path: "webhooks", title: "Webhooks", page: WebhooksPage },
  { path: "api-keys", title: "API keys", page: ApiKeysPage, scopes: ["full_access"] }
]
