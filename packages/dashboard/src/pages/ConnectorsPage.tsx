import type { Connector } from "@switchyard/api"
import { recordsOf } from "@switchyard/client"
import { api } from "../api.js"
import type { PageProps } from "../routes.js"
import { href, replaceRoute } from "../router.js"
import { Badge } from "../ui/Badge.js"
import { authLabel, categoryLabel, ownerLabel, verificationLabel, verificationMeaning, verificationTone } from "../ui/connectorLabels.js"
import { Empty, Loaded } from "../ui/Feedback.js"
import { PageHeader } from "../ui/PageHeader.js"
import { useSession } from "../ui/SessionContext.js"
import { useDisclosure } from "../ui/useDisclosure.js"
import { useLoad } from "../ui/useLoad.js"
import { ConnectorActionPage } from "./ConnectorActionPage.js"
import { ConnectorPage } from "./ConnectorPage.js"
import { UploadConnector } from "./UploadConnector.js"

/**
 * `#/connectors` is the catalog, `#/connectors/<key>` one connector (`?version=&owner=` for
 * another of its versions), `#/connectors/<key>/actions/<id>` (or `/event_actions/<id>`) one
 * action's inputs.
 */
export const ConnectorsPage = ({ route }: PageProps) => {
  const [, key, kind, actionId] = route.segments
  if (key === undefined) return <ConnectorCatalog route={route} />
  if ((kind === "actions" || kind === "event_actions") && actionId !== undefined) {
    return <ConnectorActionPage connectorKey={key} kind={kind} actionId={actionId} query={route.query} />
  }
  return <ConnectorPage connectorKey={key} query={route.query} />
}

/** Every connector the project sees (the catalog is small: one entry per key), by title. */
const loadCatalog = async (): Promise<ReadonlyArray<Connector>> => {
  const list = recordsOf(await api.connectors.list_connectors({ urlParams: {} }))
  return [...list].sort((a, b) => a.title.localeCompare(b.title))
}

const matches = (connector: Connector, search: string) => {
  const needle = search.trim().toLowerCase()
  if (needle === "") return true
  return [connector.title, connector.key, connector.description ?? ""].some((text) => text.toLowerCase().includes(needle))
}

/** The catalog with its filters in the URL (`?search=&category=`), so a filtered view can be shared. */
const ConnectorCatalog = ({ route }: PageProps) => {
  const { canWrite } = useSession()
  const catalog = useLoad(loadCatalog, [])
  const upload = useDisclosure()
  const search = route.query.get("search") ?? ""
  const category = route.query.get("category") ?? ""
  const setFilter = (change: { search?: string; category?: string }) =>
    replaceRoute(href("connectors", { search, category, ...change }))
  return (
    <>
      <PageHeader title="Connectors">
        {canWrite && !upload.open
          ? <button type="button" class="primary" ref={upload.opener} onClick={upload.show}>Upload a custom connector</button>
          : null}
      </PageHeader>
      <p class="muted">
        The connectors accounts can link to: the built-in catalog and this project's custom connectors. A custom connector
        with a built-in's key takes its place for this project.
      </p>
      {canWrite && upload.open ? <UploadConnector onUploaded={() => catalog.reload()} onClose={upload.hide} /> : null}
      <Loaded load={catalog} what="connectors">
        {(list) => {
          const categories = [...new Set(list.flatMap((connector) => connector.categories))].sort()
          const shown = list.filter((connector) =>
            matches(connector, search) && (category === "" || connector.categories.includes(category))
          )
          return (
            <>
              <form class="filters" role="search" aria-label="Filter connectors" onSubmit={(event) => event.preventDefault()}>
                <div class="field">
                  <label for="connector-search">Search</label>
                  <input id="connector-search" type="search" value={search} placeholder="Title, key or description"
                    onInput={(event) => setFilter({ search: event.currentTarget.value })} />
                </div>
                <div class="field">
                  <label for="connector-category">Category</label>
                  <select id="connector-category" value={category}
                    onChange={(event) => setFilter({ category: event.currentTarget.value })}>
                    <option value="">All categories</option>
                    {categories.map((name) => <option key={name} value={name}>{categoryLabel(name)}</option>)}
                  </select>
                </div>
                <p class="muted filter-count" role="status">
                  {shown.length === list.length ? `${list.length} connectors` : `${shown.length} of ${list.length} connectors`}
                </p>
              </form>
              {shown.length === 0
                ? (
                  <Empty title="No connector matches these filters">
                    Change the search or the category, or{" "}
                    <a href={href("connectors")}>show every connector</a>.
                  </Empty>
                )
                : <CatalogTable connectors={shown} />}
            </>
          )
        }}
      </Loaded>
    </>
  )
}

const CatalogTable = ({ connectors }: { connectors: ReadonlyArray<Connector> }) => (
  <>
    <table>
      <caption class="visually-hidden">Connectors, by title</caption>
      <thead>
        <tr>
          <th scope="col">Connector</th>
          <th scope="col">Key</th>
          <th scope="col">Version</th>
          <th scope="col">Categories</th>
          <th scope="col">Authentication</th>
          <th scope="col">Verification</th>
        </tr>
      </thead>
      <tbody>
        {connectors.map((connector) => (
          <tr key={connector.id}>
            <td>
              <a href={href(["connectors", connector.key])}>{connector.title}</a>
              {connector.owner === "custom" ? <> <Badge label={ownerLabel(connector.owner)} tone="warn" /></> : null}
            </td>
            <td><code>{connector.key}</code></td>
            <td>{connector.version}</td>
            <td>{connector.categories.map(categoryLabel).join(", ") || "–"}</td>
            <td>{connector.authentication_methods.map(authLabel).join(", ") || "None"}</td>
            <td><Badge label={verificationLabel[connector.verification.level]} tone={verificationTone(connector.verification.level)} /></td>
          </tr>
        ))}
      </tbody>
    </table>
    <p class="muted">
      Verification: {(["contract", "documentation", "community"] as const).map((level, index) => (
        <span key={level}>{index === 0 ? "" : "; "}<strong>{verificationLabel[level]}</strong>, {verificationMeaning[level]}</span>
      ))}.
    </p>
  </>
)
