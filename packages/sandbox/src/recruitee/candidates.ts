import type { Ctx } from "../http/ctx.js"
import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import type { RecruiteeCandidate } from "./data.js"
import { recruiteeBody, recruiteeError } from "./errors.js"
import type { RecruiteeContext } from "./recruiteeContext.js"
import { candidateView } from "./views.js"

/**
 * GET /candidates and POST /candidates as docs.recruitee.com/reference/candidates-get and
 * /reference/candidates-post describe them.
 */

const truthy = (value: string | null): boolean => value === "true" || value === "1"

const nonNegative = (ctx: Ctx, name: string): number | undefined => {
  const raw = ctx.query.get(name)
  if (raw === null || raw === "") return undefined
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 0) throw recruiteeError(400, `${name} must be a non-negative integer`)
  return value
}

const strings = (value: unknown): Array<string> =>
  value === undefined || value === null ? [] : (Array.isArray(value) ? value : [value]).filter((item) => typeof item === "string" && item !== "") as Array<string>

export const candidateRoutes = (context: RecruiteeContext): ReadonlyArray<Route> => [
  context.route("GET", "/candidates", (ctx) => {
    const state = context.state
    let candidates: Array<RecruiteeCandidate> = [...state.candidates]
    // ids: "List of IDs separated by comma"; offer_id: "Filter by offer"; created_after: "Show only
    // candidates created after given date"; qualified / disqualified: qualified or disqualified in at least one job
    const ids = ctx.query.get("ids")
    if (ids !== null && ids !== "") {
      const wanted = new Set(ids.split(",").map((id) => Number(id.trim())))
      candidates = candidates.filter((candidate) => wanted.has(candidate.id))
    }
    const offerId = ctx.query.get("offer_id")
    if (offerId !== null && offerId !== "") candidates = candidates.filter((candidate) => candidate.placements.some((placement) => placement.offer_id === Number(offerId)))
    const createdAfter = ctx.query.get("created_after")
    if (createdAfter !== null && createdAfter !== "") {
      const after = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(createdAfter) ? createdAfter : `${createdAfter}Z`)
      if (Number.isNaN(after)) throw recruiteeError(400, "created_after must be a date (yyyy-mm-ddThh:mm:ss)")
      candidates = candidates.filter((candidate) => candidate.created_at > after)
    }
    if (truthy(ctx.query.get("disqualified"))) candidates = candidates.filter((candidate) => candidate.placements.some((placement) => placement.disqualified))
    if (truthy(ctx.query.get("qualified"))) candidates = candidates.filter((candidate) => candidate.placements.some((placement) => !placement.disqualified))
    // sort "Defaults to by_date": the newest first
    candidates.sort((a, b) => b.created_at - a.created_at || b.id - a.id)
    // "If limit and offset are not provided, all candidates will be returned"; "offset for next page should be
    // current offset + limit"
    const limit = nonNegative(ctx, "limit")
    const offset = nonNegative(ctx, "offset") ?? 0
    const page = limit === undefined ? candidates.slice(offset) : candidates.slice(offset, offset + limit)
    sendJson(ctx.res, 200, { candidates: page.map(candidateView) })
  }),
  // "Manually add candidate to your account": a `candidate` object and `offers`, the "Offers to which the
  // candidate will be assigned with default stage. You can also pass one ID as offer_id"
  context.route("POST", "/candidates", (ctx) => {
    const record = recruiteeBody(ctx)
    const input = record["candidate"]
    if (typeof input !== "object" || input === null || Array.isArray(input)) throw recruiteeError(422, "candidate is required", { candidate: ["can't be blank"] })
    const fields = input as Record<string, unknown>
    const name = typeof fields["name"] === "string" ? fields["name"].trim() : ""
    if (name === "") throw recruiteeError(422, "Name can't be blank", { name: ["can't be blank"] })
    const state = context.state
    const offerIds = [...(Array.isArray(record["offers"]) ? record["offers"] : []), ...(record["offer_id"] === undefined ? [] : [record["offer_id"]])].map(Number)
    for (const offerId of offerIds) {
      if (!state.offers.some((offer) => offer.id === offerId)) throw recruiteeError(404, `Offer ${offerId} not found`)
    }
    const at = context.tick()
    const id = state.next.candidate++
    const candidate: RecruiteeCandidate = {
      id,
      name,
      emails: strings(fields["emails"]),
      phones: strings(fields["phones"]),
      admin_id: 61,
      created_at: at,
      updated_at: at,
      placements: [...new Set(offerIds)].map((offerId) => ({
        id: state.next.placement++,
        candidate_id: id,
        offer_id: offerId,
        stage_id: (state.stages[0] as { id: number }).id,
        disqualified: false,
        disqualify_reason: null,
        created_at: at,
        updated_at: at
      }))
    }
    state.candidates.push(candidate)
    sendJson(ctx.res, 201, { candidate: candidateView(candidate) })
  })
]
