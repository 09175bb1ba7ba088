import { DAY } from "../clock.js"
import type { Rng } from "../prng.js"
import type { ApplicationRec, AtsState } from "./data.js"
import type { JobRec } from "./generateJobs.js"

/**
 * Offers on applications that reached the Offer stage. Some come with an older, deprecated
 * version first, as when an offer is revised.
 */

export interface OfferRec {
  id: number
  version: number
  application_id: number
  job_id: number
  candidate_id: number
  created_at: number
  updated_at: number
  sent_at: string | null
  resolved_at: number | null
  starts_at: string | null
  status: "unresolved" | "accepted" | "rejected" | "deprecated"
  custom_fields: Record<string, unknown>
}

/**
 * Adds the application's current offer, made at `at` and resolved at `resolvedAt` (null while
 * unresolved); three times in ten a deprecated version 1 comes before it.
 */
export const generateOffer = (state: AtsState, rng: Rng, app: ApplicationRec, at: number, status: OfferRec["status"], resolvedAt: number | null = null): void => {
  const job = state.jobs.get(app.job_id as number) as JobRec
  const base = {
    application_id: app.id,
    job_id: job.id,
    candidate_id: app.candidate_id,
    starts_at: new Date(at + rng.int(14, 45) * DAY).toISOString().slice(0, 10),
    custom_fields: { employment_type: rng.pick(["Full-time", "Part-time", "Contractor"]), salary: { value: rng.int(70, 220) * 1000, currency: "USD" } }
  }
  if (rng.chance(0.3)) {
    const oldId = state.next.offer++
    state.offers.set(oldId, { ...base, id: oldId, version: 1, created_at: at - 2 * DAY, updated_at: at, sent_at: null, resolved_at: null, status: "deprecated" })
  }
  const id = state.next.offer++
  const version = [...state.offers.values()].filter((offer) => offer.application_id === app.id).length + 1
  state.offers.set(id, {
    ...base,
    id,
    version,
    created_at: at,
    updated_at: resolvedAt ?? at,
    sent_at: new Date(at).toISOString().slice(0, 10),
    resolved_at: resolvedAt,
    status
  })
}
