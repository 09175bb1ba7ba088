import { sendJson } from "../http/responses.js"
import type { LookAlike } from "../lookAlikes/LookAlike.js"
import { candidateRoutes } from "./candidates.js"
import { generateRecruitee, RECRUITEE_COMPANY_ID, recruiteeToken, type RecruiteeState } from "./data.js"
import { offerRoutes } from "./offers.js"
import { placementRoutes } from "./placements.js"
import { RecruiteeContext } from "./recruiteeContext.js"

/**
 * Recruitee's ATS API (https://api.recruitee.com/c/{company_id}), as docs.recruitee.com describes it and, for a
 * placement's stage and disqualification, as public integrations of apidocs.recruitee.com call it.
 */
export const recruiteeLookAlike: LookAlike<RecruiteeState> = {
  provider: "recruitee",
  title: "Recruitee (ATS API)",
  generate: (seed) => generateRecruitee(seed),
  credentials: (seed) => ({ companyId: RECRUITEE_COMPANY_ID, apiToken: recruiteeToken(seed) }),
  routes: (context) => {
    const recruitee = new RecruiteeContext({ state: context.state, clock: context.clock, apiToken: context.credentials["apiToken"] ?? "" })
    return [...candidateRoutes(recruitee), ...offerRoutes(recruitee), ...placementRoutes(recruitee)]
  },
  notFound: (ctx) => sendJson(ctx.res, 404, { error: ["Not found"] }),
  baseUrl: (url) => `${url}/c/${RECRUITEE_COMPANY_ID}`,
  usage: (info) => [`curl -H 'Authorization: Bearer ${info.credentials["apiToken"]}' ${info.baseUrl}/candidates?limit=5`]
}
