import type { Ctx } from "../http/ctx.js"
import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import { candidateId, type WorkableCandidate } from "./data.js"
import { unprocessable } from "./errors.js"
import { collection, page } from "./paging.js"
import type { WorkableContext } from "./workableContext.js"

/**
 * Candidates: the collection (all, or one job's), one candidate, creating one in a job, copying
 * one to another job, and moving or disqualifying one. Workable's candidate is one person in one job's pipeline.
 */

const text = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value.trim() : null)

const record = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}

/** The collection's filters: email, shortcode, stage (a slug); then the paging. */
const listCandidates = (context: WorkableContext, ctx: Ctx, shortcode: string | null) => {
  const email = ctx.query.get("email")?.toLowerCase()
  const stage = ctx.query.get("stage")
  const selected = context.state.candidates.filter((c) =>
    (shortcode === null || c.shortcode === shortcode) &&
    (email === undefined || email === "" || c.email.toLowerCase() === email) &&
    (stage === null || stage === "" || c.stage === stage)
  )
  const { items, next } = page(ctx, selected)
  const views = context.views()
  sendJson(ctx.res, 200, collection("candidates", items.map((c) => views.candidateSummary(c)), next))
}

/** The member a move or disqualification is performed by (required). */
const actingMember = (context: WorkableContext, body: Record<string, unknown>): string => {
  const member = text(body["member_id"])
  if (member === null) throw unprocessable("member_id is required")
  if (!context.state.members.some((m) => m.id === member)) throw unprocessable(`member ${member} not found`)
  return member
}

/** Move and disqualify answer 200 with a blank text body. */
const done = (ctx: Ctx): void => {
  ctx.res.writeHead(200, { "content-type": "text/plain; charset=utf-8", "content-length": "1" })
  ctx.res.end(ctx.method === "HEAD" ? undefined : " ")
}

export const candidateRoutes = (context: WorkableContext): ReadonlyArray<Route> => [
  context.route("GET", "/candidates", (ctx) => listCandidates(context, ctx, ctx.query.get("shortcode") || null)),
  context.route("GET", "/jobs/:shortcode/candidates", (ctx, params) => listCandidates(context, ctx, context.job(params["shortcode"]).shortcode)),
  context.route("GET", "/candidates/:id", (ctx, params) => sendJson(ctx.res, 200, { candidate: context.views().candidateDetail(context.candidate(params["id"])) })),

  // POST /jobs/:shortcode/candidates: {"sourced": bool (default true), "candidate": {...}};
  // `stage` (query) puts it in another stage than sourced / applied
  context.route("POST", "/jobs/:shortcode/candidates", (ctx, params) => {
    const job = context.job(params["shortcode"])
    const body = record(ctx.body())
    const input = record(body["candidate"])
    const name = text(input["name"])
    const firstname = text(input["firstname"]) ?? (name === null ? null : name.split(/\s+/)[0]!)
    const lastname = text(input["lastname"]) ?? (name === null ? null : name.split(/\s+/).slice(1).join(" "))
    if (firstname === null || (lastname === null && name === null)) throw unprocessable("name, or firstname and lastname, is required")
    const email = text(input["email"])
    if (email === null) throw unprocessable("email is required")
    const sourced = body["sourced"] !== false
    const stage = ctx.query.get("stage") || (sourced ? "sourced" : "applied")
    if (context.views().stageOf(stage) === undefined) throw unprocessable(`stage ${stage} not found`)
    const tags = Array.isArray(input["tags"]) ? input["tags"].filter((tag): tag is string => typeof tag === "string") : []
    const now = context.clock.tick()
    const state = context.state
    const candidate: WorkableCandidate = {
      id: candidateId(state.next.candidate++),
      firstname,
      lastname: lastname ?? "",
      email,
      headline: text(input["headline"]),
      phone: text(input["phone"]),
      address: text(input["address"]),
      summary: text(input["summary"]),
      cover_letter: text(input["cover_letter"]),
      shortcode: job.shortcode,
      stage,
      disqualified: false,
      withdrew: false,
      disqualifiedAt: null,
      disqualification_reason: null,
      sourced,
      domain: text(input["domain"]),
      uploader_id: null,
      tags,
      createdAt: now,
      updatedAt: now,
      hiredAt: stage === "hired" ? now : null
    }
    state.candidates.push(candidate)
    sendJson(ctx.res, 201, { candidate: context.views().candidateDetail(candidate) })
  }),

  // POST /candidates/:id/copy {"member_id", "target_job_shortcode", "target_stage"}: "copies a candidate to another
  // job", a new candidate of the same person on that job, answered 201 {"candidate": {"id", "url"}}. The
  // documentation names no stage for a copy without target_stage: this look-alike keeps the candidate's stage.
  context.route("POST", "/candidates/:id/copy", (ctx, params) => {
    const source = context.candidate(params["id"])
    const body = record(ctx.body())
    actingMember(context, body)
    const shortcode = text(body["target_job_shortcode"])
    if (shortcode === null) throw unprocessable("target_job_shortcode is required")
    const job = context.job(shortcode)
    const stage = text(body["target_stage"]) ?? source.stage
    if (context.views().stageOf(stage) === undefined) throw unprocessable(`stage ${stage} not found`)
    const now = context.clock.tick()
    const state = context.state
    const copy: WorkableCandidate = {
      ...source,
      id: candidateId(state.next.candidate++),
      shortcode: job.shortcode,
      stage,
      disqualified: false,
      withdrew: false,
      disqualifiedAt: null,
      disqualification_reason: null,
      tags: [...source.tags],
      createdAt: now,
      updatedAt: now,
      hiredAt: stage === "hired" ? now : null
    }
    state.candidates.push(copy)
    sendJson(ctx.res, 201, { candidate: { id: copy.id, url: `${ctx.origin}/spi/v3/candidates/${copy.id}` } })
  }),

  // POST /candidates/:id/move {"member_id", "target_stage"}
  context.route("POST", "/candidates/:id/move", (ctx, params) => {
    const candidate = context.candidate(params["id"])
    const body = record(ctx.body())
    actingMember(context, body)
    const target = text(body["target_stage"])
    if (target === null || context.views().stageOf(target) === undefined) throw unprocessable(`stage ${target ?? ""} not found`)
    const now = context.clock.tick()
    candidate.stage = target
    candidate.updatedAt = now
    if (target === "hired" && candidate.hiredAt === null) candidate.hiredAt = now
    done(ctx)
  }),

  // POST /candidates/:id/disqualify {"member_id", "disqualify_reason_id", "disqualify_note",
  // "withdrew", "disqualification_reason" (deprecated)}
  context.route("POST", "/candidates/:id/disqualify", (ctx, params) => {
    const candidate = context.candidate(params["id"])
    const body = record(ctx.body())
    actingMember(context, body)
    const reasonId = text(body["disqualify_reason_id"])
    const reason = reasonId === null ? undefined : context.state.disqualificationReasons.find((r) => r.id === reasonId)
    if (reasonId !== null && reason === undefined) throw unprocessable(`disqualification reason ${reasonId} not found`)
    const now = context.clock.tick()
    candidate.disqualified = true
    candidate.withdrew = reason?.candidate_withdrew ?? body["withdrew"] === true
    candidate.disqualification_reason = reason?.description ?? text(body["disqualification_reason"])
    candidate.disqualifiedAt = now
    candidate.updatedAt = now
    done(ctx)
  })
]
