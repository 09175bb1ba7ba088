import type { Ctx } from "../http/ctx.js"
import { sendJson } from "../http/responses.js"
import { rngFor } from "../prng.js"
import type { Route } from "../router.js"
import { CANDIDATE_STATUSES, type CandidateStatus, type SrAssignment, type SrCandidate, uuid } from "./data.js"
import { srError } from "./errors.js"
import { cursorPage } from "./paging.js"
import type { SrContext } from "./SrContext.js"

const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined)

const time = (ctx: Ctx, name: string): number | undefined => {
  const raw = ctx.query.get(name)
  if (raw === null) return undefined
  const ms = Date.parse(raw)
  if (Number.isNaN(ms)) throw srError(400, "INVALID_DATE", `${name} must be an ISO 8601 date-time`)
  return ms
}

/** GET /candidates: "only candidates matching all specified criteria and having at least one job application". */
const search = (context: SrContext, ctx: Ctx): Array<SrCandidate> => {
  const q = ctx.query.get("q")?.toLowerCase()
  const jobIds = ctx.query.getAll("jobId")
  const statuses = ctx.query.getAll("status").map((s) => s.toUpperCase())
  const updatedAfter = time(ctx, "updatedAfter")
  return [...context.state.candidates.values()]
    .filter((c) => {
      if (c.assignments.length === 0) return false
      const assignments = jobIds.length === 0 ? c.assignments : c.assignments.filter((a) => jobIds.includes(a.jobId))
      if (assignments.length === 0) return false
      if (statuses.length > 0 && !assignments.some((a) => statuses.includes(a.status))) return false
      if (updatedAfter !== undefined && c.updatedOn < updatedAfter) return false
      if (q !== undefined && q !== "" && ![c.firstName, c.lastName, c.email, ...c.tags].some((field) => field.toLowerCase().includes(q))) return false
      return true
    })
    // newest first
    .sort((a, b) => b.createdOn - a.createdOn || a.id.localeCompare(b.id))
}

/** CandidateInput: firstName, lastName and email are required. */
const newCandidate = (context: SrContext, ctx: Ctx, assignment: ((now: number) => SrAssignment) | undefined): SrCandidate => {
  const body = ctx.body()
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw srError(400, "INVALID_BODY", "A candidate object is required")
  const input = body as Record<string, unknown>
  const missing = ["firstName", "lastName", "email"].filter((field) => text(input[field]) === undefined)
  if (missing.length > 0) {
    throw srError(400, "MISSING_FIELDS", `Required fields are missing: ${missing.join(", ")}`)
  }
  const now = context.tick()
  const state = context.state
  const web = typeof input["web"] === "object" && input["web"] !== null ? (input["web"] as Record<string, string>) : {}
  const location = typeof input["location"] === "object" && input["location"] !== null ? (input["location"] as SrCandidate["location"]) : null
  const candidate: SrCandidate = {
    id: uuid(rngFor(now, "smartrecruiters-created", state.created++)),
    internal: input["internal"] === true,
    firstName: text(input["firstName"])!,
    lastName: text(input["lastName"])!,
    email: text(input["email"])!,
    phoneNumber: text(input["phoneNumber"]) ?? null,
    location,
    web,
    createdOn: now,
    updatedOn: now,
    tags: Array.isArray(input["tags"]) ? input["tags"].filter((t): t is string => typeof t === "string") : [],
    averageRating: 0,
    assignments: assignment === undefined ? [] : [assignment(now)]
  }
  state.candidates.set(candidate.id, candidate)
  return candidate
}

const assignmentOf = (context: SrContext, candidateId: string | undefined, jobId: string | undefined): { candidate: SrCandidate; assignment: SrAssignment } => {
  const candidate = context.candidate(candidateId)
  const assignment = candidate.assignments.find((a) => a.jobId === jobId)
  if (assignment === undefined) throw srError(404, "APPLICATION_NOT_FOUND", `Candidate ${candidateId} has no application to job ${jobId}`)
  return { candidate, assignment }
}

/** Candidates and their applications (a candidate's assignment to a job). */
export const candidateRoutes = (context: SrContext): ReadonlyArray<Route> => [
  context.route("GET", "/candidates", (ctx) => {
    const views = context.views(ctx)
    const found = search(context, ctx)
    const { page, limit, nextPageId } = cursorPage(ctx, "candidates", found)
    sendJson(ctx.res, 200, { limit, totalFound: found.length, ...(nextPageId === undefined ? {} : { nextPageId }), content: page.map((c) => views.candidate(c)) })
  }),
  context.route("POST", "/candidates", (ctx) => {
    // a new candidate in the Talent Pool, with no application
    sendJson(ctx.res, 201, context.views(ctx).candidateDetails(newCandidate(context, ctx, undefined)))
  }),
  context.route("POST", "/jobs/:jobId/candidates", (ctx, params) => {
    const job = context.job(params["jobId"])
    const candidate = newCandidate(context, ctx, (now) => ({ jobId: job.id, status: "NEW", subStatus: null, startsOn: now, source: "API", reasonId: null }))
    sendJson(ctx.res, 201, context.views(ctx).candidateDetails(candidate))
  }),
  context.route("GET", "/candidates/:id", (ctx, params) => sendJson(ctx.res, 200, context.views(ctx).candidateDetails(context.candidate(params["id"])))),
  context.route("GET", "/candidates/:id/jobs/:jobId", (ctx, params) => {
    const { assignment, candidate } = assignmentOf(context, params["id"], params["jobId"])
    sendJson(ctx.res, 200, context.views(ctx).assignment(candidate, assignment))
  }),
  context.route("PUT", "/candidates/:id/jobs/:jobId/status", (ctx, params) => {
    const { assignment, candidate } = assignmentOf(context, params["id"], params["jobId"])
    const body = ctx.body() as Record<string, unknown>
    const status = body?.["status"]
    if (typeof status !== "string" || !(CANDIDATE_STATUSES as ReadonlyArray<string>).includes(status)) {
      throw srError(400, "INVALID_STATUS", `status must be one of ${CANDIDATE_STATUSES.join(", ")}`)
    }
    const reason = body["reason"]
    if (reason !== undefined && reason !== null) {
      if (status !== "REJECTED" && status !== "WITHDRAWN") throw srError(400, "INVALID_REASON", "A reason goes with REJECTED or WITHDRAWN only")
      if (!context.state.rejectionReasons.some((r) => r.id === reason)) throw srError(400, "INVALID_REASON", `Unknown reason ${String(reason)}`)
    }
    const startsOn = body["startsOn"] === undefined ? undefined : Date.parse(String(body["startsOn"]))
    if (startsOn !== undefined && Number.isNaN(startsOn)) throw srError(400, "INVALID_DATE", "startsOn must be an ISO 8601 date-time")
    const now = context.tick()
    assignment.status = status as CandidateStatus
    assignment.subStatus = text(body["subStatus"]) ?? null
    assignment.startsOn = startsOn ?? now
    assignment.reasonId = typeof reason === "string" ? reason : null
    candidate.updatedOn = now
    ctx.res.writeHead(204)
    ctx.res.end()
  })
]
