import type { Rng } from "../prng.js"
import type { AtsState } from "./data.js"
import type { CandidateRec } from "./generateCandidates.js"
import type { JobRec } from "./generateJobs.js"
import type { UserRec } from "./generateUsers.js"

/** E-mails sent to candidates: half of them get a thank-you for their first application. */

export interface EmailRec {
  id: number
  candidate_id: number
  application_id: number | null
  created_at: number
  subject: string
  body: string
  from: string
  to: string
  cc: Array<string> | null
  user_id: number
}

export const generateEmails = (
  state: AtsState,
  rng: Rng,
  candidate: CandidateRec,
  applicationId: number,
  job: JobRec,
  appliedAt: number,
  userIds: ReadonlyArray<number>
): void => {
  if (!rng.chance(0.5)) return
  const emailId = state.next.email++
  const userId = rng.pick(userIds)
  const at = appliedAt + rng.int(1, 48) * 3600000
  state.emails.set(emailId, {
    id: emailId,
    candidate_id: candidate.id,
    application_id: applicationId,
    created_at: at,
    subject: `Your application for ${job.name}`,
    body: `Hi ${candidate.first_name}, thanks for applying! We will be in touch soon.`,
    from: (state.users.get(userId) as UserRec).email,
    to: candidate.email_addresses[0]?.value ?? "",
    cc: null,
    user_id: userId
  })
}
