/**
 * How Teamtailor writes times: ISO 8601 with milliseconds and the account's UTC offset, e.g.
 * "2017-02-20T10:30:43.910+01:00" (docs.teamtailor.com examples). The look-alike's account is on
 * Stockholm's winter time, +01:00.
 */
const OFFSET_MINUTES = 60

export const ttDate = (ms: number): string => {
  const local = new Date(ms + OFFSET_MINUTES * 60_000).toISOString().slice(0, 23)
  const sign = OFFSET_MINUTES >= 0 ? "+" : "-"
  const abs = Math.abs(OFFSET_MINUTES)
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`
}

export const ttDateOrNull = (ms: number | null): string | null => (ms === null ? null : ttDate(ms))

/** A filter date (`filter[created-at][from]=...`): anything `Date` reads, else undefined. */
export const parseFilterDate = (text: string | null): number | undefined => {
  if (text === null || text === "") return undefined
  const ms = Date.parse(text)
  return Number.isNaN(ms) ? undefined : ms
}
