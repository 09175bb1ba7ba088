import type { RecruiteeCandidate, RecruiteeOffer, RecruiteePlacement, RecruiteeState } from "./data.js"

/** Records as the look-alike answers them: numeric ids, ISO 8601 times with milliseconds (as career.recruitee.com/docs shows). */

const iso = (ms: number): string => new Date(ms).toISOString()

export const placementView = (placement: RecruiteePlacement): Record<string, unknown> => ({
  id: placement.id,
  candidate_id: placement.candidate_id,
  offer_id: placement.offer_id,
  stage_id: placement.stage_id,
  disqualified: placement.disqualified,
  disqualify_reason: placement.disqualify_reason,
  created_at: iso(placement.created_at),
  updated_at: iso(placement.updated_at)
})

export const candidateView = (candidate: RecruiteeCandidate): Record<string, unknown> => ({
  id: candidate.id,
  name: candidate.name,
  emails: candidate.emails,
  phones: candidate.phones,
  admin_id: candidate.admin_id,
  followed: false,
  created_at: iso(candidate.created_at),
  updated_at: iso(candidate.updated_at),
  placements: candidate.placements.map(placementView)
})

export const offerView = (state: RecruiteeState, offer: RecruiteeOffer): Record<string, unknown> => ({
  id: offer.id,
  title: offer.title,
  kind: offer.kind,
  status: offer.status,
  position: offer.position,
  followed: false,
  department: state.departments.find((department) => department.id === offer.department_id)?.name ?? null,
  department_id: offer.department_id,
  created_at: iso(offer.created_at),
  updated_at: iso(offer.updated_at)
})
