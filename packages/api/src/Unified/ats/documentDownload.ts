import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/* Downloading an ATS document: its query, the media types it may carry and the bytes answered. */

export const AtsDownloadDocumentParams = Schema.Struct({
  format: Schema.optional(Schema.String.annotations({ description: "Download format, e.g. base64" })),
  export_format: Schema.optional(
    Schema.String.annotations({ description: "Media type to export the document as, e.g. text/plain" })
  )
})
export type AtsDownloadDocumentParams = typeof AtsDownloadDocumentParams.Type

/** Media types a downloaded document may carry (spec, ats_download_application_document). */
export const DOWNLOAD_MEDIA_TYPES = [
  "application/pdf",
  "application/msword",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.ms-excel",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.ms-powerpoint",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  "application/vnd.oasis.opendocument.text",
  "application/vnd.oasis.opendocument.spreadsheet",
  "application/vnd.oasis.opendocument.presentation",
  "application/rtf",
  "text/rtf",
  "text/plain",
  "text/csv",
  "text/html",
  "application/xml",
  "application/json",
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/tiff",
  "image/bmp",
  "image/heic",
  "image/webp",
  "application/zip",
  "application/gzip",
  "application/x-rar-compressed",
  "application/x-7z-compressed",
  "audio/mpeg",
  "audio/wav",
  "audio/mp4",
  "video/mp4",
  "video/webm",
  "video/avi",
  "video/quicktime",
  "message/rfc822",
  "application/vnd.ms-outlook",
  "application/octet-stream"
] as const

/** OpenAPI transform of a download operation: its 200 answer in each media type a document may carry. */
export const documentDownloadMediaTypes = (operation: Record<string, any>): Record<string, any> => {
  const ok = operation.responses?.["200"]
  if (ok === undefined) return operation
  const content: Record<string, unknown> = {}
  for (const mediaType of DOWNLOAD_MEDIA_TYPES) content[mediaType] = { schema: { type: "string", format: "binary" } }
  return { ...operation, responses: { ...operation.responses, "200": { ...ok, content } } }
}

/**
 * The document's bytes. The schema names a generic content type; the server streams an
 * `HttpServerResponse` carrying the document's own media type instead.
 */
export const DocumentDownload = HttpApiSchema.Uint8Array({ contentType: "application/octet-stream" }).annotations({
  description: "The document's bytes, sent with the document's own media type"
})
