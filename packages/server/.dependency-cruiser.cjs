/*
 * The server's layers, read from its imports (packages/server/test/Layers.test.ts runs this):
 * app (wiring, entry points, the CLI, the demo, the contract check) → edge (HTTP handlers,
 * error mapping, request guards, /mcp, the connect page) → features (services and their
 * repositories) → platform (config, SQL and the embedded database, crypto, cache, metrics,
 * tracing, outbound HTTP, the fleet and job runner, migrations). A module imports its own layer
 * or the ones after it, never one before; no cycle runs between folders.
 */
const layer = {
  app: [
    "^src/(main|cli|bin|index|Server|NodeServer|Bootstrap|Http|Logging|SchedulerLive)\\.ts$",
    "^src/(cli|demo|ContractCheck)/"
  ],
  edge: [
    "^src/[^/]+/Http\\.ts$",
    "^src/Unified/(ProxyHttp|UnifiedResponses)\\.ts$",
    "^src/Metrics/MetricsHttp\\.ts$",
    "^src/(toApiError|ErrorResponses|RequestGuards|RouteTable|ApiDocsLive|FaviconLive|SystemHttp)\\.ts$",
    "^src/(Mcp|ConnectPage|Wire)/"
  ],
  platform: [
    "^src/(Config|Sql|Pagination|workerThread)\\.ts$",
    "^src/(Database|Crypto|Cache|Metrics|Tracing|Provider|Fleet|Scheduler|migrations)/"
  ]
}
const any = (patterns) => patterns.join("|")
const appOrEdge = [...layer.app, ...layer.edge]

module.exports = {
  forbidden: [
    {
      name: "edge-imports-app",
      comment: "the edge (HTTP handlers, error mapping, /mcp, the connect page) is wired by the app, never the reverse",
      severity: "error",
      from: { path: any(layer.edge) },
      to: { path: any(layer.app) }
    },
    {
      name: "feature-imports-edge-or-app",
      comment: "features know nothing of HTTP handlers, API errors' mapping or wiring",
      severity: "error",
      from: { path: "^src/", pathNot: any([...appOrEdge, ...layer.platform]) },
      to: { path: any(appOrEdge) }
    },
    {
      name: "platform-imports-up",
      comment: "the platform (config, SQL, crypto, metrics, outbound HTTP, the job runner) serves every layer and imports none",
      severity: "error",
      from: { path: any(layer.platform) },
      to: { path: "^src/", pathNot: any(layer.platform) }
    },
    {
      name: "folder-cycle",
      comment: "two folders that import each other are one thing, or one of them holds what belongs to the other",
      severity: "error",
      scope: "folder",
      from: { path: "^src/" },
      to: { circular: true }
    }
  ],
  options: {
    includeOnly: "^src/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" }
  }
}
