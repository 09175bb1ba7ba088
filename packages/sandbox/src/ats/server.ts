import type { Clock } from "../clock.js"
import type { FileStore } from "../files.js"
import { basicAuth, HttpError, paginate, route, sendBytes, sendChunks, sendJson, type Ctx, type Route } from "../http.js"
import type {
  ActivityRec,
  ActivityType,
  ApplicationRec,
  AtsState,
  CandidateRec,
  JobRec,
  NoteRec,
  StageRec
} from "./data.js"
import { fullName, usDate } from "./data.js"
import { APPLICATION_FIELDS, AtsViews, CANDIDATE_FIELDS } from "./views.js"

/** The ATS routes, modeled on the Greenhouse Harvest API v1. */

export interface AtsOptions {
  readonly apiKey: string
  /** Writes need an `On-Behalf-Of: {user id}` header, as in Greenhouse (default true). */
  readonly requireOnBehalfOf: boolean
  readonly state: () => AtsState
  readonly files: () => FileStore
  readonly clock: Clock
}

const ACCEPTED_CONTENT_TYPES = new Set([
  "application/atom+xml", "application/javascript", "application/json", "application/msgpack", "application/msword",
  "application/pdf", "application/rss+xml", "application/vnd.ms-excel",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "application/vnd.ms-powerpoint",
  "application/xml", "application/x-www-form-urlencoded", "application/x-yaml", "application/zip", "multipart/form-data",
  "image/bmp", "image/gif", "image/jpeg", "image/png", "image/tiff", "text/calendar", "text/css", "text/csv", "text/html",
  "text/javascript", "text/plain", "text/vcard", "video/mpeg"
])
const APPLICATION_ATTACHMENT_TYPES = ["resume", "cover_letter", "other", "take_home_test", "offer_letter", "signed_offer_letter"]
const CANDIDATE_ATTACHMENT_TYPES = ["resume", "cover_letter", "admin_only", ...APPLICATION_ATTACHMENT_TYPES]
const VISIBILITIES = ["admin_only", "private", "public"] as const

const validation = (message: string, field: string): HttpError => new HttpError(422, { message: "Validation error", errors: [{ message, field }] })
const stateError = (message: string): HttpError => new HttpError(422, { errors: [{ message }] })
const notFound = (): HttpError => new HttpError(404, { message: "Resource not found" })

type Body = Record<string, unknown>

const bodyObject = (ctx: Ctx): Body => {
  const b = ctx.body()
  if (typeof b !== "object" || b === null || Array.isArray(b)) throw validation("Request body must be a JSON object", "body")
  return b as Body
}

const intParam = (value: unknown, field: string, required: boolean): number | undefined => {
  if (value === undefined || value === null || value === "") {
    if (required) throw validation(`${field} is required`, field)
    return undefined
  }
  const n = typeof value === "string" ? Number(value) : value
  if (typeof n !== "number" || !Number.isInteger(n)) throw validation(`${field} must be an integer`, field)
  return n
}

const strParam = (value: unknown, field: string, required: boolean): string | undefined => {
  if (value === undefined || value === null) {
    if (required) throw validation(`${field} is required`, field)
    return undefined
  }
  if (typeof value !== "string") throw validation(`${field} must be a string`, field)
  if (required && value.trim() === "") throw validation(`${field} can't be blank`, field)
  return value
}

const idOf = (raw: string | undefined): number => {
  const n = Number(raw)
  if (!Number.isInteger(n)) throw notFound()
  return n
}

/** `*_after` (at or after) / `*_before` (strictly before) timestamp filters. */
const timeFilter = <T>(ctx: Ctx, items: Array<T>, spec: Record<string, (x: T) => number | null>): Array<T> => {
  let out = items
  for (const [param, get] of Object.entries(spec)) {
    const raw = ctx.query.get(param)
    if (raw === null) continue
    const at = Date.parse(raw)
    if (Number.isNaN(at)) throw validation(`${param} must be an ISO-8601 timestamp`, param)
    const after = param.endsWith("_after")
    out = out.filter((x) => {
      const v = get(x)
      return v !== null && (after ? v >= at : v < at)
    })
  }
  return out
}

const contactList = (value: unknown, field: string, withType: boolean): Array<{ value: string; type: string }> | undefined => {
  if (value === undefined) return undefined
  if (!Array.isArray(value)) throw validation(`${field} must be an array`, field)
  return value.map((item, i) => {
    if (typeof item !== "object" || item === null || typeof (item as Body)["value"] !== "string") throw validation(`${field}[${i}].value is required`, field)
    const type = (item as Body)["type"]
    return withType ? { value: (item as Body)["value"] as string, type: typeof type === "string" ? type : "other" } : { value: (item as Body)["value"] as string, type: "" }
  })
}

