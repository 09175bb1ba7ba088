/*
 * The server's layers, one folder each under src/ (packages/server/test/Layers.test.ts runs this):
 * app/ (wiring, the job list, the CLI, the demo, the contract check; with the entry points
 * main, cli, bin and index beside the folders) → edge/ (HTTP handlers, error mapping, request
 * guards, /mcp, the connect page) → features/ (services and their repositories) → platform/
 * (config, SQL and the embedded database, crypto, cache, metrics, tracing, outbound HTTP, the
 * fleet and the job runner) and migrations/. A module imports its own layer or the ones after
 * it, never one before; no cycle runs between folders.
 */
const layer = {
  app: ["^src/(main|cli|bin|index)\\.ts$", "^src/app/"],
  edge: ["^src/edge/"],
  features: ["^src/features/"],
  platform: ["^src/platform/", "^src/migrations/"]
}
const any = (patterns) => patterns.join("|")

module.exports = {
  forbidden: [
    {
      name: "outside-the-layers",
      comment: "every module belongs to one layer: a new folder under src/ goes in app/, edge/, features/ or platform/",
      severity: "error",
      from: { path: "^src/", pathNot: any([...layer.app, ...layer.edge, ...layer.features, ...layer.platform]) },
      to: {}
    },
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
      from: { path: any(layer.features) },
      to: { path: any([...layer.app, ...layer.edge]) }
    },
    {
      name: "platform-imports-up",
      comment: "the platform (config, SQL, crypto, metrics, outbound HTTP, the job runner) serves every layer and imports none",
      severity: "error",
      from: { path: any(layer.platform) },
      to: { path: any([...layer.app, ...layer.edge, ...layer.features]) }
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
