import { DATA_START, DAY, SANDBOX_NOW } from "../clock.js"
import { rngFor } from "../prng.js"
import * as W from "../words.js"
import type { AtsState } from "./data.js"
import { slug } from "./recordText.js"

/**
 * The ATS's candidates. Creation times run from DATA_START to 90 days before SANDBOX_NOW, one
 * candidate at a random point of each equal slice, so ids and creation order agree. Applications
 * come later (generateAts), and last_activity and updated_at are then taken from them.
 */

export interface CandidateRec {
  id: number
  first_name: string
  last_name: string
  company: string | null
  title: string | null
  created_at: number
  updated_at: number
  last_activity: number
  is_private: boolean
  phone_numbers: Array<{ value: string; type: string }>
  addresses: Array<{ value: string; type: string }>
  email_addresses: Array<{ value: string; type: string }>
  website_addresses: Array<{ value: string; type: string }>
  social_media_addresses: Array<{ value: string }>
  recruiter_id: number | null
  coordinator_id: number | null
  can_email: boolean
  tags: Array<string>
  educations: Array<Record<string, unknown>>
  employments: Array<Record<string, unknown>>
  custom_fields: Record<string, unknown>
  application_ids: Array<number>
}

/** At least one candidate, ids from ID_BASE.candidate on; each draws from its own generator. */
export const generateCandidates = (state: AtsState, seed: number, count: number, userIds: ReadonlyArray<number>): void => {
  const total = Math.max(1, count)
  const span = SANDBOX_NOW - 90 * DAY - DATA_START
  for (let index = 0; index < total; index++) {
    const rng = rngFor(seed, "ats-candidate", index)
    const id = state.next.candidate++
    const first = rng.pick(W.FIRST_NAMES)
    const last = rng.pick(W.LAST_NAMES)
    const created = DATA_START + Math.floor(((index + rng.next()) * span) / total)
    const city = rng.pick(W.CITIES)
    const email = `${slug(first)}.${slug(last)}${index + 1}@example.com`
    const employmentStart = created - rng.int(400, 3000) * DAY
    state.candidates.set(id, {
      id,
      first_name: first,
      last_name: last,
      company: rng.chance(0.9) ? rng.pick(W.COMPANIES) : null,
      title: rng.chance(0.9) ? rng.pick(W.TITLES) : null,
      created_at: created,
      updated_at: created,
      last_activity: created,
      is_private: rng.chance(0.05),
      phone_numbers: [{ value: `+1-555-${rng.digits(3)}-${rng.digits(4)}`, type: rng.pick(["mobile", "home", "work"]) }],
      addresses: [{ value: `${rng.int(1, 999)} ${rng.pick(W.STREETS)}\n${city[0]}${city[1] ? `, ${city[1]}` : ""} ${city[3]}\n${city[2]}`, type: "home" }],
      email_addresses: [
        { value: email, type: "personal" },
        ...(rng.chance(0.3) ? [{ value: `${slug(first)}@${slug(rng.pick(W.COMPANIES))}.example`, type: "work" }] : [])
      ],
      website_addresses: rng.chance(0.4) ? [{ value: `${slug(first)}${slug(last)}.example.com`, type: "personal" }] : [],
      social_media_addresses: rng.chance(0.6) ? [{ value: `linkedin.example.com/in/${slug(first)}-${slug(last)}-${index + 1}` }] : [],
      recruiter_id: rng.chance(0.8) ? rng.pick(userIds) : null,
      coordinator_id: rng.chance(0.4) ? rng.pick(userIds) : null,
      can_email: !rng.chance(0.05),
      tags: rng.sample(W.TAGS, rng.int(0, 3)),
      educations: [
        {
          id: 300000 + index * 2,
          school_name: rng.pick(W.SCHOOLS),
          degree: rng.pick(W.DEGREES),
          discipline: rng.pick(W.DISCIPLINES),
          start_date: new Date(employmentStart - 4 * 365 * DAY).toISOString(),
          end_date: new Date(employmentStart - 60 * DAY).toISOString()
        }
      ],
      employments: [
        {
          id: 400000 + index * 2,
          company_name: rng.pick(W.COMPANIES),
          title: rng.pick(W.TITLES),
          start_date: new Date(employmentStart).toISOString(),
          end_date: rng.chance(0.5) ? null : new Date(created - rng.int(10, 300) * DAY).toISOString()
        }
      ],
      custom_fields: {
        desired_salary: `$${rng.int(60, 220)},000`,
        work_remotely: rng.chance(0.5)
      },
      application_ids: []
    })
  }
}