export const atsRoutes = (o: AtsOptions): ReadonlyArray<Route> => {
  const S = (): AtsState => o.state()
  const V = (ctx: Ctx): AtsViews => new AtsViews(S(), ctx.origin)
  const page = <T>(ctx: Ctx, items: Array<T>): Array<T> => paginate(ctx, items, { invalid: validation })

  const authed =
    (handler: (ctx: Ctx, p: Record<string, string>) => void | Promise<void>) =>
    (ctx: Ctx, p: Record<string, string>): void | Promise<void> => {
      const creds = basicAuth(ctx.req)
      if (creds === undefined || creds.user !== o.apiKey || creds.password !== "") {
        throw new HttpError(401, { message: "Invalid Basic Auth credentials" }, { "www-authenticate": 'Basic realm="Harvest API"' })
      }
      ctx.res.setHeader("x-ratelimit-limit", "50")
      ctx.res.setHeader("x-ratelimit-remaining", "49")
      return handler(ctx, p)
    }

  /** The acting user of a write: the On-Behalf-Of header (required unless configured off). */
  const actor = (ctx: Ctx): number | null => {
    const raw = ctx.req.headers["on-behalf-of"]
    const value = Array.isArray(raw) ? raw[0] : raw
    if (value === undefined || value.trim() === "") {
      if (o.requireOnBehalfOf) throw validation("On-Behalf-Of header is required (a Greenhouse user id)", "On-Behalf-Of")
      return null
    }
    const id = Number(value)
    if (!Number.isInteger(id) || !S().users.has(id)) throw validation(`On-Behalf-Of user ${value} was not found`, "On-Behalf-Of")
    return id
  }

  const userName = (id: number | null): string => {
    const u = id === null ? undefined : S().users.get(id)
    return u === undefined ? "the API" : fullName(u)
  }

  const getApp = (raw: string | undefined): ApplicationRec => {
    const a = S().applications.get(idOf(raw))
    if (a === undefined) throw notFound()
    return a
  }
  const getCandidate = (raw: string | undefined): CandidateRec => {
    const c = S().candidates.get(idOf(raw))
    if (c === undefined) throw notFound()
    return c
  }
  const getJob = (raw: string | undefined): JobRec => {
    const j = S().jobs.get(idOf(raw))
    if (j === undefined) throw notFound()
    return j
  }

  /** Stamps a change: the application's and candidate's activity times move to `at`. */
  const touch = (candidateId: number, applicationId: number | null, at: number): void => {
    const s = S()
    const c = s.candidates.get(candidateId)
    if (c !== undefined) {
      c.updated_at = at
      c.last_activity = at
    }
    if (applicationId !== null) {
      const a = s.applications.get(applicationId)
      if (a !== undefined) a.last_activity_at = at
    }
  }

  const record = (
    at: number,
    candidateId: number,
    applicationId: number | null,
    type: ActivityType,
    body: string,
    userId: number | null,
    changes: ActivityRec["changes"] = {}
  ): void => {
    const s = S()
    const id = s.next.activity++
    s.activities.set(id, { id, candidate_id: candidateId, application_id: applicationId, created_at: at, subject: null, body, user_id: userId, type, changes })
    touch(candidateId, applicationId, at)
  }

  const stageRef = (st: StageRec | undefined): { id: number; name: string } | null => (st === undefined ? null : { id: st.id, name: st.name })

  interface ParsedAttachment {
    readonly filename: string
    readonly type: string
    readonly contentType: string
    readonly bytes: Buffer
  }

  /** Validates and decodes an uploaded attachment (no writes). */
  const parseAttachment = (input: unknown, allowedTypes: ReadonlyArray<string>): ParsedAttachment => {
    if (typeof input !== "object" || input === null) throw validation("attachment must be an object", "attachments")
    const b = input as Body
    const filename = strParam(b["filename"], "filename", true) as string
    const type = strParam(b["type"], "type", true) as string
    if (!allowedTypes.includes(type)) throw validation(`type must be one of: ${allowedTypes.join(", ")}`, "type")
    if (b["url"] !== undefined && b["content"] === undefined) {
      throw validation("url uploads are not supported by the sandbox (no outbound network); send base64 content", "url")
    }
    const content = strParam(b["content"], "content", true) as string
    const contentType = strParam(b["content_type"], "content_type", true) as string
    if (!ACCEPTED_CONTENT_TYPES.has(contentType.split(";")[0]?.trim().toLowerCase() ?? "")) throw validation(`content_type ${contentType} is not accepted`, "content_type")
    const compact = content.replace(/\s+/g, "")
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) throw validation("content must be base64", "content")
    return { filename, type, contentType, bytes: Buffer.from(compact, "base64") }
  }

  /** Stores a parsed attachment; returns the API answer. */
  const saveAttachment = (ctx: Ctx, att: ParsedAttachment, candidate: CandidateRec, applicationId: number | null, at: number, userId: number | null): Record<string, unknown> => {
    const s = S()
    const fileId = s.next.file++
    o.files().addBytes(fileId, att.filename, att.contentType, att.bytes)
    s.attachments.push({ file_id: fileId, candidate_id: candidate.id, application_id: applicationId, filename: att.filename, type: att.type, content_type: att.contentType, created_at: at })
    record(at, candidate.id, applicationId, "attachment_added", `${att.filename} was added as ${att.type.replace(/_/g, " ")}`, userId, { attachments: { from: null, to: { filename: att.filename, type: att.type } } })
    return { filename: att.filename, url: `${ctx.origin}/files/${fileId}`, type: att.type, content_type: att.contentType }
  }

  interface ParsedApplication {
    readonly prospect: boolean
    readonly job: JobRec | undefined
    readonly sourceId: number | undefined
    readonly initialStage: number | undefined
    readonly referrer: { userId: number | null; raw: { type: string; value: string } } | undefined
    readonly prospectOwnerId: number | undefined
    readonly attachments: ReadonlyArray<ParsedAttachment>
  }

  /** Validates a Greenhouse application body (candidate or prospect application); no writes. */
  const parseApplication = (b: Body, prefix = ""): ParsedApplication => {
    if (typeof b !== "object" || b === null || Array.isArray(b)) throw validation(`${prefix || "application"} must be an object`, prefix || "body")
    const s = S()
    const prospect = b["prospect"] === true || b["prospect"] === "true"
    const jobIdsRaw = prospect ? (b["job_ids"] ?? (b["job_id"] !== undefined ? [b["job_id"]] : [])) : [b["job_id"]]
    if (!Array.isArray(jobIdsRaw)) throw validation("job_ids must be an array", `${prefix}job_ids`)
    const jobIds = jobIdsRaw.map((j) => intParam(j, `${prefix}${prospect ? "job_ids" : "job_id"}`, !prospect) as number)
    for (const j of jobIds) if (!s.jobs.has(j)) throw validation(`Job ${j} was not found`, `${prefix}${prospect ? "job_ids" : "job_id"}`)
    const job = jobIds[0] === undefined ? undefined : (s.jobs.get(jobIds[0]) as JobRec)
    const sourceId = intParam(b["source_id"], `${prefix}source_id`, false)
    if (sourceId !== undefined && !s.sources.has(sourceId)) throw validation(`Source ${sourceId} was not found`, `${prefix}source_id`)
    const initialStage = intParam(b["initial_stage_id"], `${prefix}initial_stage_id`, false)
    if (initialStage !== undefined && (prospect || job === undefined || !job.stage_ids.includes(initialStage))) throw validation("initial_stage_id must be a stage of the job", `${prefix}initial_stage_id`)
    const prospectOwnerId = intParam(b["prospect_owner_id"], `${prefix}prospect_owner_id`, false)
    if (prospectOwnerId !== undefined && !s.users.has(prospectOwnerId)) throw validation(`User ${prospectOwnerId} was not found`, `${prefix}prospect_owner_id`)
    const attachmentsRaw = b["attachments"]
    if (attachmentsRaw !== undefined && !Array.isArray(attachmentsRaw)) throw validation("attachments must be an array", `${prefix}attachments`)
    const attachments = ((attachmentsRaw as Array<unknown> | undefined) ?? []).map((a) => parseAttachment(a, APPLICATION_ATTACHMENT_TYPES))
    return { prospect, job, sourceId, initialStage, referrer: parseReferrer(b["referrer"]), prospectOwnerId, attachments }
  }

  /** Creates a (validated) application for a candidate. */
  const createApplication = (ctx: Ctx, candidate: CandidateRec, parsed: ParsedApplication, at: number, userId: number | null): ApplicationRec => {
    const s = S()
    const { prospect, job, sourceId, initialStage, referrer } = parsed
    const id = s.next.application++
    const app: ApplicationRec = {
      id,
      candidate_id: candidate.id,
      prospect,
      applied_at: at,
      rejected_at: null,
      last_activity_at: at,
      location: null,
      source_id: sourceId ?? null,
      credited_to_id: referrer?.userId ?? null,
      referrer: referrer?.raw ?? null,
      rejection_reason_id: null,
      rejection_details: null,
      job_id: job?.id ?? null,
      job_post_id: null,
      status: "active",
      stage_id: prospect || job === undefined ? null : (initialStage ?? (job.stage_ids[0] as number)),
      answers: [],
      custom_fields: {},
      prospect_pool: null,
      prospect_stage: null,
      prospect_owner_id: prospect ? (parsed.prospectOwnerId ?? userId) : null
    }
    s.applications.set(id, app)
    candidate.application_ids.push(id)
    record(at, candidate.id, id, "application_created", prospect ? `${fullName(candidate)} was added as a prospect by ${userName(userId)}` : `${fullName(candidate)} was added to ${job?.name ?? "a job"} by ${userName(userId)}`, userId, { status: { from: null, to: "active" } })
    for (const att of parsed.attachments) saveAttachment(ctx, att, candidate, id, at, userId)
    return app
  }

  const parseReferrer = (value: unknown): { userId: number | null; raw: { type: string; value: string } } | undefined => {
    if (value === undefined || value === null) return undefined
    if (typeof value !== "object") throw validation("referrer must be an object", "referrer")
    const r = value as Body
    const type = strParam(r["type"], "referrer.type", true) as string
    const v = r["value"]
    if (v === undefined || v === null) throw validation("referrer.value is required", "referrer.value")
    const s = S()
    if (type === "id") {
      const uid = Number(v)
      if (!s.users.has(uid)) throw validation(`User ${String(v)} was not found`, "referrer.value")
      return { userId: uid, raw: { type, value: String(v) } }
    }
    if (type === "email") {
      const u = [...s.users.values()].find((x) => x.email.toLowerCase() === String(v).toLowerCase())
      if (u === undefined) throw validation(`No user with email ${String(v)}`, "referrer.value")
      return { userId: u.id, raw: { type, value: String(v) } }
    }
    if (type === "outside") return { userId: null, raw: { type, value: String(v) } }
    throw validation("referrer.type must be one of: id, email, outside", "referrer.type")
  }

  const applyCustomFields = (target: Record<string, unknown>, value: unknown, meta: Record<string, { name: string; type: string }>): Record<string, { from: unknown; to: unknown }> => {
    const changes: Record<string, { from: unknown; to: unknown }> = {}
    if (value === undefined) return changes
    if (!Array.isArray(value)) throw validation("custom_fields must be an array", "custom_fields")
    for (const item of value) {
      if (typeof item !== "object" || item === null) throw validation("custom_fields entries must be objects", "custom_fields")
      const f = item as Body
      const key = typeof f["name_key"] === "string" ? f["name_key"] : undefined
      if (key === undefined || meta[key] === undefined) throw validation(`Unknown custom field ${String(f["name_key"] ?? f["id"])}; known name_keys: ${Object.keys(meta).join(", ")}`, "custom_fields")
      const next = f["delete_value"] === "true" || f["delete_value"] === true ? null : f["value"]
      changes[`custom_fields.${key}`] = { from: target[key] ?? null, to: next ?? null }
      target[key] = next ?? null
    }
    return changes
  }

  const currentStage = (a: ApplicationRec): StageRec | undefined => (a.stage_id === null ? undefined : S().stages.get(a.stage_id))

  const requireActive = (a: ApplicationRec): void => {
    if (a.status !== "active") throw stateError(`Application must be 'active', is currently '${a.status}'`)
  }

  const moveTo = (a: ApplicationRec, to: StageRec, at: number, userId: number | null): void => {
    const from = currentStage(a)
    const s = S()
    const c = s.candidates.get(a.candidate_id) as CandidateRec
    const job = s.jobs.get(a.job_id as number) as JobRec
    a.stage_id = to.id
    record(at, a.candidate_id, a.id, "stage_change", `${fullName(c)} was moved into ${to.name} for ${job.name} on ${usDate(at)} by ${userName(userId)}`, userId, {
      current_stage: { from: stageRef(from), to: stageRef(to) }
    })
  }

  const candidateList = (ctx: Ctx): Array<CandidateRec> => {
    const s = S()
    let items = [...s.candidates.values()]
    items = timeFilter(ctx, items, {
      created_after: (c) => c.created_at,
      created_before: (c) => c.created_at,
      updated_after: (c) => c.updated_at,
      updated_before: (c) => c.updated_at
    })
    const jobId = ctx.query.get("job_id")
    if (jobId !== null) items = items.filter((c) => c.application_ids.some((id) => String(s.applications.get(id)?.job_id) === jobId))
    const email = ctx.query.get("email")
    const ids = ctx.query.get("candidate_ids")
    if (email !== null) items = items.filter((c) => c.email_addresses.some((e) => e.value.toLowerCase() === email.toLowerCase()))
    else if (ids !== null) {
      const wanted = new Set(ids.split(",").map((x) => x.trim()).filter((x) => x.length > 0).slice(0, 50))
      items = items.filter((c) => wanted.has(String(c.id)))
    }
    return items
  }

  const noteFor = (candidate: CandidateRec, raw: string | undefined): NoteRec => {
    const n = S().notes.get(idOf(raw))
    if (n === undefined || n.candidate_id !== candidate.id) throw notFound()
    return n
  }

  const createNote = (ctx: Ctx, candidate: CandidateRec, applicationId: number | null): NoteRec => {
    const userIdHeader = actor(ctx)
    const b = bodyObject(ctx)
    const s = S()
    const uid = intParam(b["user_id"], "user_id", userIdHeader === null) ?? (userIdHeader as number)
    if (!s.users.has(uid)) throw validation(`User ${uid} was not found`, "user_id")
    const body = strParam(b["body"], "body", true) as string
    const visibility = strParam(b["visibility"], "visibility", true) as string
    if (!(VISIBILITIES as ReadonlyArray<string>).includes(visibility)) throw validation(`visibility must be one of: ${VISIBILITIES.join(", ")}`, "visibility")
    let appId = applicationId
    if (appId === null && b["application_id"] !== undefined) {
      appId = intParam(b["application_id"], "application_id", true) as number
      if (!candidate.application_ids.includes(appId)) throw validation("application_id must be one of the candidate's applications", "application_id")
    }
    const at = o.clock.tick()
    const id = s.next.note++
    const note: NoteRec = { id, candidate_id: candidate.id, application_id: appId, created_at: at, updated_at: at, body, user_id: uid, visibility: visibility as NoteRec["visibility"] }
    s.notes.set(id, note)
    touch(candidate.id, appId, at)
    return note
  }

  const patchNote = (ctx: Ctx, note: NoteRec): NoteRec => {
    const userId = actor(ctx)
    const b = bodyObject(ctx)
    const body = strParam(b["body"], "body", false)
    const visibility = strParam(b["visibility"], "visibility", false)
    if (visibility !== undefined && !(VISIBILITIES as ReadonlyArray<string>).includes(visibility)) throw validation(`visibility must be one of: ${VISIBILITIES.join(", ")}`, "visibility")
    if (body === undefined && visibility === undefined) throw validation("Provide body and/or visibility", "body")
    const at = o.clock.tick()
    const changes: ActivityRec["changes"] = {}
    if (body !== undefined && body !== note.body) {
      changes["body"] = { from: note.body, to: body }
      note.body = body
    }
    if (visibility !== undefined && visibility !== note.visibility) {
      changes["visibility"] = { from: note.visibility, to: visibility }
      note.visibility = visibility as NoteRec["visibility"]
    }
    note.updated_at = at
    record(at, note.candidate_id, note.application_id, "note_updated", `Note ${note.id} was edited by ${userName(userId)}`, userId, changes)
    return note
  }

  const r = (method: string, pattern: string, handler: (ctx: Ctx, p: Record<string, string>) => void | Promise<void>): Route => route(method, pattern, authed(handler))

  return [
    // ---- files (signed-URL style downloads: no auth, like Greenhouse's S3 links) ----
    route("GET", "/files/:id", (ctx, p) => {
      const files = o.files()
      const id = idOf(p["id"])
      const headersOf = (file: { readonly filename: string; readonly contentType: string }) => ({
        "content-type": file.contentType,
        // any name, as providers send it (RFC 6266): an ASCII fallback, the UTF-8 name in filename*
        "content-disposition": `attachment; filename="${file.filename.replace(/[^\x20-\x7e]|"/g, "_")}"; filename*=UTF-8''${
          encodeURIComponent(file.filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
        }`,
        "cache-control": "private, max-age=604800"
      })
      const large = files.generated(id)
      if (large !== undefined) {
        large.downloads.open++
        ctx.res.once("close", () => large.downloads.open--)
        sendChunks(ctx.res, 200, large.chunks(), {
          ...headersOf(large),
          ...(large.contentLength ? { "content-length": String(large.size) } : {})
        })
        return
      }
      const file = files.get(id)
      const bytes = files.bytes(id)
      if (file === undefined || bytes === undefined) throw new HttpError(404, "Not Found")
      sendBytes(ctx.res, 200, bytes, headersOf(file))
    }),

    // ---- applications ----
    r("GET", "/v1/applications", (ctx) => {
      const s = S()
      let items = [...s.applications.values()]
      items = timeFilter(ctx, items, {
        created_after: (a) => a.applied_at,
        created_before: (a) => a.applied_at,
        last_activity_after: (a) => a.last_activity_at,
        updated_after: (a) => a.last_activity_at,
        updated_before: (a) => a.last_activity_at
      })
      const jobId = ctx.query.get("job_id")
      if (jobId !== null) items = items.filter((a) => String(a.job_id) === jobId)
      const status = ctx.query.get("status")
      if (status !== null) items = items.filter((a) => a.status === status)
      const v = V(ctx)
      sendJson(ctx.res, 200, page(ctx, items).map((a) => v.application(a)))
    }),
    r("GET", "/v1/applications/:id", (ctx, p) => sendJson(ctx.res, 200, V(ctx).application(getApp(p["id"])))),
    r("PATCH", "/v1/applications/:id", (ctx, p) => {
      const userId = actor(ctx)
      const a = getApp(p["id"])
      if (a.status === "converted") throw stateError("Application must be 'active', 'rejected' or 'hired', is currently 'converted'")
      const b = bodyObject(ctx)
      const s = S()
      const changes: ActivityRec["changes"] = {}
      const sourceId = intParam(b["source_id"], "source_id", false)
      if (sourceId !== undefined) {
        if (!s.sources.has(sourceId)) throw validation(`Source ${sourceId} was not found`, "source_id")
        changes["source_id"] = { from: a.source_id, to: sourceId }
      }
      const referrer = parseReferrer(b["referrer"])
      const appFields = { ...a.custom_fields }
      Object.assign(changes, applyCustomFields(appFields, b["custom_fields"], APPLICATION_FIELDS))
      if (b["rejection_details"] !== undefined && a.status !== "rejected") throw stateError("Rejection details can't be updated if the application has not been rejected")
      // All checks passed: apply.
      if (sourceId !== undefined) a.source_id = sourceId
      if (referrer !== undefined) {
        changes["referrer"] = { from: a.referrer, to: referrer.raw }
        a.referrer = referrer.raw
        if (referrer.userId !== null) {
          changes["credited_to"] = { from: a.credited_to_id, to: referrer.userId }
          a.credited_to_id = referrer.userId
        }
      }
      a.custom_fields = appFields
      const at = o.clock.tick()
      record(at, a.candidate_id, a.id, "application_updated", `Application ${a.id} was updated by ${userName(userId)}: ${Object.keys(changes).join(", ") || "no changes"}`, userId, changes)
      sendJson(ctx.res, 200, V(ctx).application(a))
    }),
    r("DELETE", "/v1/applications/:id", (ctx, p) => {
      actor(ctx)
      const a = getApp(p["id"])
      if (a.prospect) throw stateError("Prospect applications cannot be deleted")
      const s = S()
      s.applications.delete(a.id)
      const c = s.candidates.get(a.candidate_id)
      if (c !== undefined) {
        c.application_ids = c.application_ids.filter((x) => x !== a.id)
        const at = o.clock.tick()
        c.updated_at = at
        c.last_activity = at
      }
      for (const [k, x] of s.offers) if (x.application_id === a.id) s.offers.delete(k)
      for (const [k, x] of s.scorecards) if (x.application_id === a.id) s.scorecards.delete(k)
      for (const [k, x] of s.interviews) if (x.application_id === a.id) s.interviews.delete(k)
      sendJson(ctx.res, 200, { message: `Application ${a.id} has been deleted.` })
    }),
    r("POST", "/v1/applications/:id/move", (ctx, p) => {
      const userId = actor(ctx)
      const a = getApp(p["id"])
      const b = bodyObject(ctx)
      const fromId = intParam(b["from_stage_id"], "from_stage_id", true) as number
      const toId = intParam(b["to_stage_id"], "to_stage_id", true) as number
      if (a.prospect) throw stateError("Prospect applications can't be moved between stages")
      requireActive(a)
      if (a.stage_id !== fromId) throw stateError(`Application is not in stage ${fromId} (current stage is ${a.stage_id})`)
      const job = S().jobs.get(a.job_id as number) as JobRec
      if (!job.stage_ids.includes(toId)) throw validation(`Stage ${toId} does not belong to job ${job.id}`, "to_stage_id")
      moveTo(a, S().stages.get(toId) as StageRec, o.clock.tick(), userId)
      sendJson(ctx.res, 200, V(ctx).application(a))
    }),
    r("POST", "/v1/applications/:id/advance", (ctx, p) => {
      const userId = actor(ctx)
      const a = getApp(p["id"])
      const b = bodyObject(ctx)
      const fromId = intParam(b["from_stage_id"], "from_stage_id", true) as number
      if (a.prospect) throw stateError("Prospect applications can't be advanced")
      requireActive(a)
      if (a.stage_id !== fromId) throw stateError(`Application is not in stage ${fromId} (current stage is ${a.stage_id})`)
      const job = S().jobs.get(a.job_id as number) as JobRec
      const idx = job.stage_ids.indexOf(fromId)
      const nextId = job.stage_ids[idx + 1]
      if (nextId === undefined) throw stateError("Application is already in the last stage")
      moveTo(a, S().stages.get(nextId) as StageRec, o.clock.tick(), userId)
      sendJson(ctx.res, 200, V(ctx).application(a))
    }),
    r("POST", "/v1/applications/:id/reject", (ctx, p) => {
      const userId = actor(ctx)
      const a = getApp(p["id"])
      const b = bodyObject(ctx)
      const reasonId = intParam(b["rejection_reason_id"], "rejection_reason_id", false)
      const reason = reasonId === undefined ? undefined : S().reasons.get(reasonId)
      if (reasonId !== undefined && reason === undefined) throw validation(`Rejection reason ${reasonId} was not found`, "rejection_reason_id")
      const notes = strParam(b["notes"], "notes", false)
      requireActive(a)
      const at = o.clock.tick()
      const c = S().candidates.get(a.candidate_id) as CandidateRec
      const job = a.job_id === null ? undefined : S().jobs.get(a.job_id)
      a.status = "rejected"
      a.rejected_at = at
      a.rejection_reason_id = reasonId ?? null
      a.rejection_details = { custom_fields: {}, keyed_custom_fields: {} }
      record(at, a.candidate_id, a.id, "rejected", `${fullName(c)} was rejected from ${job?.name ?? "a prospect pool"} by ${userName(userId)}${reason !== undefined ? `\n\nReason: ${reason.name}` : ""}${notes !== undefined ? `\n\n${notes}` : ""}`, userId, {
        status: { from: "active", to: "rejected" },
        rejection_reason: { from: null, to: reason === undefined ? null : { id: reason.id, name: reason.name } }
      })
      sendJson(ctx.res, 200, V(ctx).application(a))
    }),
    r("PATCH", "/v1/applications/:id/reject", (ctx, p) => {
      const userId = actor(ctx)
      const a = getApp(p["id"])
      const b = bodyObject(ctx)
      const reasonId = intParam(b["rejection_reason_id"], "rejection_reason_id", true) as number
      const reason = S().reasons.get(reasonId)
      if (reason === undefined) throw validation(`Rejection reason ${reasonId} was not found`, "rejection_reason_id")
      if (a.status !== "rejected") throw stateError(`Application must be 'rejected', is currently '${a.status}'`)
      const old = a.rejection_reason_id
      a.rejection_reason_id = reasonId
      record(o.clock.tick(), a.candidate_id, a.id, "application_updated", `Rejection reason changed to ${reason.name} by ${userName(userId)}`, userId, { rejection_reason_id: { from: old, to: reasonId } })
      sendJson(ctx.res, 200, { id: a.id, message: `Rejection reason updated to ${reasonId} (${reason.name})`, success: true })
    }),
    r("POST", "/v1/applications/:id/unreject", (ctx, p) => {
      const userId = actor(ctx)
      const a = getApp(p["id"])
      if (a.status !== "rejected") throw stateError(`Application must be 'rejected', is currently '${a.status}'`)
      const at = o.clock.tick()
      a.status = "active"
      a.rejected_at = null
      a.rejection_reason_id = null
      a.rejection_details = null
      record(at, a.candidate_id, a.id, "unrejected", `Application ${a.id} was unrejected by ${userName(userId)}`, userId, { status: { from: "rejected", to: "active" } })
      sendJson(ctx.res, 200, V(ctx).application(a))
    }),
    r("POST", "/v1/applications/:id/hire", (ctx, p) => {
      const userId = actor(ctx)
      const a = getApp(p["id"])
      const b = bodyObject(ctx)
      const startDate = strParam(b["start_date"], "start_date", false)
      if (startDate !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(startDate)) throw validation("start_date must be YYYY-MM-DD", "start_date")
      if (a.prospect) throw stateError("Prospect applications can't be hired")
      requireActive(a)
      const at = o.clock.tick()
      const from = currentStage(a)
      const s = S()
      for (const offer of s.offers.values()) {
        if (offer.application_id === a.id && offer.status === "unresolved") {
          offer.status = "accepted"
          offer.resolved_at = at
          offer.updated_at = at
          if (startDate !== undefined) offer.starts_at = startDate
        }
      }
      a.status = "hired"
      a.stage_id = null
      const c = s.candidates.get(a.candidate_id) as CandidateRec
      record(at, a.candidate_id, a.id, "hired", `${fullName(c)} was hired into ${s.jobs.get(a.job_id as number)?.name ?? "a job"} by ${userName(userId)}`, userId, {
        status: { from: "active", to: "hired" },
        current_stage: { from: stageRef(from), to: null }
      })
      sendJson(ctx.res, 200, V(ctx).application(a))
    }),
    r("POST", "/v1/applications/:id/attachments", (ctx, p) => {
      const userId = actor(ctx)
      const a = getApp(p["id"])
      const c = S().candidates.get(a.candidate_id) as CandidateRec
      const att = parseAttachment(bodyObject(ctx), APPLICATION_ATTACHMENT_TYPES)
      sendJson(ctx.res, 201, saveAttachment(ctx, att, c, a.id, o.clock.tick(), userId))
    }),
    r("GET", "/v1/applications/:id/offers", (ctx, p) => {
      const a = getApp(p["id"])
      const v = V(ctx)
      sendJson(ctx.res, 200, page(ctx, [...S().offers.values()].filter((x) => x.application_id === a.id)).map((x) => v.offer(x)))
    }),
    r("GET", "/v1/applications/:id/offers/current_offer", (ctx, p) => {
      const a = getApp(p["id"])
      const current = [...S().offers.values()].filter((x) => x.application_id === a.id && x.status !== "deprecated").pop()
      if (current === undefined) throw notFound()
      sendJson(ctx.res, 200, V(ctx).offer(current))
    }),
    r("GET", "/v1/applications/:id/scorecards", (ctx, p) => {
      const a = getApp(p["id"])
      const v = V(ctx)
      sendJson(ctx.res, 200, [...S().scorecards.values()].filter((x) => x.application_id === a.id).map((x) => v.scorecard(x)))
    }),
    r("GET", "/v1/applications/:id/scheduled_interviews", (ctx, p) => {
      const a = getApp(p["id"])
      const v = V(ctx)
      let items = [...S().interviews.values()].filter((x) => x.application_id === a.id)
      items = timeFilter(ctx, items, { created_after: (x) => x.created_at, created_before: (x) => x.created_at, updated_after: (x) => x.updated_at, updated_before: (x) => x.updated_at })
      sendJson(ctx.res, 200, page(ctx, items).map((x) => v.interview(x)))
    }),
    r("GET", "/v1/applications/:id/activity_feed", (ctx, p) => {
      const a = getApp(p["id"])
      sendJson(ctx.res, 200, V(ctx).feed((x) => x.application_id === a.id))
    }),
    r("GET", "/v1/applications/:id/changes", (ctx, p) => {
      const a = getApp(p["id"])
      const v = V(ctx)
      let items = [...S().activities.values()].filter((x) => x.application_id === a.id)
      items = timeFilter(ctx, items, { created_after: (x) => x.created_at, created_before: (x) => x.created_at })
      sendJson(ctx.res, 200, page(ctx, items).map((x) => v.activity(x)))
    }),
    r("GET", "/v1/applications/:id/notes", (ctx, p) => {
      const a = getApp(p["id"])
      const v = V(ctx)
      sendJson(ctx.res, 200, page(ctx, [...S().notes.values()].filter((n) => n.application_id === a.id)).map((n) => v.note(n)))
    }),
    r("POST", "/v1/applications/:id/notes", (ctx, p) => {
      const a = getApp(p["id"])
      const c = S().candidates.get(a.candidate_id) as CandidateRec
      sendJson(ctx.res, 201, V(ctx).note(createNote(ctx, c, a.id)))
    }),
    r("GET", "/v1/applications/:id/notes/:note_id", (ctx, p) => {
      const a = getApp(p["id"])
      const n = S().notes.get(idOf(p["note_id"]))
      if (n === undefined || n.application_id !== a.id) throw notFound()
      sendJson(ctx.res, 200, V(ctx).note(n))
    }),
    r("PATCH", "/v1/applications/:id/notes/:note_id", (ctx, p) => {
      const a = getApp(p["id"])
      const n = S().notes.get(idOf(p["note_id"]))
      if (n === undefined || n.application_id !== a.id) throw notFound()
      sendJson(ctx.res, 200, V(ctx).note(patchNote(ctx, n)))
    }),

    // ---- candidates ----
    r("GET", "/v1/candidates", (ctx) => {
      const v = V(ctx)
      sendJson(ctx.res, 200, page(ctx, candidateList(ctx)).map((c) => v.candidate(c)))
    }),
    r("POST", "/v1/candidates", (ctx) => {
      const userId = actor(ctx)
      const b = bodyObject(ctx)
      const s = S()
      const first = strParam(b["first_name"], "first_name", true) as string
      const last = strParam(b["last_name"], "last_name", true) as string
      const apps = b["applications"]
      if (!Array.isArray(apps) || apps.length === 0) throw validation("applications must contain at least one application", "applications")
      const parsedApps = apps.map((app, i) => parseApplication(app as Body, `applications[${i}].`))
      const recruiter = b["recruiter"] as Body | undefined
      const recruiterId = recruiter === undefined ? null : resolveUser(recruiter, "recruiter")
      const coordinator = b["coordinator"] as Body | undefined
      const coordinatorId = coordinator === undefined ? null : resolveUser(coordinator, "coordinator")
      const tags = b["tags"]
      if (tags !== undefined && (!Array.isArray(tags) || tags.some((t) => typeof t !== "string"))) throw validation("tags must be an array of strings", "tags")
      const customFields: Record<string, unknown> = {}
      applyCustomFields(customFields, b["custom_fields"], CANDIDATE_FIELDS)
      const contacts = {
        phone_numbers: contactList(b["phone_numbers"], "phone_numbers", true) ?? [],
        addresses: contactList(b["addresses"], "addresses", true) ?? [],
        email_addresses: contactList(b["email_addresses"], "email_addresses", true) ?? [],
        website_addresses: contactList(b["website_addresses"], "website_addresses", true) ?? [],
        social_media_addresses: (contactList(b["social_media_addresses"], "social_media_addresses", false) ?? []).map((x) => ({ value: x.value }))
      }
      const company = strParam(b["company"], "company", false) ?? null
      const title = strParam(b["title"], "title", false) ?? null
      // Everything is validated: from here on, writes only.
      const at = o.clock.tick()
      const id = s.next.candidate++
      const c: CandidateRec = {
        id,
        first_name: first,
        last_name: last,
        company,
        title,
        created_at: at,
        updated_at: at,
        last_activity: at,
        is_private: b["is_private"] === true || b["is_private"] === "true",
        ...contacts,
        recruiter_id: recruiterId,
        coordinator_id: coordinatorId,
        can_email: true,
        tags: (tags as Array<string> | undefined) ?? [],
        educations: Array.isArray(b["educations"]) ? (b["educations"] as Array<Body>).map((e, i) => ({ id: 600000 + id * 10 + i, school_name: null, degree: null, discipline: null, ...e })) : [],
        employments: Array.isArray(b["employments"]) ? (b["employments"] as Array<Body>).map((e, i) => ({ id: 650000 + id * 10 + i, ...e })) : [],
        custom_fields: customFields,
        application_ids: []
      }
      s.candidates.set(id, c)
      record(at, id, null, "candidate_created", `${first} ${last} was added by ${userName(userId)}`, userId)
      for (const parsed of parsedApps) createApplication(ctx, c, parsed, at, userId)
      const notes = b["activity_feed_notes"]
      if (Array.isArray(notes)) {
        for (const n of notes as Array<Body>) {
          const noteId = s.next.note++
          const body = typeof n["body"] === "string" ? n["body"] : ""
          const vis = (VISIBILITIES as ReadonlyArray<unknown>).includes(n["visibility"]) ? (n["visibility"] as NoteRec["visibility"]) : "admin_only"
          s.notes.set(noteId, { id: noteId, candidate_id: id, application_id: null, created_at: at, updated_at: at, body, user_id: Number(n["user_id"] ?? userId ?? 0), visibility: vis })
        }
      }
      sendJson(ctx.res, 201, V(ctx).candidate(c))
    }),
    r("GET", "/v1/candidates/:id", (ctx, p) => sendJson(ctx.res, 200, V(ctx).candidate(getCandidate(p["id"])))),
    r("PATCH", "/v1/candidates/:id", (ctx, p) => {
      const userId = actor(ctx)
      const c = getCandidate(p["id"])
      const b = bodyObject(ctx)
      const changes: ActivityRec["changes"] = {}
      const next: Partial<CandidateRec> = {}
      for (const key of ["first_name", "last_name", "company", "title"] as const) {
        const value = strParam(b[key], key, false)
        if (value !== undefined) next[key] = value
      }
      if (b["is_private"] !== undefined) next.is_private = b["is_private"] === true || b["is_private"] === "true"
      for (const key of ["phone_numbers", "addresses", "email_addresses", "website_addresses"] as const) {
        const list = contactList(b[key], key, true)
        if (list !== undefined) next[key] = list
      }
      const social = contactList(b["social_media_addresses"], "social_media_addresses", false)
      if (social !== undefined) next.social_media_addresses = social.map((x) => ({ value: x.value }))
      if (b["tags"] !== undefined) {
        if (!Array.isArray(b["tags"]) || (b["tags"] as Array<unknown>).some((t) => typeof t !== "string")) throw validation("tags must be an array of strings", "tags")
        next.tags = [...(b["tags"] as Array<string>)]
      }
      if (b["recruiter"] !== undefined) next.recruiter_id = resolveUser(b["recruiter"] as Body, "recruiter")
      if (b["coordinator"] !== undefined) next.coordinator_id = resolveUser(b["coordinator"] as Body, "coordinator")
      const fields = { ...c.custom_fields }
      Object.assign(changes, applyCustomFields(fields, b["custom_fields"], CANDIDATE_FIELDS))
      for (const [key, value] of Object.entries(next)) {
        changes[key] = { from: (c as unknown as Body)[key], to: value }
        ;(c as unknown as Body)[key] = value
      }
      c.custom_fields = fields
      record(o.clock.tick(), c.id, null, "candidate_updated", `${fullName(c)} was edited by ${userName(userId)}`, userId, changes)
      sendJson(ctx.res, 200, V(ctx).candidate(c))
    }),
    r("POST", "/v1/candidates/:id/applications", (ctx, p) => {
      const userId = actor(ctx)
      const c = getCandidate(p["id"])
      const parsed = parseApplication(bodyObject(ctx))
      const app = createApplication(ctx, c, parsed, o.clock.tick(), userId)
      sendJson(ctx.res, 201, V(ctx).application(app))
    }),
    r("POST", "/v1/candidates/:id/attachments", (ctx, p) => {
      const userId = actor(ctx)
      const c = getCandidate(p["id"])
      const att = parseAttachment(bodyObject(ctx), CANDIDATE_ATTACHMENT_TYPES)
      sendJson(ctx.res, 201, saveAttachment(ctx, att, c, null, o.clock.tick(), userId))
    }),
    r("GET", "/v1/candidates/:id/activity_feed", (ctx, p) => {
      const c = getCandidate(p["id"])
      sendJson(ctx.res, 200, V(ctx).feed((x) => x.candidate_id === c.id))
    }),
    r("POST", "/v1/candidates/:id/activity_feed/notes", (ctx, p) => {
      const c = getCandidate(p["id"])
      sendJson(ctx.res, 201, V(ctx).note(createNote(ctx, c, null)))
    }),
    r("GET", "/v1/candidates/:id/activity_feed/notes/:note_id", (ctx, p) => {
      const c = getCandidate(p["id"])
      sendJson(ctx.res, 200, V(ctx).note(noteFor(c, p["note_id"])))
    }),
    r("PATCH", "/v1/candidates/:id/activity_feed/notes/:note_id", (ctx, p) => {
      const c = getCandidate(p["id"])
      sendJson(ctx.res, 200, V(ctx).note(patchNote(ctx, noteFor(c, p["note_id"]))))
    }),
    r("POST", "/v1/candidates/:id/activity_feed/emails", (ctx, p) => {
      const userIdHeader = actor(ctx)
      const c = getCandidate(p["id"])
      const b = bodyObject(ctx)
      const s = S()
      const uid = intParam(b["user_id"], "user_id", userIdHeader === null) ?? (userIdHeader as number)
      if (!s.users.has(uid)) throw validation(`User ${uid} was not found`, "user_id")
      const to = strParam(b["to"], "to", true) as string
      const from = strParam(b["from"], "from", true) as string
      const subject = strParam(b["subject"], "subject", true) as string
      const body = strParam(b["body"], "body", true) as string
      const cc = Array.isArray(b["cc"]) ? (b["cc"] as Array<unknown>).map(String) : null
      const at = o.clock.tick()
      const id = s.next.email++
      s.emails.set(id, { id, candidate_id: c.id, application_id: null, created_at: at, subject, body, from, to, cc, user_id: uid })
      touch(c.id, null, at)
      sendJson(ctx.res, 201, V(ctx).email(s.emails.get(id) as never))
    }),

    // ---- offers, scorecards, scheduled interviews ----
    r("GET", "/v1/offers", (ctx) => {
      let items = [...S().offers.values()].sort((a, b) => a.application_id - b.application_id || a.id - b.id)
      items = timeFilter(ctx, items, {
        created_after: (x) => x.created_at,
        created_before: (x) => x.created_at,
        updated_after: (x) => x.updated_at,
        updated_before: (x) => x.updated_at,
        resolved_after: (x) => x.resolved_at,
        resolved_before: (x) => x.resolved_at
      })
      const status = ctx.query.get("status")
      if (status !== null) items = items.filter((x) => x.status === status)
      const v = V(ctx)
      sendJson(ctx.res, 200, page(ctx, items).map((x) => v.offer(x)))
    }),
    r("GET", "/v1/offers/:id", (ctx, p) => {
      const x = S().offers.get(idOf(p["id"]))
      if (x === undefined) throw notFound()
      sendJson(ctx.res, 200, V(ctx).offer(x))
    }),
    r("GET", "/v1/scorecards", (ctx) => {
      let items = [...S().scorecards.values()]
      items = timeFilter(ctx, items, { created_after: (x) => x.created_at, created_before: (x) => x.created_at, updated_after: (x) => x.updated_at, updated_before: (x) => x.updated_at })
      const v = V(ctx)
      sendJson(ctx.res, 200, page(ctx, items).map((x) => v.scorecard(x)))
    }),
    r("GET", "/v1/scorecards/:id", (ctx, p) => {
      const x = S().scorecards.get(idOf(p["id"]))
      if (x === undefined) throw notFound()
      sendJson(ctx.res, 200, V(ctx).scorecard(x))
    }),
    r("GET", "/v1/scheduled_interviews", (ctx) => {
      let items = [...S().interviews.values()]
      items = timeFilter(ctx, items, {
        created_after: (x) => x.created_at,
        created_before: (x) => x.created_at,
        updated_after: (x) => x.updated_at,
        updated_before: (x) => x.updated_at,
        starts_after: (x) => x.start,
        starts_before: (x) => x.start,
        ends_after: (x) => x.end,
        ends_before: (x) => x.end
      })
      const appId = ctx.query.get("application_id")
      if (appId !== null) items = items.filter((x) => String(x.application_id) === appId)
      const ext = ctx.query.get("external_event_id")
      if (ext !== null) items = items.filter((x) => x.external_event_id === ext)
      const v = V(ctx)
      sendJson(ctx.res, 200, page(ctx, items).map((x) => v.interview(x)))
    }),
    r("GET", "/v1/scheduled_interviews/:id", (ctx, p) => {
      const x = S().interviews.get(idOf(p["id"]))
      if (x === undefined) throw notFound()
      sendJson(ctx.res, 200, V(ctx).interview(x))
    }),

    // ---- jobs, stages, users, reference lists ----
    r("GET", "/v1/jobs", (ctx) => {
      let items = [...S().jobs.values()]
      items = timeFilter(ctx, items, { created_after: (x) => x.created_at, created_before: (x) => x.created_at, updated_after: (x) => x.updated_at, updated_before: (x) => x.updated_at })
      const status = ctx.query.get("status")
      if (status !== null) items = items.filter((x) => x.status === status)
      const v = V(ctx)
      sendJson(ctx.res, 200, page(ctx, items).map((x) => v.job(x)))
    }),
    r("GET", "/v1/jobs/:id", (ctx, p) => sendJson(ctx.res, 200, V(ctx).job(getJob(p["id"])))),
    r("GET", "/v1/jobs/:id/stages", (ctx, p) => {
      const j = getJob(p["id"])
      const v = V(ctx)
      sendJson(ctx.res, 200, j.stage_ids.map((id) => v.stage(S().stages.get(id) as StageRec)))
    }),
    r("GET", "/v1/job_stages", (ctx) => {
      const v = V(ctx)
      sendJson(ctx.res, 200, page(ctx, [...S().stages.values()]).map((x) => v.stage(x)))
    }),
    r("GET", "/v1/job_stages/:id", (ctx, p) => {
      const x = S().stages.get(idOf(p["id"]))
      if (x === undefined) throw notFound()
      sendJson(ctx.res, 200, V(ctx).stage(x))
    }),
    r("GET", "/v1/users", (ctx) => {
      const v = V(ctx)
      sendJson(ctx.res, 200, page(ctx, [...S().users.values()]).map((u) => v.user(u)))
    }),
    r("GET", "/v1/users/:id", (ctx, p) => {
      const u = S().users.get(idOf(p["id"]))
      if (u === undefined) throw notFound()
      sendJson(ctx.res, 200, V(ctx).user(u))
    }),
    r("GET", "/v1/sources", (ctx) => sendJson(ctx.res, 200, page(ctx, [...S().sources.values()]).map((x) => ({ id: x.id, name: x.name, type: { ...x.type } })))),
    r("GET", "/v1/rejection_reasons", (ctx) => sendJson(ctx.res, 200, page(ctx, [...S().reasons.values()]).map((x) => ({ id: x.id, name: x.name, type: { ...x.type } }))))
  ]

  function resolveUser(value: Body, field: string): number {
    if (typeof value !== "object" || value === null) throw validation(`${field} must be an object`, field)
    const s = S()
    const id = value["id"] ?? value["user_id"]
    if (id !== undefined) {
      const n = Number(id)
      if (!s.users.has(n)) throw validation(`User ${String(id)} was not found`, field)
      return n
    }
    if (typeof value["email"] === "string") {
      const u = [...s.users.values()].find((x) => x.email.toLowerCase() === (value["email"] as string).toLowerCase())
      if (u === undefined) throw validation(`No user with email ${value["email"] as string}`, field)
      return u.id
    }
    throw validation(`${field}[id] or ${field}[email] is required`, field)
  }
}

export const atsNotFound = (ctx: Ctx): void => sendJson(ctx.res, 404, { message: "Resource not found" })
