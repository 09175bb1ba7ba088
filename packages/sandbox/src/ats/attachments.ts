import { HttpError } from "../http/httpError.js"
import { sendBytes, sendChunks, sendJson } from "../http/responses.js"
import { route, type Route } from "../router.js"
import type { AtsContext } from "./atsContext.js"
import { APPLICATION_ATTACHMENT_TYPES, CANDIDATE_ATTACHMENT_TYPES, parseAttachment, saveAttachment } from "./attachmentUpload.js"
import type { CandidateRec } from "./data.js"
import { bodyObject, pathId } from "./params.js"

/** Attachment uploads, and the downloads their answers link to. */

/** Any name, as providers send it (RFC 6266): an ASCII fallback, the UTF-8 name in filename*. */
const downloadHeaders = (file: { readonly filename: string; readonly contentType: string }): Record<string, string> => ({
  "content-type": file.contentType,
  "content-disposition": `attachment; filename="${file.filename.replace(/[^\x20-\x7e]|"/g, "_")}"; filename*=UTF-8''${
    encodeURIComponent(file.filename).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)
  }`,
  "cache-control": "private, max-age=604800"
})

export const attachmentRoutes = (context: AtsContext): ReadonlyArray<Route> => [
  // Signed-URL style downloads: no auth, like Greenhouse's S3 links.
  route("GET", "/files/:id", (ctx, params) => {
    const files = context.files
    const id = pathId(params["id"])
    const large = files.generated(id)
    if (large !== undefined) {
      large.downloads.open++
      ctx.res.once("close", () => large.downloads.open--)
      sendChunks(ctx.res, 200, large.chunks(), {
        ...downloadHeaders(large),
        ...(large.contentLength ? { "content-length": String(large.size) } : {})
      })
      return
    }
    const file = files.get(id)
    const bytes = files.bytes(id)
    if (file === undefined || bytes === undefined) throw new HttpError(404, "Not Found")
    sendBytes(ctx.res, 200, bytes, downloadHeaders(file))
  }),
  context.route("POST", "/v1/applications/:id/attachments", (ctx, params) => {
    const userId = context.actor(ctx)
    const application = context.application(params["id"])
    const candidate = context.state.candidates.get(application.candidate_id) as CandidateRec
    const attachment = parseAttachment(bodyObject(ctx), APPLICATION_ATTACHMENT_TYPES)
    sendJson(ctx.res, 201, saveAttachment(context, ctx, attachment, candidate, application.id, context.tick(), userId))
  }),
  context.route("POST", "/v1/candidates/:id/attachments", (ctx, params) => {
    const userId = context.actor(ctx)
    const candidate = context.candidate(params["id"])
    const attachment = parseAttachment(bodyObject(ctx), CANDIDATE_ATTACHMENT_TYPES)
    sendJson(ctx.res, 201, saveAttachment(context, ctx, attachment, candidate, null, context.tick(), userId))
  })
]
