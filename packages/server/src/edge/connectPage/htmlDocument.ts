/** Text for HTML element content and quoted attribute values. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[c]!)

/**
 * JSON for a `<script type="application/json">` block: the browser never runs it (so CSP
 * allows it), and with `<`, `>` and `&` escaped no value can close the element or open a comment.
 */
export const jsonDataBlock = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029")

/** The id of the data block the page script reads. */
export const DATA_BLOCK_ID = "switchyard-connect-data"

/**
 * A page of the connect flow. `assets` is the path of /connect/assets/ relative to the page,
 * so the pages work behind a proxy that serves Switchyard under a path prefix.
 */
export const htmlDocument = (options: {
  readonly title: string
  readonly assets: string
  readonly data: unknown
  readonly main: string
}) =>
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(options.title)}</title>
<link rel="icon" type="image/svg+xml" href="${options.assets}favicon.svg">
<link rel="stylesheet" href="${options.assets}connect.css">
<script type="application/json" id="${DATA_BLOCK_ID}">${jsonDataBlock(options.data)}</script>
<script src="${options.assets}connect.js" defer></script>
</head>
<body>
<main id="connect" class="card">
${options.main}
</main>
<p id="connect-live" class="visually-hidden" role="status" aria-live="polite"></p>
</body>
</html>
`
