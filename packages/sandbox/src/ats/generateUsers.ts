import { DATA_START, DAY } from "../clock.js"
import { rngFor } from "../prng.js"
import * as W from "../words.js"
import { ID_BASE } from "./idBase.js"
import { slug } from "./recordText.js"

/**
 * The ATS's users (recruiters, interviewers, hiring managers). The first is always "Sandbox Admin",
 * the site admin that writes act on behalf of by default.
 */

export interface UserRec {
  id: number
  first_name: string
  last_name: string
  email: string
  employee_id: string | null
  created_at: number
  updated_at: number
  site_admin: boolean
  disabled: boolean
}

/** At least one user; each draws from its own generator, so a user does not depend on the count. */
export const generateUsers = (seed: number, count: number): Map<number, UserRec> => {
  const users = new Map<number, UserRec>()
  for (let index = 0; index < Math.max(1, count); index++) {
    const rng = rngFor(seed, "ats-user", index)
    const first = index === 0 ? "Sandbox" : rng.pick(W.FIRST_NAMES)
    const last = index === 0 ? "Admin" : rng.pick(W.LAST_NAMES)
    const created = DATA_START - rng.int(30, 400) * DAY
    users.set(ID_BASE.user + index, {
      id: ID_BASE.user + index,
      first_name: first,
      last_name: last,
      email: `${slug(first)}.${slug(last)}@sandbox-company.example`,
      employee_id: rng.chance(0.7) ? `E${rng.digits(5)}` : null,
      created_at: created,
      updated_at: created + rng.int(0, 200) * DAY,
      site_admin: index === 0,
      disabled: false
    })
  }
  return users
}
