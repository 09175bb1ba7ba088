import { sendJson } from "../http/responses.js"
import type { LookAlike } from "../lookAlikes/LookAlike.js"
import { rngFor } from "../prng.js"
import { AshbyContext } from "./AshbyContext.js"
import { applicationRoutes } from "./applications.js"
import { candidateRoutes } from "./candidates.js"
import { type AshbyState, generateAshby } from "./data.js"
import { hiringProcessRoutes } from "./hiringProcess.js"
import { jobRoutes } from "./jobs.js"
import { organizationRoutes } from "./organization.js"

/**
 * Ashby's public API (developers.ashbyhq.com): `POST https://api.ashbyhq.com/<category>.<method>`
 * with JSON bodies and Basic authentication (the API key as user name, no password); answers are
 * `{success, results}`, lists page with `cursor`/`moreDataAvailable`/`nextCursor` and sync with
 * `syncToken`. The documentation publishes no rate-limit headers on ordinary answers, so none are
 * sent (the sandbox's rate_limit fault gives the 429 with Retry-After).
 */
export const ashbyLookAlike: LookAlike<AshbyState> = {
  provider: "ashby",
  title: "Ashby (public API)",
  generate: (seed) => generateAshby(seed),
  credentials: (seed) => ({ apiKey: `ashby_sandbox_${rngFor(seed, "ashby-key").hex(32)}` }),
  routes: ({ clock, credentials, state }) => {
    const context = new AshbyContext({ apiKey: credentials["apiKey"] as string, state, clock })
    return [...applicationRoutes(context), ...candidateRoutes(context), ...jobRoutes(context), ...organizationRoutes(context), ...hiringProcessRoutes(context)]
  },
  // Ashby's answer to an endpoint it lacks is not documented: a 404 in its error shape
  notFound: (ctx) =>
    sendJson(ctx.res, 404, { success: false, errors: ["not_found"], errorInfo: { code: "not_found", message: `No endpoint ${ctx.path}` } }),
  baseUrl: (url) => url,
  usage: ({ baseUrl, credentials }) => [
    `curl -u '${credentials["apiKey"]}:' -H 'Content-Type: application/json' -d '{"limit": 5}' ${baseUrl}/candidate.list`
  ]
}
