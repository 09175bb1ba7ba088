import { DATA_START, DAY, SANDBOX_NOW } from "../clock.js"
import { hash32, rngFor } from "../prng.js"
import * as W from "../words.js"

/**
 * The Recruitee look-alike's records (ATS API, https://api.recruitee.com/c/{company_id}). Field names are
 * those the documentation lists (docs.recruitee.com/reference/candidates-get: admin_id, emails, name, phones,
 * placements; /reference/offersid-post: title, status, position) plus id, created_at and updated_at as
 * Recruitee writes them (career.recruitee.com/docs). What a placement holds (its offer_id, stage_id,
 * disqualified, disqualify_reason) is not on the stored pages; see the connector's comments. Disqualify
 * reasons are the company's configured list ({id, name, position}, GET /disqualify_reasons as public
 * integrations read it); a placement carries its reason's name.
 */

export interface RecruiteePlacement {
  id: number
  candidate_id: number
  offer_id: number
  stage_id: number
  disqualified: boolean
  disqualify_reason: string | null
  created_at: number
  updated_at: number
}

export interface RecruiteeCandidate {
  id: number
  name: string
  emails: Array<string>
  phones: Array<string>
  admin_id: number | null
  created_at: number
  updated_at: number
  placements: Array<RecruiteePlacement>
}

/** "Status of the job. Possible values: draft, internal, published, closed, archived" (offersid-post). */
export type OfferStatus = "draft" | "internal" | "published" | "closed" | "archived"

export interface RecruiteeOffer {
  id: number
  title: string
  kind: "job" | "talent_pool"
  status: OfferStatus
  position: number
  department_id: number
  created_at: number
  updated_at: number
}

export interface RecruiteeDepartment {
  id: number
  name: string
}

export interface RecruiteeDisqualifyReason {
  id: number
  name: string
  position: number
}

export interface RecruiteeState {
  readonly companyId: string
  readonly candidates: Array<RecruiteeCandidate>
  readonly offers: Array<RecruiteeOffer>
  readonly departments: Array<RecruiteeDepartment>
  /** A company-wide pipeline: placements stand in one of these stages. */
  readonly stages: ReadonlyArray<{ id: number; name: string }>
  readonly disqualifyReasons: ReadonlyArray<RecruiteeDisqualifyReason>
  readonly next: { candidate: number; placement: number }
}

/** The company the look-alike serves (a company id, as the support FAQ shows it after `company=`). */
export const RECRUITEE_COMPANY_ID = "72041"

export const recruiteeToken = (seed: number): string => `rt_${hash32(seed, "recruitee-token").toString(16).padStart(8, "0")}${hash32(seed, "recruitee-token", 2).toString(16).padStart(8, "0")}`

const STAGES = ["Applied", "Phone screen", "Interview", "Offer", "Hired"] as const
const REASONS = ["Not enough experience", "Salary expectations", "Withdrew application", "Position filled"] as const
const STATUSES: ReadonlyArray<OfferStatus> = ["published", "published", "published", "internal", "closed", "draft", "archived", "published"]

const slug = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, "")

export const generateRecruitee = (seed: number, counts = { candidates: 60, offers: 8 }): RecruiteeState => {
  const departments = W.DEPARTMENTS.slice(0, 5).map((name, i) => ({ id: 3100 + i, name }))
  const offers: Array<RecruiteeOffer> = []
  for (let i = 0; i < counts.offers; i++) {
    const rng = rngFor(seed, "recruitee-offer", i)
    const created = DATA_START - rng.int(5, 120) * DAY
    const talentPool = i === counts.offers - 1
    offers.push({
      id: 910000 + i * 7,
      title: talentPool ? "General talent pool" : (W.JOB_NAMES[i % W.JOB_NAMES.length] as string),
      kind: talentPool ? "talent_pool" : "job",
      status: talentPool ? "published" : (STATUSES[i % STATUSES.length] as OfferStatus),
      position: i + 1,
      department_id: rng.pick(departments).id,
      created_at: created,
      updated_at: created + rng.int(1, 60) * DAY
    })
  }
  const stages = STAGES.map((name, i) => ({ id: 5500 + i, name }))
  const disqualifyReasons = REASONS.map((name, i) => ({ id: 7700 + i, name, position: i }))
  const state: RecruiteeState = {
    companyId: RECRUITEE_COMPANY_ID,
    candidates: [],
    offers,
    departments,
    stages,
    disqualifyReasons,
    next: { candidate: 4200001, placement: 880001 }
  }
  for (let i = 0; i < counts.candidates; i++) {
    const rng = rngFor(seed, "recruitee-candidate", i)
    const first = rng.pick(W.FIRST_NAMES)
    const last = rng.pick(W.LAST_NAMES)
    const id = state.next.candidate++
    const created = DATA_START + Math.floor((i / counts.candidates) * (SANDBOX_NOW - DATA_START - 30 * DAY)) + rng.int(0, 86399) * 1000
    const candidate: RecruiteeCandidate = {
      id,
      name: `${first} ${last}`,
      emails: [`${slug(first)}.${slug(last)}${i}@example.org`],
      phones: rng.chance(0.7) ? [`+1 555 ${String(rng.int(100, 999))} ${String(rng.int(1000, 9999))}`] : [],
      admin_id: rng.chance(0.5) ? 61 + rng.int(0, 3) : null,
      created_at: created,
      updated_at: created,
      placements: []
    }
    for (const offer of rng.sample(offers, rng.int(0, 2))) {
      const at = Math.max(created, offer.created_at) + rng.int(0, 20) * DAY
      const disqualified = rng.chance(0.2)
      candidate.placements.push({
        id: state.next.placement++,
        candidate_id: id,
        offer_id: offer.id,
        stage_id: (stages[rng.int(0, stages.length - 1)] as { id: number }).id,
        disqualified,
        disqualify_reason: disqualified ? rng.pick(REASONS) : null,
        created_at: at,
        updated_at: at + rng.int(0, 10) * DAY
      })
      candidate.updated_at = Math.max(candidate.updated_at, at + rng.int(0, 10) * DAY)
    }
    state.candidates.push(candidate)
  }
  return state
}
