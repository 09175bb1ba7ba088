import { href } from "../../router.js"
import { Badge } from "../../ui/Badge.js"
import { Empty, Loaded } from "../../ui/Feedback.js"
import { useSession } from "../../ui/SessionContext.js"
import { useLoad } from "../../ui/useLoad.js"
import { webhooksWithHealth } from "../webhooks/webhookHealth.js"

/** The webhook endpoints that are not getting their events: disabled, or whose latest delivery failed. */
export const FailingWebhooks = () => {
  const { canWrite } = useSession()
  const endpoints = useLoad(webhooksWithHealth, [])
  return (
    <section class="overview-panel" aria-labelledby="failing-webhooks">
      <h2 id="failing-webhooks">Webhook endpoints failing</h2>
      <Loaded load={endpoints} what="the webhook endpoints">
        {(list) => {
          if (list.length === 0) {
            return (
              <Empty title="No webhook endpoints">
                {canWrite
                  ? <>Add one under <a href={href("webhooks")}>Webhooks</a> to hear when accounts are linked, change status or are deleted.</>
                  : "A key with write access can add one, to hear when accounts are linked, change status or are deleted."}
              </Empty>
            )
          }
          const failing = list.flatMap(({ endpoint, health }) =>
            health.state === "failing" || health.state === "disabled" ? [{ endpoint, health }] : []
          )
          if (failing.length === 0) {
            return (
              <p class="all-well">
                <Badge label="None" tone="good" /> All {list.length} {list.length === 1 ? "endpoint is" : "endpoints are"}{" "}
                enabled, and none has a failed latest delivery.
              </p>
            )
          }
          return (
            <ul class="failing-list">
              {failing.map(({ endpoint, health }) => (
                <li key={endpoint.id}>
                  <Badge label={health.state === "disabled" ? "Disabled" : "Failing"} tone={health.state === "disabled" ? "warn" : "bad"} />{" "}
                  <a href={href(["webhooks", endpoint.id])}>{endpoint.url}</a>
                  <span class="muted why">{health.why}</span>
                </li>
              ))}
            </ul>
          )
        }}
      </Loaded>
    </section>
  )
}
