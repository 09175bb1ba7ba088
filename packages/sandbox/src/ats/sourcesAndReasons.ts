/**
 * The fixed lists every ATS has: candidate sources and rejection reasons, with Greenhouse's ids
 * and types. Nothing here is random; each call returns fresh records, so a reset starts clean.
 */

export interface SourceRec {
  id: number
  name: string
  type: { id: number; name: string }
}

export interface ReasonRec {
  id: number
  name: string
  type: { id: number; name: string }
}

/** [name, type id, type name]; a source's id is its position from 1. */
const SOURCES: ReadonlyArray<readonly [string, number, string]> = [
  ["Jobs page on your website", 1, "Company Marketing"],
  ["LinkedIn (Prospecting)", 2, "Prospecting"],
  ["Referral", 3, "Referrals"],
  ["Indeed", 4, "Job Board"],
  ["Glassdoor", 4, "Job Board"],
  ["Talent Partners Agency", 5, "Agencies"],
  ["Campus Job Fair", 6, "Events"],
  ["Internal Applicant", 7, "Internal"]
]

const REASON_TYPES = { we: { id: 1, name: "We rejected them" }, they: { id: 2, name: "They rejected us" }, none: { id: 3, name: "None specified" } } as const

const REASONS: ReadonlyArray<readonly [number, string, keyof typeof REASON_TYPES]> = [
  [101, "Lacking skill(s)/qualification(s)", "we"],
  [102, "Not a culture fit", "we"],
  [103, "Hired another candidate", "we"],
  [104, "Position filled", "we"],
  [105, "Salary expectations too high", "we"],
  [106, "Accepted another offer", "they"],
  [107, "Withdrew application", "they"],
  [108, "Unresponsive", "none"],
  [109, "Missing resume", "none"]
]

export const sourceRecords = (): Map<number, SourceRec> => {
  const sources = new Map<number, SourceRec>()
  SOURCES.forEach(([name, typeId, typeName], index) => sources.set(index + 1, { id: index + 1, name, type: { id: typeId, name: typeName } }))
  return sources
}

export const rejectionReasonRecords = (): Map<number, ReasonRec> => {
  const reasons = new Map<number, ReasonRec>()
  for (const [id, name, type] of REASONS) reasons.set(id, { id, name, type: { ...REASON_TYPES[type] } })
  return reasons
}
