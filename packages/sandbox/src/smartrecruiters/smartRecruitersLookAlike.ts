import { sendJson } from "../http/responses.js"
import type { LookAlike } from "../lookAlikes/LookAlike.js"
import { rngFor } from "../prng.js"
import { candidateRoutes } from "./candidates.js"
import { configurationRoutes } from "./configuration.js"
import { generateSmartRecruiters, type SmartRecruitersState } from "./data.js"
import { jobRoutes } from "./jobs.js"
import { SrContext } from "./SrContext.js"
import { userRoutes } from "./users.js"

/**
 * SmartRecruiters' Customer API (https://api.smartrecruiters.com), as developers.smartrecruiters.com
 * documents it: an API key in the X-SmartToken header, candidates and their applications to jobs
 * (with the status change), jobs, departments, rejection reasons and users; cursor pages
 * (limit/pageId/nextPageId) for candidates and users, offset pages for jobs; ErrorResponse bodies and
 * the X-RateLimit-* headers on every answer.
 */
export const smartRecruitersLookAlike: LookAlike<SmartRecruitersState> = {
  provider: "smartrecruiters",
  title: "SmartRecruiters (Customer API)",
  generate: (seed) => generateSmartRecruiters(seed),
  // "The API key is a 32-characters string"
  credentials: (seed) => ({ apiKey: rngFor(seed, "smartrecruiters-api-key").hex(32) }),
  routes: ({ clock, credentials, state }) => {
    const context = new SrContext({ state, clock, apiKey: credentials["apiKey"] ?? "" })
    return [...candidateRoutes(context), ...jobRoutes(context), ...configurationRoutes(context), ...userRoutes(context)]
  },
  notFound: (ctx) => sendJson(ctx.res, 404, { message: "Not Found", errors: [{ code: "NOT_FOUND", message: `No resource at ${ctx.path}` }] }),
  baseUrl: (url) => url,
  usage: ({ baseUrl, credentials }) => [`curl -H "X-SmartToken: ${credentials["apiKey"]}" "${baseUrl}/candidates?limit=5"`],
}
