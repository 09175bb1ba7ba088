import { Effect } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs/promises"

export interface ConnectAsset {
  readonly body: Uint8Array
  readonly contentType: string
  /** A strong validator of the content, so a browser revalidates instead of downloading again. */
  readonly etag: string
}

const files: Record<string, string> = {
  "connect.js": "text/javascript; charset=utf-8",
  "connect.css": "text/css; charset=utf-8",
  // Switchyard's icon: linked by the pages, and the site's /favicon.ico (FaviconLive.ts).
  "favicon.svg": "image/svg+xml"
}

/**
 * The page's script, style and icon, plain files beside this module (`./assets/`), read once when
 * the server starts: the same path resolves when the server runs from source (tsx, vitest)
 * and compiled (`dist/ConnectPage/`, where scripts/build.mjs copies them). A missing file
 * stops the start instead of serving a page that cannot work.
 */
export const loadConnectAssets = Effect.forEach(Object.entries(files), ([name, contentType]) =>
  Effect.tryPromise({
    try: () => Fs.readFile(new URL(`./assets/${name}`, import.meta.url)),
    catch: (cause) => new Error(`connect page asset ${name} is missing beside ${import.meta.url}`, { cause })
  }).pipe(Effect.map((body): readonly [string, ConnectAsset] => [name, {
    body: new Uint8Array(body),
    contentType,
    etag: `"${Crypto.createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`
  }]))).pipe(Effect.map((entries) => new Map(entries)), Effect.orDie)
