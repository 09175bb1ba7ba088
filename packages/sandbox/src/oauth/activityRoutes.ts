import type { Clock } from "../clock.js"
import type { Ctx } from "../http/ctx.js"
import { sendBytes, sendJson } from "../http/responses.js"
import type { Handler, Route } from "../router.js"
import { emptyActivity, newNote, type LeverActivity } from "./activity.js"
import { LEVER_STAGES, uuid, type LeverOpportunity, type LeverState } from "./data.js"
import { rngFor } from "../prng.js"
import { expansions, leverError, notFound, opportunityView, page } from "./recruiting.js"

/**
 * Lever v1 endpoints beyond opportunities and postings (hire.lever.co/developer/documentation):
 * Stages and Users (list, retrieve), an opportunity's stage and archived state (PUT, on behalf of
 * `perform_as`), its Notes (list, retrieve, create), Offers (list), Interviews and Feedback (list,
 * retrieve) and Files (list, retrieve, download). Lists page with `limit`/`offset` and answer
 * `{data, hasNext, next}`; each endpoint asks for the scope Lever lists for it.
 */

type Scoped = (...scopes: ReadonlyArray<string>) => (method: string, pattern: string, handler: Handler) => Route

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

const jsonBody = (ctx: Ctx): Record<string, unknown> => {
  let body: unknown
  try {
    body = ctx.body()
  } catch {
    throw leverError(400, "BadRequestError", "The body is not valid JSON")
  }
  if (!isRecord(body)) throw leverError(400, "BadRequestError", "The body must be a JSON object")
  return body
}

