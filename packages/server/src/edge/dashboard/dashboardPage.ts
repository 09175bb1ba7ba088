import { connectPageHeaders } from "../connectPage/connectPageHeaders.js"

/**
 * The headers of the dashboard's page: the connect page's policy with no origin allowed to
 * frame it. Everything it runs and loads comes from this server (no inline script or style, no
 * other origin), it cannot be framed, and nothing is cached or sent as Referer. Its forms are
 * sent by its script (fetch), never submitted by the browser. (The content type goes with the body.)
 */
export const dashboardPageHeaders: Record<string, string> = (({ "content-type": _type, ...headers }) => headers)(
  connectPageHeaders([])
)

/**
 * `GET /dashboard`: the page before its script runs. Asset paths are relative to the page
 * (`dashboard/assets/…` from `/dashboard`), so it works behind a proxy that serves Switchyard
 * under a path prefix.
 */
export const dashboardPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Switchyard</title>
<link rel="icon" type="image/svg+xml" href="connect/assets/favicon.svg">
<link rel="stylesheet" href="dashboard/assets/dashboard.css">
<script type="module" src="dashboard/assets/dashboard.js"></script>
</head>
<body>
<div id="app"><main><h1>Switchyard</h1><p>Loading the dashboard…</p></main></div>
<noscript><p>The dashboard needs JavaScript.</p></noscript>
</body>
</html>
`

/** `GET /dashboard` when the dashboard was never built: what to run, in words. */
export const dashboardNotBuiltPage = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Switchyard: the dashboard is not built</title></head>
<body>
<main>
<h1>The dashboard is not built</h1>
<p>This server found no dashboard beside it. In a clone of the repository, run
<code>npx pnpm@9.15.9 --filter @switchyard/dashboard build</code> (or start the server with <code>pnpm start</code>,
which builds it) and restart the server.</p>
</main>
</body>
</html>
`
