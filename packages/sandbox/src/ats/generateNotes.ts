import type { Rng } from "../prng.js"
import type { AtsState } from "./data.js"

/** Recruiters' notes on a candidate, zero to two, written in the hours after the first application. */

export interface NoteRec {
  id: number
  candidate_id: number
  application_id: number | null
  created_at: number
  updated_at: number
  body: string
  user_id: number
  visibility: "admin_only" | "private" | "public"
}

export const generateNotes = (state: AtsState, rng: Rng, candidateId: number, applicationId: number, appliedAt: number, userIds: ReadonlyArray<number>): void => {
  const noteCount = rng.int(0, 2)
  for (let noteIndex = 0; noteIndex < noteCount; noteIndex++) {
    const noteId = state.next.note++
    const at = appliedAt + rng.int(1, 20) * 3600000
    state.notes.set(noteId, {
      id: noteId,
      candidate_id: candidateId,
      application_id: applicationId,
      created_at: at,
      updated_at: at,
      body: rng.pick(["Strong background, worth a closer look.", "Asked about remote work options.", "Great portfolio.", "Follow up next week about availability.", "Referred by a former colleague."]),
      user_id: rng.pick(userIds),
      visibility: rng.pick(["admin_only", "private", "public"] as const)
    })
  }
}
