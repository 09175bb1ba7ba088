import type { Ctx } from "../http/ctx.js"
import { sendJson } from "../http/responses.js"
import type { Route } from "../router.js"
import type { AtsContext } from "./atsContext.js"
import type { ActivityRec, CandidateRec, NoteRec } from "./data.js"
import { notFoundError, validationError } from "./errors.js"
import { bodyObject, intParam, pathId, stringParam } from "./params.js"
import { authorId } from "./userReferences.js"

/** Notes on a candidate's activity feed, and the same notes seen from one application. */

export const VISIBILITIES = ["admin_only", "private", "public"] as const

const requireVisibility = (visibility: string): void => {
  if (!(VISIBILITIES as ReadonlyArray<string>).includes(visibility)) throw validationError(`visibility must be one of: ${VISIBILITIES.join(", ")}`, "visibility")
}

export const noteRoutes = (context: AtsContext): ReadonlyArray<Route> => {
  const noteOf = (rawId: string | undefined, belongs: (note: NoteRec) => boolean): NoteRec => {
    const note = context.state.notes.get(pathId(rawId))
    if (note === undefined || !belongs(note)) throw notFoundError()
    return note
  }

  const createNote = (ctx: Ctx, candidate: CandidateRec, applicationId: number | null): NoteRec => {
    const actingUserId = context.actor(ctx)
    const body = bodyObject(ctx)
    const state = context.state
    const userId = authorId(state, body, actingUserId)
    const text = stringParam(body["body"], "body", true) as string
    const visibility = stringParam(body["visibility"], "visibility", true) as string
    requireVisibility(visibility)
    let noteApplicationId = applicationId
    if (noteApplicationId === null && body["application_id"] !== undefined) {
      noteApplicationId = intParam(body["application_id"], "application_id", true) as number
      if (!candidate.application_ids.includes(noteApplicationId)) throw validationError("application_id must be one of the candidate's applications", "application_id")
    }
    const at = context.tick()
    const id = state.next.note++
    const note: NoteRec = { id, candidate_id: candidate.id, application_id: noteApplicationId, created_at: at, updated_at: at, body: text, user_id: userId, visibility: visibility as NoteRec["visibility"] }
    state.notes.set(id, note)
    context.touch(candidate.id, noteApplicationId, at)
    return note
  }

  const patchNote = (ctx: Ctx, note: NoteRec): NoteRec => {
    const userId = context.actor(ctx)
    const body = bodyObject(ctx)
    const text = stringParam(body["body"], "body", false)
    const visibility = stringParam(body["visibility"], "visibility", false)
    if (visibility !== undefined) requireVisibility(visibility)
    if (text === undefined && visibility === undefined) throw validationError("Provide body and/or visibility", "body")
    const at = context.tick()
    const changes: ActivityRec["changes"] = {}
    if (text !== undefined && text !== note.body) {
      changes["body"] = { from: note.body, to: text }
      note.body = text
    }
    if (visibility !== undefined && visibility !== note.visibility) {
      changes["visibility"] = { from: note.visibility, to: visibility }
      note.visibility = visibility as NoteRec["visibility"]
    }
    note.updated_at = at
    context.recordActivity(at, note.candidate_id, note.application_id, "note_updated", `Note ${note.id} was edited by ${context.userName(userId)}`, userId, changes)
    return note
  }

  return [
    context.route("GET", "/v1/applications/:id/notes", (ctx, params) => {
      const application = context.application(params["id"])
      const views = context.views(ctx)
      const notes = [...context.state.notes.values()].filter((note) => note.application_id === application.id)
      sendJson(ctx.res, 200, context.page(ctx, notes).map((note) => views.note(note)))
    }),
    context.route("POST", "/v1/applications/:id/notes", (ctx, params) => {
      const application = context.application(params["id"])
      const candidate = context.state.candidates.get(application.candidate_id) as CandidateRec
      sendJson(ctx.res, 201, context.views(ctx).note(createNote(ctx, candidate, application.id)))
    }),
    context.route("GET", "/v1/applications/:id/notes/:note_id", (ctx, params) => {
      const application = context.application(params["id"])
      sendJson(ctx.res, 200, context.views(ctx).note(noteOf(params["note_id"], (note) => note.application_id === application.id)))
    }),
    context.route("PATCH", "/v1/applications/:id/notes/:note_id", (ctx, params) => {
      const application = context.application(params["id"])
      sendJson(ctx.res, 200, context.views(ctx).note(patchNote(ctx, noteOf(params["note_id"], (note) => note.application_id === application.id))))
    }),
    context.route("POST", "/v1/candidates/:id/activity_feed/notes", (ctx, params) => {
      const candidate = context.candidate(params["id"])
      sendJson(ctx.res, 201, context.views(ctx).note(createNote(ctx, candidate, null)))
    }),
    context.route("GET", "/v1/candidates/:id/activity_feed/notes/:note_id", (ctx, params) => {
      const candidate = context.candidate(params["id"])
      sendJson(ctx.res, 200, context.views(ctx).note(noteOf(params["note_id"], (note) => note.candidate_id === candidate.id)))
    }),
    context.route("PATCH", "/v1/candidates/:id/activity_feed/notes/:note_id", (ctx, params) => {
      const candidate = context.candidate(params["id"])
      sendJson(ctx.res, 200, context.views(ctx).note(patchNote(ctx, noteOf(params["note_id"], (note) => note.candidate_id === candidate.id))))
    })
  ]
}