export const activityRoutes = (options: {
  readonly scoped: Scoped
  readonly data: () => LeverState
  readonly clock: Clock
  readonly opportunity: (id: string) => LeverOpportunity
}): ReadonlyArray<Route> => {
  const { scoped, data, clock, opportunity } = options
  const stages = scoped("stages:read:admin")
  const users = scoped("users:read:admin")
  const writeOpportunities = scoped("opportunities:write:admin")
  const readNotes = scoped("notes:read:admin", "notes:write:admin")
  const writeNotes = scoped("notes:write:admin")
  const offers = scoped("offers:read:admin")
  const interviews = scoped("interviews:read:admin")
  const feedback = scoped("feedback:read:admin")
  const files = scoped("files:read:admin")

  const activityOf = (id: string): LeverActivity => {
    const state = data()
    opportunity(id)
    let found = state.activity.get(id)
    if (found === undefined) state.activity.set(id, (found = emptyActivity()))
    return found
  }

  /** The acting user of a write: Lever requires `perform_as` to be one of the account's active users. */
  const performAs = (ctx: Ctx): string => {
    const id = ctx.query.get("perform_as")
    if (id === null || id === "") throw leverError(400, "BadRequestError", "Missing required query parameter: perform_as")
    if (!data().people.some((u) => u.id === id && u.deactivatedAt === null)) throw leverError(400, "BadRequestError", `perform_as ${id} is not an active user of this account`)
    return id
  }

  const one = <T extends { id: string }>(items: ReadonlyArray<T>, resource: string, id: string): T => {
    const found = items.find((item) => item.id === id)
    if (found === undefined) throw notFound(resource, id)
    return found
  }

  const stripped = <T extends { content: string; contentType: string }>({ content: _content, contentType: _type, ...file }: T) => file

  return [
    stages("GET", "/stages", (ctx) => sendJson(ctx.res, 200, page(ctx, data().stages))),
    stages("GET", "/stages/:stage", (ctx, params) => sendJson(ctx.res, 200, { data: one(data().stages, "stages", params["stage"] as string) })),

    users("GET", "/users", (ctx) => {
      const deactivated = ctx.query.get("includeDeactivated") === "true"
      const emails = ctx.query.getAll("email").map((e) => e.toLowerCase())
      const roles = ctx.query.getAll("access_role")
      const items = data().people.filter(
        (u) =>
          (deactivated || u.deactivatedAt === null) &&
          (emails.length === 0 || emails.includes(u.email.toLowerCase())) &&
          (roles.length === 0 || roles.includes(u.accessRole))
      )
      sendJson(ctx.res, 200, page(ctx, items))
    }),
    users("GET", "/users/:user", (ctx, params) => sendJson(ctx.res, 200, { data: one(data().people, "users", params["user"] as string) })),

    writeOpportunities("PUT", "/opportunities/:id/stage", (ctx, params) => {
      const found = opportunity(params["id"] as string)
      const body = jsonBody(ctx)
      const user = performAs(ctx)
      const stage = body["stage"]
      if (typeof stage !== "string" || stage === "") throw leverError(400, "BadRequestError", "stage is required")
      const index = (LEVER_STAGES as ReadonlyArray<string>).indexOf(stage)
      if (index < 0) throw leverError(400, "BadRequestError", `stages ${stage} was not found`)
      const now = clock.tick()
      found.stage = stage
      found.stageChanges.push({ toStageId: stage, toStageIndex: index, updatedAt: now, userId: user })
      found.lastAdvancedAt = now
      found.lastInteractionAt = now
      found.updatedAt = now
      sendJson(ctx.res, 200, { data: opportunityView(data(), found, expansions(ctx)) })
    }),
    writeOpportunities("PUT", "/opportunities/:id/archived", (ctx, params) => {
      const found = opportunity(params["id"] as string)
      const body = jsonBody(ctx)
      performAs(ctx)
      const reason = body["reason"]
      if (reason !== null && typeof reason !== "string") throw leverError(400, "BadRequestError", "reason must be an archive reason id, or null to unarchive")
      if (typeof reason === "string" && !data().archiveReasons.some((r) => r.id === reason)) throw leverError(400, "BadRequestError", `archive_reasons ${reason} was not found`)
      const now = clock.tick()
      found.archived = reason === null ? null : { reason, archivedAt: now }
      found.updatedAt = now
      found.lastInteractionAt = now
      if (reason !== null && body["cleanInterviews"] === true) {
        // pending interviews go; those already held stay with their feedback
        const activity = activityOf(found.id)
        activity.interviews = activity.interviews.filter((i) => i.date <= now)
      }
      sendJson(ctx.res, 200, { data: opportunityView(data(), found, expansions(ctx)) })
    }),

    readNotes("GET", "/opportunities/:id/notes", (ctx, params) => sendJson(ctx.res, 200, page(ctx, activityOf(params["id"] as string).notes))),
    readNotes("GET", "/opportunities/:id/notes/:note", (ctx, params) =>
      sendJson(ctx.res, 200, { data: one(activityOf(params["id"] as string).notes, "notes", params["note"] as string) })),
    writeNotes("POST", "/opportunities/:id/notes", (ctx, params) => {
      const activity = activityOf(params["id"] as string)
      const body = jsonBody(ctx)
      const user = performAs(ctx)
      const value = body["value"]
      if (typeof value !== "string" || value === "") throw leverError(400, "BadRequestError", "value is required")
      const secret = body["secret"] ?? false
      if (typeof secret !== "boolean") throw leverError(400, "BadRequestError", "secret must be a boolean")
      const now = clock.tick()
      const createdAt = body["createdAt"] ?? now
      if (typeof createdAt !== "number" || !Number.isFinite(createdAt) || createdAt > now) throw leverError(400, "BadRequestError", "createdAt must be a timestamp in milliseconds, not in the future")
      const state = data()
      const note = newNote(uuid(rngFor(state.seed, "lever-note-created", state.notesCreated++)), user, value, secret, createdAt)
      activity.notes.unshift(note)
      activity.notes.sort((a, b) => b.createdAt - a.createdAt)
      sendJson(ctx.res, 201, { data: { noteId: note.id } })
    }),

    offers("GET", "/opportunities/:id/offers", (ctx, params) => sendJson(ctx.res, 200, page(ctx, activityOf(params["id"] as string).offers))),

    interviews("GET", "/opportunities/:id/interviews", (ctx, params) => sendJson(ctx.res, 200, page(ctx, activityOf(params["id"] as string).interviews))),
    interviews("GET", "/opportunities/:id/interviews/:interview", (ctx, params) =>
      sendJson(ctx.res, 200, { data: one(activityOf(params["id"] as string).interviews, "interviews", params["interview"] as string) })),

    feedback("GET", "/opportunities/:id/feedback", (ctx, params) => sendJson(ctx.res, 200, page(ctx, activityOf(params["id"] as string).feedback))),
    feedback("GET", "/opportunities/:id/feedback/:feedback", (ctx, params) =>
      sendJson(ctx.res, 200, { data: one(activityOf(params["id"] as string).feedback, "feedback", params["feedback"] as string) })),

    files("GET", "/opportunities/:id/files", (ctx, params) => {
      const answer = page(ctx, activityOf(params["id"] as string).files)
      sendJson(ctx.res, 200, { ...answer, data: answer.data.map(stripped) })
    }),
    files("GET", "/opportunities/:id/files/:file", (ctx, params) =>
      sendJson(ctx.res, 200, { data: stripped(one(activityOf(params["id"] as string).files, "files", params["file"] as string)) })),
    files("GET", "/opportunities/:id/files/:file/download", (ctx, params) => {
      const file = one(activityOf(params["id"] as string).files, "files", params["file"] as string)
      sendBytes(ctx.res, 200, Buffer.from(file.content), { "content-type": file.contentType, "content-disposition": `attachment; filename="${file.name}"` })
    })
  ]
}
