import { sendJson } from "../http/responses.js"
import type { LookAlike } from "../lookAlikes/LookAlike.js"
import { rngFor } from "../prng.js"
import { candidateRoutes } from "./candidates.js"
import { generateTeamtailor, type TeamtailorState } from "./data.js"
import { directoryRoutes } from "./directory.js"
import { jobApplicationRoutes } from "./jobApplications.js"
import { jobRoutes } from "./jobs.js"
import { MEDIA_TYPE } from "./jsonApi.js"
import { TEAMTAILOR_API_VERSION, TeamtailorContext } from "./teamtailorContext.js"

/**
 * A Teamtailor look-alike following the public API's documentation (docs.teamtailor.com): a
 * JSON:API under `/v1` behind `Authorization: Token token=<API key>` and a required `X-Api-Version`
 * header; candidates, jobs, job applications (moved by their stage relation, rejected by their
 * reject-reason relation and rejected-at), stages, users, departments, locations and reject
 * reasons, paged by `page[number]` / `page[size]` with `links.next`.
 */
export const teamtailorLookAlike: LookAlike<TeamtailorState> = {
  provider: "teamtailor",
  title: "Teamtailor (public API v1)",
  generate: (seed) => generateTeamtailor(seed),
  credentials: (seed) => ({ apiKey: `tt-${rngFor(seed, "teamtailor-api-key").hex(40)}` }),
  routes: (context) => {
    const teamtailor = new TeamtailorContext({ apiKey: context.credentials["apiKey"] ?? "", state: context.state, clock: context.clock })
    return [...candidateRoutes(teamtailor), ...jobRoutes(teamtailor), ...jobApplicationRoutes(teamtailor), ...directoryRoutes(teamtailor)]
  },
  notFound: (ctx) => sendJson(ctx.res, 404, { errors: [{ title: "Not Found", detail: `No route matches ${ctx.path}`, code: "404", status: "404" }] }, { "content-type": MEDIA_TYPE }),
  onError: (ctx, error) => sendJson(ctx.res, error.status, error.body, { "content-type": MEDIA_TYPE, ...error.headers }),
  baseUrl: (url) => `${url}/v1`,
  usage: (info) => [
    `curl -H 'Authorization: Token token=${info.credentials["apiKey"]}' -H 'X-Api-Version: ${TEAMTAILOR_API_VERSION}' '${info.baseUrl}/jobs?filter%5Bstatus%5D=all'`
  ]
}
