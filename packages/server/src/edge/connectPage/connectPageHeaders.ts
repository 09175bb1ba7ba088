import { Either } from "effect"
import { parseFrameOrigin } from "./parseFrameOrigin.js"

/**
 * The headers of every HTML page of the connect flow (the page, its error page, the OAuth2
 * result page).
 *
 * - Scripts, styles, images and requests come from this server only: the page works on a
 *   private network and runs nothing it did not serve (no inline script or style at all).
 * - `form-action 'none'`: the page never submits a form itself, its script sends the fields
 *   with fetch. Should the script not run, the browser then refuses to send what was typed
 *   anywhere (a plain GET submit would put secrets into the URL). The way to the OAuth2
 *   provider is a navigation by the script (or a popup's location), which CSP does not govern.
 * - `frame-ancestors`: the project's allowed origins, else `'none'` (and `X-Frame-Options:
 *   DENY` for browsers without CSP level 2). Stored origins are checked again here, so a bad
 *   value in the database cannot inject a directive.
 * - The token is in the URL: no Referer leaves the page, and no cache keeps it.
 */
export const connectPageHeaders = (frameOrigins: ReadonlyArray<string>): Record<string, string> => {
  const ancestors = allowedFrameOrigins(frameOrigins)
  const csp = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'none'",
    "base-uri 'none'",
    `frame-ancestors ${ancestors.length === 0 ? "'none'" : ancestors.join(" ")}`
  ].join("; ")
  return {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": csp,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
    ...(ancestors.length === 0 ? { "x-frame-options": "DENY" } : {})
  }
}

/** The valid, normalized origins among `origins`, without repeats. */
export const allowedFrameOrigins = (origins: ReadonlyArray<string>): ReadonlyArray<string> => [
  ...new Set(origins.flatMap((origin) => Either.match(parseFrameOrigin(origin), { onLeft: () => [], onRight: (valid) => [valid] })))
]
