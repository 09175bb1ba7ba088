import { allowedFrameOrigins, connectPageHeaders } from "./connectPageHeaders.js"
import { htmlDocument } from "./htmlDocument.js"

/**
 * `GET /connect`: the page before its script runs. The token stays in the URL, where the
 * script reads it; it is never written into the HTML.
 */
export const connectShellPage = (frameOrigins: ReadonlyArray<string>) => ({
  html: htmlDocument({
    title: "Connect an account",
    assets: "connect/assets/",
    data: { mode: "connect", frameOrigins: allowedFrameOrigins(frameOrigins) },
    main: `<h1 tabindex="-1">Connect an account</h1>
<p class="progress" role="status">Loading…</p>
<noscript><p class="alert">This page needs JavaScript to connect an account.</p></noscript>`
  }),
  headers: connectPageHeaders(frameOrigins)
})
