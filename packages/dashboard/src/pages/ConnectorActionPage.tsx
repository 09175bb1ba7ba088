import { api } from "../api.js"
import { href } from "../router.js"
import { categoryLabel, ownerLabel } from "../ui/connectorLabels.js"
import { Empty, Loaded } from "../ui/Feedback.js"
import { PageHeader } from "../ui/PageHeader.js"
import { useLoad } from "../ui/useLoad.js"
import { versionQuery } from "./ConnectorPage.js"

/** One action of a connector (get_connector_action): the inputs a caller gives it, and what it runs. */
export const ConnectorActionPage = (
  { connectorKey, kind, actionId, query }: {
    connectorKey: string
    kind: "actions" | "event_actions"
    actionId: string
    query: URLSearchParams
  }
) => {
  const selected = versionQuery(query)
  const action = useLoad(() => {
    const urlParams = { ...selected, expand: ["steps" as const, "result" as const] }
    return kind === "actions"
      ? api.connectors.get_connector_action({ path: { id: connectorKey, actionId }, urlParams })
      : api.connectors.get_connector_event_action({ path: { id: connectorKey, eventId: actionId }, urlParams })
  }, [connectorKey, kind, actionId, selected.version, selected.owner])
  const title = action.state === "loaded" ? action.data.label : actionId
  return (
    <>
      <PageHeader title={title} back={{ href: href(["connectors", connectorKey], selected), label: `Connector ${connectorKey}` }} />
      <Loaded load={action} what="the action">
        {(detail) => (
          <>
            {detail.description === null ? null : <p class="lead">{detail.description}</p>}
            {detail.details === null ? null : <p>{detail.details}</p>}
            <dl class="facts">
              <dt>Id</dt><dd><code>{detail.id}</code></dd>
              <dt>Connector</dt><dd><code>{detail.connector_key}</code> {detail.connector_version} ({ownerLabel(detail.owner)})</dd>
              <dt>Type</dt><dd>{detail.action_type}</dd>
              <dt>Categories</dt><dd>{detail.categories.map(categoryLabel).join(", ") || "None"}</dd>
              <dt>Required scopes</dt>
              <dd>{detail.required_scopes.length === 0 ? "None" : detail.required_scopes.map((scope) => <code key={scope} class="tag">{scope}</code>)}</dd>
            </dl>
            <h2>Inputs</h2>
            {detail.inputs.length === 0
              ? <Empty title="No inputs">The action takes no parameters: call it with the account alone.</Empty>
              : (
                <table>
                  <caption class="visually-hidden">Inputs of {detail.label}</caption>
                  <thead>
                    <tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Sent in</th><th scope="col">Required</th><th scope="col">Description</th></tr>
                  </thead>
                  <tbody>
                    {detail.inputs.map((input) => (
                      <tr key={`${input.in ?? ""}:${input.name}`}>
                        <td><code>{input.name}</code></td>
                        <td>
                          {input.type}{input.array ? " (list)" : ""}
                          {input.values === null ? null : <div class="muted small">One of: {input.values.join(", ")}</div>}
                        </td>
                        <td>{input.in ?? "–"}</td>
                        <td>{input.required ? "Required" : "Optional"}</td>
                        <td>{input.description ?? <span class="muted">–</span>}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            {detail.steps === null || detail.steps.length === 0 ? null : (
              <details>
                <summary>Steps it runs ({detail.steps.length})</summary>
                <pre>{JSON.stringify(detail.steps, null, 2)}</pre>
              </details>
            )}
            {detail.result === null || detail.result === undefined ? null : (
              <details>
                <summary>Result it maps</summary>
                <pre>{JSON.stringify(detail.result, null, 2)}</pre>
              </details>
            )}
          </>
        )}
      </Loaded>
    </>
  )
}
