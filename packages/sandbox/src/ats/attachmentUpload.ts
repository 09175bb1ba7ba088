import type { Ctx } from "../http/ctx.js"
import type { AtsContext } from "./atsContext.js"
import type { CandidateRec } from "./data.js"
import { validationError } from "./errors.js"
import { stringParam, type Body } from "./params.js"

/** Attachments sent as base64 `content` (on their own or inside a new application). */

const ACCEPTED_CONTENT_TYPES = new Set([
  "application/atom+xml", "application/javascript", "application/json", "application/msgpack", "application/msword",
  "application/pdf", "application/rss+xml", "application/vnd.ms-excel",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "application/vnd.ms-powerpoint",
  "application/xml", "application/x-www-form-urlencoded", "application/x-yaml", "application/zip", "multipart/form-data",
  "image/bmp", "image/gif", "image/jpeg", "image/png", "image/tiff", "text/calendar", "text/css", "text/csv", "text/html",
  "text/javascript", "text/plain", "text/vcard", "video/mpeg"
])
export const APPLICATION_ATTACHMENT_TYPES = ["resume", "cover_letter", "other", "take_home_test", "offer_letter", "signed_offer_letter"]
export const CANDIDATE_ATTACHMENT_TYPES = ["resume", "cover_letter", "admin_only", ...APPLICATION_ATTACHMENT_TYPES]

export interface ParsedAttachment {
  readonly filename: string
  readonly type: string
  readonly contentType: string
  readonly bytes: Buffer
}

/** Validates and decodes an uploaded attachment (no writes). */
export const parseAttachment = (input: unknown, allowedTypes: ReadonlyArray<string>): ParsedAttachment => {
  if (typeof input !== "object" || input === null) throw validationError("attachment must be an object", "attachments")
  const body = input as Body
  const filename = stringParam(body["filename"], "filename", true) as string
  const type = stringParam(body["type"], "type", true) as string
  if (!allowedTypes.includes(type)) throw validationError(`type must be one of: ${allowedTypes.join(", ")}`, "type")
  if (body["url"] !== undefined && body["content"] === undefined) {
    throw validationError("url uploads are not supported by the sandbox (no outbound network); send base64 content", "url")
  }
  const content = stringParam(body["content"], "content", true) as string
  const contentType = stringParam(body["content_type"], "content_type", true) as string
  if (!ACCEPTED_CONTENT_TYPES.has(contentType.split(";")[0]?.trim().toLowerCase() ?? "")) throw validationError(`content_type ${contentType} is not accepted`, "content_type")
  const compact = content.replace(/\s+/g, "")
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) throw validationError("content must be base64", "content")
  return { filename, type, contentType, bytes: Buffer.from(compact, "base64") }
}

/** Stores a parsed attachment and records it in the activity feed; returns the API answer. */
export const saveAttachment = (
  context: AtsContext,
  ctx: Ctx,
  attachment: ParsedAttachment,
  candidate: CandidateRec,
  applicationId: number | null,
  at: number,
  userId: number | null
): Record<string, unknown> => {
  const state = context.state
  const fileId = state.next.file++
  context.files.addBytes(fileId, attachment.filename, attachment.contentType, attachment.bytes)
  state.attachments.push({ file_id: fileId, candidate_id: candidate.id, application_id: applicationId, filename: attachment.filename, type: attachment.type, content_type: attachment.contentType, created_at: at })
  context.recordActivity(at, candidate.id, applicationId, "attachment_added", `${attachment.filename} was added as ${attachment.type.replace(/_/g, " ")}`, userId, {
    attachments: { from: null, to: { filename: attachment.filename, type: attachment.type } }
  })
  return { filename: attachment.filename, url: `${ctx.origin}/files/${fileId}`, type: attachment.type, content_type: attachment.contentType }
}
