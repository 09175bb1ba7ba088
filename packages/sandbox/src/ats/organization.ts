import * as W from "../words.js"

/**
 * The organization's departments and offices (Harvest's department and office objects). Fixed
 * lists, nothing random: department ids count from 40001 and office ids from 45001 in the order of
 * words.ts, which is how jobs name them. Flat: no parents, children or external ids.
 */

export interface DepartmentRec {
  id: number
  name: string
}

export interface OfficeRec {
  id: number
  name: string
  /** Harvest's `location.name`. */
  location: string
}

export const DEPARTMENT_BASE = 40001
export const OFFICE_BASE = 45001

const OFFICE_LOCATIONS: Record<(typeof W.OFFICES)[number], string> = {
  "New York": "New York, New York, United States",
  "San Francisco": "San Francisco, California, United States",
  Austin: "Austin, Texas, United States",
  Toronto: "Toronto, Ontario, Canada",
  London: "London, England, United Kingdom",
  Berlin: "Berlin, Germany",
  Remote: "Remote"
}

export const departmentRecords = (): Map<number, DepartmentRec> =>
  new Map(W.DEPARTMENTS.map((name, index) => [DEPARTMENT_BASE + index, { id: DEPARTMENT_BASE + index, name }]))

export const officeRecords = (): Map<number, OfficeRec> =>
  new Map(W.OFFICES.map((name, index) => [OFFICE_BASE + index, { id: OFFICE_BASE + index, name, location: OFFICE_LOCATIONS[name] }]))
