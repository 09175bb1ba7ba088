import type { ComponentType } from "preact"
import { ApiKeysPage } from "./pages/ApiKeysPage.js"
import { ConnectorsPage } from "./pages/ConnectorsPage.js"
import { ProfilesPage } from "./pages/ProfilesPage.js"
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
  { path: "connectors", title: "Connectors", page: ConnectorsPage },
  { path: "profiles", title: "Connector profiles", page: ProfilesPage },
  { path: "api-keys", title: "API keys", page: ApiKeysPage, fullAccessOnly: true }
]
