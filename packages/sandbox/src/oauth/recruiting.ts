import type { Clock } from "../clock.js"
import type { Ctx } from "../http/ctx.js"
import { HttpError } from "../http/httpError.js"
import { sendJson } from "../http/responses.js"
import { guardedRoutes, type Route } from "../router.js"
import { activityRoutes } from "./activityRoutes.js"
import { CreateRefused, createOpportunity } from "./createOpportunity.js"
import { applicationView, LEVER_STAGE_TEXT, type LeverOpportunity, type LeverPosting, type LeverState } from "./data.js"
import type { OAuthState } from "./grants.js"

/**
 * The recruiting API behind OAuth, in the shape of Lever's v1 (`/v1/opportunities` with their
 * applications, `/v1/postings`, `/v1/archive_reasons`, and those of `activityRoutes`): Bearer access tokens, cursor paging with
 * `limit` and an opaque `offset` token, lists answer `{data, hasNext, next}`, single records
 * `{data}`, errors `{code, message}`.
 */

export const leverError = (status: number, code: string, message: string, headers: Record<string, string> = {}): HttpError => new HttpError(status, { code, message }, headers)

/** Lever's 404: "<resource> <id> was not found". */
export const notFound = (resource: string, id: string): HttpError => leverError(404, "ResourceNotFound", `${resource} ${id} was not found`)

/** Paging: `limit` 1–100 (default 100), `offset` = the `next` token of the previous page. */
export const page = <T>(ctx: Ctx, items: ReadonlyArray<T>): { data: Array<T>; hasNext: boolean; next?: string } => {
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

/**
 * What `expand` asks for (repeated, or comma-separated). The sandbox expands `applications` and
 * `stage`; Lever's other expansions (owner, followers, sourcedBy, contact) are left as ids.
 */
export const expansions = (ctx: Ctx): ReadonlySet<string> => new Set(all(ctx, "expand").flatMap((value) => value.split(",")).map((value) => value.trim()))

export const opportunityView = (state: LeverState, opportunity: LeverOpportunity, expand: ReadonlySet<string>): Record<string, unknown> => {
  const { postingId: _postingId, ...view } = opportunity
  const application = expand.has("applications") ? applicationView(state, opportunity) : undefined
  return {
    ...view,
    ...(expand.has("stage") ? { stage: { id: opportunity.stage, text: LEVER_STAGE_TEXT[opportunity.stage] ?? opportunity.stage } } : {}),
    ...(expand.has("applications") ? { applications: application === undefined ? [] : [application] } : {})
  }
}

export const recruitingRoutes = (state: OAuthState, data: () => LeverState, clock: Clock): ReadonlyArray<Route> => {
  /** Routes a token with one of `scopes` may call (Lever's write scopes include reading). */
  const scoped = (...scopes: ReadonlyArray<string>) =>
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
        const granted = token.scope.split(" ")
        if (!scopes.some((scope) => granted.includes(scope))) {
          throw leverError(403, "Forbidden", `The access token lacks the ${scopes[0]} scope`, { "www-authenticate": `Bearer realm="sandbox-oauth", error="insufficient_scope", scope="${scopes[0]}"` })
        }
      }
    })
  const readOpportunities = scoped("opportunities:read:admin", "opportunities:write:admin")
  const writeOpportunities = scoped("opportunities:write:admin")
  const applications = scoped("applications:read:admin")
  const archiveReasons = scoped("archive_reasons:read:admin")
  const postings = scoped("postings:read:admin")
  const opportunity = (id: string): LeverOpportunity => {
    const found = data().opportunities.find((o) => o.id === id)
    if (found === undefined) throw notFound("opportunities", id)
    return found
  }
  return [
    ...activityRoutes({ scoped, data, clock, opportunity }),
    readOpportunities("GET", "/opportunities", (ctx) => {
      const stages = all(ctx, "stage_id")
      const postingIds = all(ctx, "posting_id")
      const tags = all(ctx, "tag")
      const emails = all(ctx, "email").map((e) => e.toLowerCase())
      const contacts = all(ctx, "contact_id")
      const archived = ctx.query.get("archived")
      const createdStart = msParam(ctx, "created_at_start")
      const createdEnd = msParam(ctx, "created_at_end")
      const updatedStart = msParam(ctx, "updated_at_start")
      const updatedEnd = msParam(ctx, "updated_at_end")
      const expand = expansions(ctx)
      const state = data()
      const items = state.opportunities.filter(
        (o) =>
          (stages.length === 0 || stages.includes(o.stage)) &&
          (postingIds.length === 0 || postingIds.includes(o.postingId)) &&
          (tags.length === 0 || tags.some((t) => o.tags.includes(t))) &&
          (emails.length === 0 || emails.some((e) => o.emails.some((own) => own.toLowerCase() === e))) &&
          (contacts.length === 0 || contacts.includes(o.contact)) &&
          (archived === null || (archived === "true") === (o.archived !== null)) &&
          (createdStart === undefined || o.createdAt >= createdStart) &&
          (createdEnd === undefined || o.createdAt <= createdEnd) &&
          (updatedStart === undefined || o.updatedAt >= updatedStart) &&
          (updatedEnd === undefined || o.updatedAt <= updatedEnd)
      )
      const answer = page(ctx, items)
      sendJson(ctx.res, 200, { ...answer, data: answer.data.map((o) => opportunityView(state, o, expand)) })
    }),
    readOpportunities("GET", "/opportunities/:id", (ctx, params) => {
      sendJson(ctx.res, 200, { data: opportunityView(data(), opportunity(params["id"] as string), expansions(ctx)) })
    }),
    writeOpportunities("POST", "/opportunities", (ctx) => {
      let body: unknown
      try {
        body = ctx.body()
      } catch {
        throw leverError(400, "BadRequestError", "The body is not valid JSON")
      }
      const state = data()
      try {
        const created = createOpportunity(state, ctx.query.get("perform_as"), body, clock.tick())
        sendJson(ctx.res, 201, { data: opportunityView(state, created, expansions(ctx)) })
      } catch (e) {
        if (e instanceof CreateRefused) throw leverError(400, "BadRequestError", e.message)
        throw e
      }
    }),
    applications("GET", "/opportunities/:id/applications", (ctx, params) => {
      const state = data()
      const application = applicationView(state, opportunity(params["id"] as string))
      sendJson(ctx.res, 200, page(ctx, application === undefined ? [] : [application]))
    }),
    applications("GET", "/opportunities/:id/applications/:applicationId", (ctx, params) => {
      const state = data()
      const application = applicationView(state, opportunity(params["id"] as string))
      if (application === undefined || application.id !== params["applicationId"]) throw notFound("applications", params["applicationId"] as string)
      sendJson(ctx.res, 200, { data: application })
    }),
    archiveReasons("GET", "/archive_reasons", (ctx) => {
      const type = ctx.query.get("type")
      if (type !== null && type !== "hired" && type !== "non-hired") throw leverError(400, "BadRequestError", "type must be hired or non-hired")
      sendJson(ctx.res, 200, { data: data().archiveReasons.filter((r) => type === null || r.type === type), hasNext: false })
    }),
    archiveReasons("GET", "/archive_reasons/:id", (ctx, params) => {
      const found = data().archiveReasons.find((r) => r.id === params["id"])
      if (found === undefined) throw notFound("archive_reasons", params["id"] as string)
      sendJson(ctx.res, 200, { data: found })
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
      if (found === undefined) throw notFound("postings", params["id"] as string)
      sendJson(ctx.res, 200, { data: found })
    })
  ]
}
