import type { ComponentType } from "preact"
import { ApiKeysPage } from "./pages/ApiKeysPage.js"
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

/** The dashboard's sections, in the navigation's order; the first is the landing view. */
export const sections: ReadonlyArray<Section> = [
  { path: "overview", title: "Overview", page: OverviewPage },
  { path: "webhooks", title: "Webhooks", page: WebhooksPage },
  { path: "api-keys", title: "API keys", page: ApiKeysPage, fullAccessOnly: true }
]
