import { Effect } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs/promises"
import * as Zlib from "node:zlib"

export interface DashboardAsset {
  readonly body: Uint8Array
  /** The same bytes gzipped once at start (the script is ~750 KB raw, ~215 KB gzipped). */
  readonly gzipped: Uint8Array
  readonly contentType: string
  readonly etag: string
}

const files: Record<string, string> = {
  "dashboard.js": "text/javascript; charset=utf-8",
  "dashboard.css": "text/css; charset=utf-8"
}

/**
 * Where the dashboard's build (packages/dashboard, `dist/`) is found:
 * - beside the bundled server (`dist/dashboard/`, copied there by scripts/build.mjs), which
 *   is how the installed package and `pnpm start` run;
 * - in the workspace, from this module in `src/edge/dashboard/` (tests, tsx) or
 *   `build/edge/dashboard/` (the compiled, unbundled server).
 */
const candidates = [
  new URL("./dashboard/", import.meta.url),
  new URL("../../../../dashboard/dist/", import.meta.url)
]

const readFrom = (directory: URL) =>
  Effect.forEach(Object.entries(files), ([name, contentType]) =>
    Effect.tryPromise(() => Fs.readFile(new URL(name, directory))).pipe(
      Effect.map((body): readonly [string, DashboardAsset] => [name, {
        body: new Uint8Array(body),
        gzipped: new Uint8Array(Zlib.gzipSync(body, { level: 9 })),
        contentType,
        etag: `"${Crypto.createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`
      }])
    ))

/**
 * The dashboard's script and style, read and compressed once when the server starts: they
 * never change while it runs. None when the dashboard was not built (a workspace where
 * `pnpm --filter @switchyard/dashboard build` never ran): /dashboard then says so.
 */
export const loadDashboardAssets: Effect.Effect<ReadonlyMap<string, DashboardAsset> | undefined> = Effect.firstSuccessOf(
  candidates.map((directory) => readFrom(directory).pipe(Effect.map((entries) => new Map(entries))))
).pipe(Effect.orElseSucceed(() => undefined))
