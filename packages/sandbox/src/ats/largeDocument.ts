import { createHash } from "node:crypto"
import { type FileStore, generatedChunks } from "../files.js"
import type { AtsState } from "./data.js"

export interface LargeDocumentOptions {
  /** Size in bytes. */
  readonly size: number
  /** The application it is attached to (default: the first). */
  readonly applicationId?: number
  /** Default `large-{size}.bin`; also what the bytes derive from (with the size). */
  readonly filename?: string
  /** Default `application/octet-stream`. */
  readonly contentType?: string
  /** Send Content-Length (default true); false streams it chunked, its size unknown up front. */
  readonly contentLength?: boolean
}

export interface LargeDocument {
  readonly applicationId: number
  readonly filename: string
  readonly contentType: string
  readonly size: number
  /** The attachment's download URL. */
  readonly url: string
  /** Hex SHA-256 of the whole document (computed chunk by chunk on each call). */
  sha256(): string
  /** Downloads of it being sent now (a client that went away no longer counts). */
  openDownloads(): number
}

/**
 * Attaches a large generated document to an application: its bytes depend only on its file
 * name and size and are made chunk by chunk on every download, never held in memory.
 */
export const attachLargeDocument = (state: AtsState, files: FileStore, origin: string, options: LargeDocumentOptions): LargeDocument => {
  if (!Number.isInteger(options.size) || options.size < 0) throw new Error("size must be a non-negative integer")
  const application = options.applicationId === undefined
    ? state.applications.values().next().value
    : state.applications.get(options.applicationId)
  if (application === undefined) throw new Error(`no application ${options.applicationId ?? ""}`)
  const filename = options.filename ?? `large-${options.size}.bin`
  const contentType = options.contentType ?? "application/octet-stream"
  const label = `${filename}:${options.size}`
  const fileId = state.next.file++
  const chunks = () => generatedChunks(label, options.size)
  const downloads = { open: 0 }
  files.addGenerated({
    id: fileId,
    filename,
    contentType,
    size: options.size,
    contentLength: options.contentLength ?? true,
    chunks,
    downloads
  })
  state.attachments.push({
    file_id: fileId,
    candidate_id: application.candidate_id,
    application_id: application.id,
    filename,
    type: "other",
    content_type: contentType,
    created_at: application.last_activity_at
  })
  return {
    applicationId: application.id,
    filename,
    contentType,
    size: options.size,
    url: `${origin}/files/${fileId}`,
    sha256: () => {
      const hash = createHash("sha256")
      for (const chunk of chunks()) hash.update(chunk)
      return hash.digest("hex")
    },
    openDownloads: () => downloads.open
  }
}
