import type { Ctx } from "../http/ctx.js"
import { sendJson } from "../http/responses.js"
import type { LookAlike } from "../lookAlikes/LookAlike.js"
import { rngFor } from "../prng.js"
import { accountRoutes } from "./account.js"
import { candidateRoutes } from "./candidates.js"
import { actingMemberId, generateWorkable, type WorkableState, workableSubdomain } from "./data.js"
import { WorkableContext } from "./workableContext.js"

/**
 * Workable's SPI v3 (https://{subdomain}.workable.com/spi/v3): an account token as a bearer token,
 * `limit` / `since_id` paging with `paging.next`, `{"error": ...}` bodies and the
 * X-Rate-Limit-* headers. Its credentials are the token, the account's subdomain and the member
 * that moves and disqualifies candidates.
 */
export const workableLookAlike: LookAlike<WorkableState> = {
  provider: "workable",
  title: "Workable (SPI v3)",
  generate: (seed) => generateWorkable(seed),
  credentials: (seed) => ({ apiToken: rngFor(seed, "workable-api-token").hex(64), subdomain: workableSubdomain(seed), memberId: actingMemberId() }),
  routes: (context) => {
    const workable = new WorkableContext(context.state, context.clock, context.credentials["apiToken"] ?? "")
    return [...candidateRoutes(workable), ...accountRoutes(workable)]
  },
  notFound: (ctx: Ctx) => sendJson(ctx.res, 404, { error: "Not found" }),
  baseUrl: (url) => `${url}/spi/v3`,
  usage: (info) => [`curl -H "Authorization: Bearer ${info.credentials["apiToken"]}" ${info.baseUrl}/jobs`]
}
