import { FileStore, MEDIA, makeDocx, makePdf, makePng, makeText } from "../files.js"
import { rngFor, type Rng } from "../prng.js"
import type { AtsState } from "./data.js"
import type { CandidateRec } from "./generateCandidates.js"
import { fullName } from "./recordText.js"

/**
 * A candidate's documents (resume, sometimes a cover letter and a portfolio image), attached with
 * their first application. The records draw from the application's generator; the file bytes are
 * built only on first download, from their own generator, so they depend on (seed, file id) alone.
 */

export interface AttachmentRec {
  file_id: number
  candidate_id: number
  application_id: number | null
  filename: string
  type: string
  content_type: string
  created_at: number
}

type DocumentKind = "pdf" | "docx" | "png" | "txt"

/** Registers a generated attachment file in the store: bytes depend only on (seed, file id). */
const registerGeneratedFile = (
  files: FileStore,
  seed: number,
  id: number,
  kind: DocumentKind,
  filename: string,
  person: { first_name: string; last_name: string; title: string | null; company: string | null; email: string }
): void => {
  const name = fullName(person)
  const lines = [
    person.email,
    `Current role: ${person.title ?? "n/a"} at ${person.company ?? "n/a"}`,
    "Experience: building reliable systems, collaborating across teams, shipping often.",
    `Reference: sandbox file ${id}`
  ]
  const build = (): Buffer => {
    switch (kind) {
      case "pdf":
        return makePdf(`${name} - Resume`, lines)
      case "docx":
        return makeDocx([`${name} - Resume`, ...lines])
      case "png":
        return makePng(rngFor(seed, "file", id))
      case "txt":
        return makeText([`Dear Hiring Team,`, "", `I am excited to apply. ${lines[1]}.`, "", "Best regards,", name, `(sandbox file ${id})`])
    }
  }
  files.add({ id, filename, contentType: MEDIA[kind], build })
}

/** Attaches the documents that come in with the candidate's first application (`applicationId`). */
export const generateDocuments = (
  state: AtsState,
  files: FileStore,
  seed: number,
  rng: Rng,
  candidate: CandidateRec,
  applicationId: number,
  appliedAt: number
): void => {
  const resumeKind = rng.chance(0.7) ? "pdf" : "docx"
  const documents: Array<[DocumentKind, string, string]> = [[resumeKind, "resume", `${candidate.first_name}_${candidate.last_name}_Resume.${resumeKind}`]]
  if (rng.chance(0.4)) documents.push(["txt", "cover_letter", `${candidate.first_name}_${candidate.last_name}_Cover_Letter.txt`])
  if (rng.chance(0.25)) documents.push(["png", "other", `${candidate.first_name}_${candidate.last_name}_Portfolio.png`])
  const email = candidate.email_addresses[0]?.value ?? ""
  for (const [kind, type, filename] of documents) {
    const fileId = state.next.file++
    registerGeneratedFile(files, seed, fileId, kind, filename.replace(/\s+/g, "_"), { ...candidate, email })
    state.attachments.push({ file_id: fileId, candidate_id: candidate.id, application_id: applicationId, filename: filename.replace(/\s+/g, "_"), type, content_type: MEDIA[kind], created_at: appliedAt })
  }
}
