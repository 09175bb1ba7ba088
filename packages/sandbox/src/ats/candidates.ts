import type { Ctx } from "../http/ctx.js"
import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import type { AtsContext } from "./atsContext.js"
import { applyCustomFields } from "./customFields.js"
import type { ActivityRec, CandidateRec, NoteRec } from "./data.js"
import { fullName } from "./data.js"
import { validationError } from "./errors.js"
import { createApplication, parseApplication } from "./newApplication.js"
import { VISIBILITIES } from "./notes.js"
import { bodyObject, contactList, createdAndUpdatedFilters, stringParam, timeFilter, type Body } from "./params.js"
import { resolveUser } from "./userReferences.js"
import { CANDIDATE_FIELDS } from "./views.js"

/** `/v1/candidates`: list, create (with applications), read, update, and a new application for one. */

const requireTags = (tags: unknown): void => {
  if (!Array.isArray(tags) || tags.some((tag) => typeof tag !== "string")) throw validationError("tags must be an array of strings", "tags")
}

export const candidateRoutes = (context: AtsContext): ReadonlyArray<Route> => {
  const candidateList = (ctx: Ctx): Array<CandidateRec> => {
    const state = context.state
    let items = [...state.candidates.values()]
    items = timeFilter(ctx, items, createdAndUpdatedFilters())
    const jobId = ctx.query.get("job_id")
    if (jobId !== null) items = items.filter((candidate) => candidate.application_ids.some((id) => String(state.applications.get(id)?.job_id) === jobId))
    const email = ctx.query.get("email")
    const ids = ctx.query.get("candidate_ids")
    if (email !== null) items = items.filter((candidate) => candidate.email_addresses.some((address) => address.value.toLowerCase() === email.toLowerCase()))
    else if (ids !== null) {
      const wanted = new Set(ids.split(",").map((id) => id.trim()).filter((id) => id.length > 0).slice(0, 50))
      items = items.filter((candidate) => wanted.has(String(candidate.id)))
    }
    return items
  }

  return [
    context.route("GET", "/v1/candidates", (ctx) => {
      const views = context.views(ctx)
      sendJson(ctx.res, 200, context.page(ctx, candidateList(ctx)).map((candidate) => views.candidate(candidate)))
    }),
    context.route("POST", "/v1/candidates", (ctx) => {
      const userId = context.actor(ctx)
      const body = bodyObject(ctx)
      const state = context.state
      const firstName = stringParam(body["first_name"], "first_name", true) as string
      const lastName = stringParam(body["last_name"], "last_name", true) as string
      const applications = body["applications"]
      if (!Array.isArray(applications) || applications.length === 0) throw validationError("applications must contain at least one application", "applications")
      const parsedApplications = applications.map((application, index) => parseApplication(state, application as Body, `applications[${index}].`))
      const recruiter = body["recruiter"] as Body | undefined
      const recruiterId = recruiter === undefined ? null : resolveUser(state, recruiter, "recruiter")
      const coordinator = body["coordinator"] as Body | undefined
      const coordinatorId = coordinator === undefined ? null : resolveUser(state, coordinator, "coordinator")
      const tags = body["tags"]
      if (tags !== undefined) requireTags(tags)
      const customFields: Record<string, unknown> = {}
      applyCustomFields(customFields, body["custom_fields"], CANDIDATE_FIELDS)
      const contacts = {
        phone_numbers: contactList(body["phone_numbers"], "phone_numbers", true) ?? [],
        addresses: contactList(body["addresses"], "addresses", true) ?? [],
        email_addresses: contactList(body["email_addresses"], "email_addresses", true) ?? [],
        website_addresses: contactList(body["website_addresses"], "website_addresses", true) ?? [],
        social_media_addresses: (contactList(body["social_media_addresses"], "social_media_addresses", false) ?? []).map((address) => ({ value: address.value }))
      }
      const company = stringParam(body["company"], "company", false) ?? null
      const title = stringParam(body["title"], "title", false) ?? null
      // Everything is validated: from here on, writes only.
      const at = context.tick()
      const id = state.next.candidate++
      const candidate: CandidateRec = {
        id,
        first_name: firstName,
        last_name: lastName,
        company,
        title,
        created_at: at,
        updated_at: at,
        last_activity: at,
        is_private: body["is_private"] === true || body["is_private"] === "true",
        ...contacts,
        recruiter_id: recruiterId,
        coordinator_id: coordinatorId,
        can_email: true,
        tags: (tags as Array<string> | undefined) ?? [],
        educations: Array.isArray(body["educations"]) ? (body["educations"] as Array<Body>).map((education, index) => ({ id: 600000 + id * 10 + index, school_name: null, degree: null, discipline: null, ...education })) : [],
        employments: Array.isArray(body["employments"]) ? (body["employments"] as Array<Body>).map((employment, index) => ({ id: 650000 + id * 10 + index, ...employment })) : [],
        custom_fields: customFields,
        application_ids: []
      }
      state.candidates.set(id, candidate)
      context.recordActivity(at, id, null, "candidate_created", `${firstName} ${lastName} was added by ${context.userName(userId)}`, userId)
      for (const parsed of parsedApplications) createApplication(context, ctx, candidate, parsed, at, userId)
      const notes = body["activity_feed_notes"]
      if (Array.isArray(notes)) {
        for (const note of notes as Array<Body>) {
          const noteId = state.next.note++
          const text = typeof note["body"] === "string" ? note["body"] : ""
          const visibility = (VISIBILITIES as ReadonlyArray<unknown>).includes(note["visibility"]) ? (note["visibility"] as NoteRec["visibility"]) : "admin_only"
          state.notes.set(noteId, { id: noteId, candidate_id: id, application_id: null, created_at: at, updated_at: at, body: text, user_id: Number(note["user_id"] ?? userId ?? 0), visibility })
        }
      }
      sendJson(ctx.res, 201, context.views(ctx).candidate(candidate))
    }),
    context.route("GET", "/v1/candidates/:id", (ctx, params) => sendJson(ctx.res, 200, context.views(ctx).candidate(context.candidate(params["id"])))),
    context.route("PATCH", "/v1/candidates/:id", (ctx, params) => {
      const userId = context.actor(ctx)
      const candidate = context.candidate(params["id"])
      const body = bodyObject(ctx)
      const state = context.state
      const changes: ActivityRec["changes"] = {}
      const next: Partial<CandidateRec> = {}
      for (const key of ["first_name", "last_name", "company", "title"] as const) {
        const value = stringParam(body[key], key, false)
        if (value !== undefined) next[key] = value
      }
      if (body["is_private"] !== undefined) next.is_private = body["is_private"] === true || body["is_private"] === "true"
      for (const key of ["phone_numbers", "addresses", "email_addresses", "website_addresses"] as const) {
        const list = contactList(body[key], key, true)
        if (list !== undefined) next[key] = list
      }
      const social = contactList(body["social_media_addresses"], "social_media_addresses", false)
      if (social !== undefined) next.social_media_addresses = social.map((address) => ({ value: address.value }))
      if (body["tags"] !== undefined) {
        requireTags(body["tags"])
        next.tags = [...(body["tags"] as Array<string>)]
      }
      if (body["recruiter"] !== undefined) next.recruiter_id = resolveUser(state, body["recruiter"] as Body, "recruiter")
      if (body["coordinator"] !== undefined) next.coordinator_id = resolveUser(state, body["coordinator"] as Body, "coordinator")
      const customFields = { ...candidate.custom_fields }
      Object.assign(changes, applyCustomFields(customFields, body["custom_fields"], CANDIDATE_FIELDS))
      for (const [key, value] of Object.entries(next)) {
        changes[key] = { from: (candidate as unknown as Body)[key], to: value }
        ;(candidate as unknown as Body)[key] = value
      }
      candidate.custom_fields = customFields
      context.recordActivity(context.tick(), candidate.id, null, "candidate_updated", `${fullName(candidate)} was edited by ${context.userName(userId)}`, userId, changes)
      sendJson(ctx.res, 200, context.views(ctx).candidate(candidate))
    }),
    context.route("POST", "/v1/candidates/:id/applications", (ctx, params) => {
      const userId = context.actor(ctx)
      const candidate = context.candidate(params["id"])
      const parsed = parseApplication(context.state, bodyObject(ctx))
      const application = createApplication(context, ctx, candidate, parsed, context.tick(), userId)
      sendJson(ctx.res, 201, context.views(ctx).application(application))
    })
  ]
}
