import type { PageProps } from "../routes.js"
import { PageHeader } from "../ui/PageHeader.js"
import { AccountsByStatus } from "./overview/AccountsByStatus.js"
import { FailingWebhooks } from "./overview/FailingWebhooks.js"
import { TrafficPanel } from "./overview/TrafficPanel.js"

/** The landing view: how much the project is called and how well, its accounts' states, and webhooks in trouble. */
export const OverviewPage = ({ route }: PageProps) => (
  <>
    <PageHeader title="Overview" />
    <TrafficPanel range={route.query.get("range") === "7d" ? "7d" : "24h"} path={route.segments[0] ?? ""} />
    <div class="overview-columns">
      <AccountsByStatus />
      <FailingWebhooks />
    </div>
  </>
)
