/*
 * The Promise client's size for a Node consumer (no browser), printed by the client's build:
 * esbuild bundles a program that imports createSwitchyardClient and makes one call, from the
 * built dist/ (as an installed consumer resolves it: "import" condition, never the workspace's
 * sources), tree-shaken and minified for platform node; printed raw and gzipped. The client
 * is derived from the whole HttpApi (every group's schemas), so one operation carries most of
 * the API's definition: the figure is the cost of importing the client at all.
 */
import * as Esbuild from "esbuild"
import * as Path from "node:path"
import * as Zlib from "node:zlib"

const clientDir = Path.resolve(import.meta.dirname, "..")

const program = `
import { createSwitchyardClient } from "./dist/index.js"
const switchyard = createSwitchyardClient({ baseUrl: "http://127.0.0.1:4000", apiKey: process.env.SWITCHYARD_API_KEY ?? "" })
switchyard.connectors.list_connectors({ urlParams: {} }).then((connectors) => console.log(connectors))
`

const result = await Esbuild.build({
  stdin: { contents: program, resolveDir: clientDir, sourcefile: "one-operation.js", loader: "js" },
  bundle: true,
  write: false,
  format: "esm",
  platform: "node",
  target: "node20",
  minify: true,
  treeShaking: true,
  logLevel: "error"
})
const bytes = result.outputFiles[0].contents
const gzipped = Zlib.gzipSync(bytes, { level: 9 }).length
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`
console.log(
  `@switchyard/client Promise client, one operation, bundled for Node (esbuild, minified): ` +
    `${bytes.length} bytes (${kib(bytes.length)}), ${gzipped} bytes gzipped (${kib(gzipped)})`
)
