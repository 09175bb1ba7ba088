import type { Ctx } from "../http/ctx.js"
import { HttpError } from "../http/httpError.js"
import { sendJson } from "../http/responses.js"
import { guardedRoutes, type Route } from "../router.js"
import type { LeverOpportunity, LeverPosting, LeverState } from "./data.js"
import type { OAuthState } from "./grants.js"

/**
 * The recruiting API behind OAuth, in the shape of Lever's v1 (`/v1/opportunities`,
 * `/v1/postings`): Bearer access tokens, cursor paging with `limit` and an opaque `offset` token,
 * lists answer `{data, hasNext, next}` and single records `{data}`.
 */

const leverError = (status: number, code: string, message: string, headers: Record<string, string> = {}): HttpError => new HttpError(status, { code, message }, headers)

/** Paging: `limit` 1–100 (default 100), `offset` = the `next` token of the previous page. */
const page = <T>(ctx: Ctx, items: ReadonlyArray<T>): { data: Array<T>; hasNext: boolean; next?: string } => {
  const limitRaw = ctx.query.get("limit")
  const limit = limitRaw === null ? 100 : Number(limitRaw)
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw leverError(400, "BadRequestError", "limit must be an integer between 1 and 100")
  const offsetRaw = ctx.query.get("offset")
  let start = 0
  if (offsetRaw !== null) {
    const match = /^o:(\d+)$/.exec(Buffer.from(offsetRaw, "base64url").toString("utf8"))
    if (match === null) throw leverError(400, "BadRequestError", "Invalid offset token")
    start = Number(match[1])
  }
  const data = items.slice(start, start + limit)
  const hasNext = start + limit < items.length
  return hasNext ? { data, hasNext, next: Buffer.from(`o:${start + limit}`).toString("base64url") } : { data, hasNext }
}

/** Every value of a repeatable parameter (`?stage_id=a&stage_id=b`). */
const all = (ctx: Ctx, name: string): Array<string> => ctx.query.getAll(name)

const msParam = (ctx: Ctx, name: string): number | undefined => {
  const raw = ctx.query.get(name)
  if (raw === null) return undefined
  const n = Number(raw)
  if (!Number.isFinite(n)) throw leverError(400, "BadRequestError", `${name} must be a timestamp in milliseconds`)
  return n
}

const opportunityView = (opportunity: LeverOpportunity): Omit<LeverOpportunity, "postingId"> => {
  const { postingId: _postingId, ...view } = opportunity
  return view
}

export const recruitingRoutes = (state: OAuthState, data: () => LeverState): ReadonlyArray<Route> => {
  const scoped = (scope: string) =>
    guardedRoutes({
      prefix: "/v1",
      guard: (ctx) => {
        const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.req.headers.authorization ?? "")
        if (match === null) throw leverError(401, "Unauthorized", "Missing Bearer access token", { "www-authenticate": 'Bearer realm="sandbox-oauth"' })
        const token = state.accessToken(match[1] as string)
        if (token === undefined) {
          throw leverError(401, "Unauthorized", "The access token is invalid, expired or revoked", {
            "www-authenticate": 'Bearer realm="sandbox-oauth", error="invalid_token", error_description="The access token is invalid, expired or revoked"'
          })
        }
        if (!token.scope.split(" ").includes(scope)) {
          throw leverError(403, "Forbidden", `The access token lacks the ${scope} scope`, { "www-authenticate": `Bearer realm="sandbox-oauth", error="insufficient_scope", scope="${scope}"` })
        }
      }
    })
  const opportunities = scoped("opportunities:read:admin")
  const postings = scoped("postings:read:admin")
  return [
    opportunities("GET", "/opportunities", (ctx) => {
      const stages = all(ctx, "stage_id")
      const postingIds = all(ctx, "posting_id")
      const tags = all(ctx, "tag")
      const emails = all(ctx, "email").map((e) => e.toLowerCase())
      const archived = ctx.query.get("archived")
      const createdStart = msParam(ctx, "created_at_start")
      const createdEnd = msParam(ctx, "created_at_end")
      const updatedStart = msParam(ctx, "updated_at_start")
      const updatedEnd = msParam(ctx, "updated_at_end")
      const items = data().opportunities.filter(
        (o) =>
          (stages.length === 0 || stages.includes(o.stage)) &&
          (postingIds.length === 0 || postingIds.includes(o.postingId)) &&
          (tags.length === 0 || tags.some((t) => o.tags.includes(t))) &&
          (emails.length === 0 || emails.some((e) => o.emails.includes(e))) &&
          (archived === null || (archived === "true") === (o.archived !== null)) &&
          (createdStart === undefined || o.createdAt >= createdStart) &&
          (createdEnd === undefined || o.createdAt <= createdEnd) &&
          (updatedStart === undefined || o.updatedAt >= updatedStart) &&
          (updatedEnd === undefined || o.updatedAt <= updatedEnd)
      )
      const answer = page(ctx, items)
      sendJson(ctx.res, 200, { ...answer, data: answer.data.map(opportunityView) })
    }),
    opportunities("GET", "/opportunities/:id", (ctx, params) => {
      const found = data().opportunities.find((o) => o.id === params["id"])
      if (found === undefined) throw leverError(404, "ResourceNotFound", "Opportunity not found")
      sendJson(ctx.res, 200, { data: opportunityView(found) })
    }),
    postings("GET", "/postings", (ctx) => {
      const states = all(ctx, "state")
      const teams = all(ctx, "team")
      const departments = all(ctx, "department")
      const locations = all(ctx, "location")
      const commitments = all(ctx, "commitment")
      const items = data().postings.filter(
        (p: LeverPosting) =>
          (states.length === 0 || states.includes(p.state)) &&
          (teams.length === 0 || teams.includes(p.categories.team)) &&
          (departments.length === 0 || departments.includes(p.categories.department)) &&
          (locations.length === 0 || locations.includes(p.categories.location)) &&
          (commitments.length === 0 || commitments.includes(p.categories.commitment))
      )
      sendJson(ctx.res, 200, page(ctx, items))
    }),
    postings("GET", "/postings/:id", (ctx, params) => {
      const found = data().postings.find((p) => p.id === params["id"])
      if (found === undefined) throw leverError(404, "ResourceNotFound", "Posting not found")
      sendJson(ctx.res, 200, { data: found })
    })
  ]
}
