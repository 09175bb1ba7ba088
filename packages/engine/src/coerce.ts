/*
 * Type coercions of `map_fields` / `typecast` (field `type`). Values that cannot be
 * coerced become `null` for numbers, booleans and dates (a unified record must not carry
 * a malformed value under a typed field); `string` keeps objects as they are.
 */

/** Epoch values above this are milliseconds, below it seconds (1e11 s is the year 5138). */
const MILLISECONDS_THRESHOLD = 1e11

const DAY_MS = 86_400_000

/** Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's days_from_civil). */
const daysFromCivil = (year: number, month: number, day: number): number => {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yoe = y - era * 400
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146_097 + doe - 719_468
}

const daysInMonth = (year: number, month: number): number =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31

/** Value of the `count` ASCII digits at `at`, or -1. */
const digits = (text: string, at: number, count: number): number => {
  let value = 0
  for (let i = at; i < at + count; i++) {
    const code = text.charCodeAt(i) - 48
    if (code < 0 || code > 9) return -1
    value = value * 10 + code
  }
  return value
}

/**
 * ISO 8601 (`2024-01-15`, `2024-01-15T10:00`, `2024-01-15 10:00:00.123+02:00`, ...) read
 * by hand: a date without a zone is UTC, never the server's local time.
 */
const parseIso = (text: string): number | undefined => {
  const length = text.length
  if (length < 10 || text[4] !== "-" || text[7] !== "-") return undefined
  const year = digits(text, 0, 4)
  const month = digits(text, 5, 2)
  const day = digits(text, 8, 2)
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined
  let hour = 0
  let minute = 0
  let second = 0
  let millis = 0
  let at = 10
  if (at < length && (text[at] === "T" || text[at] === "t" || text[at] === " ") && at + 1 < length && text[at + 1] !== "+" && text[at + 1] !== "-") {
    hour = digits(text, at + 1, 2)
    if (text[at + 3] !== ":") return undefined
    minute = digits(text, at + 4, 2)
    if (hour < 0 || hour > 24 || minute < 0 || minute > 59) return undefined
    at += 6
    if (text[at] === ":") {
      second = digits(text, at + 1, 2)
      if (second < 0 || second > 60) return undefined
      at += 3
      if (text[at] === "." || text[at] === ",") {
        let scale = 100
        let i = at + 1
        for (; i < length; i++) {
          const code = text.charCodeAt(i) - 48
          if (code < 0 || code > 9) break
          millis += code * scale
          scale /= 10
        }
        if (i === at + 1 || i - at - 1 > 9) return undefined
        millis = Math.floor(millis)
        at = i
      }
    }
  }
  while (text[at] === " ") at++
  let offsetMinutes = 0
  if (at < length) {
    const sign = text[at]
    if ((sign === "Z" || sign === "z") && at + 1 === length) at++
    else if (sign === "+" || sign === "-") {
      const rest = length - at - 1
      const hours = digits(text, at + 1, 2)
      let minutes = 0
      if (rest === 5 && text[at + 3] === ":") minutes = digits(text, at + 4, 2)
      else if (rest === 4) minutes = digits(text, at + 3, 2)
      else if (rest !== 2) return undefined
      if (hours < 0 || minutes < 0 || minutes > 59) return undefined
      offsetMinutes = (sign === "-" ? -1 : 1) * (hours * 60 + minutes)
      at = length
    } else return undefined
  }
  if (at !== length) return undefined
  return daysFromCivil(year, month, day) * DAY_MS + ((hour * 60 + minute - offsetMinutes) * 60 + second) * 1000 + millis
}

const pad2 = (value: number) => (value < 10 ? `0${value}` : String(value))

/** `toISOString` by hand (several times faster; this is a per-record hot path). */
const formatIso = (time: number): string | null => {
  if (!Number.isFinite(time) || Math.abs(time) > 8.64e15) return null
  const days = Math.floor(time / DAY_MS)
  let rest = time - days * DAY_MS
  // Hinnant's civil_from_days
  const z = days + 719_468
  const era = Math.floor(z / 146_097)
  const doe = z - era * 146_097
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365)
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1
  const month = mp < 10 ? mp + 3 : mp - 9
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0)
  if (year < 0 || year > 9999) return new Date(time).toISOString()
  const hour = Math.floor(rest / 3_600_000)
  rest -= hour * 3_600_000
  const minute = Math.floor(rest / 60_000)
  rest -= minute * 60_000
  const second = Math.floor(rest / 1000)
  const millis = Math.round(rest - second * 1000)
  const ms = millis < 10 ? `00${millis}` : millis < 100 ? `0${millis}` : String(millis)
  return `${String(year).padStart(4, "0")}-${pad2(month)}-${pad2(day)}T${pad2(hour)}:${pad2(minute)}:${pad2(second)}.${ms}Z`
}

/**
 * Milliseconds since the epoch of a date-like value, or undefined. ISO 8601 strings
 * without a zone are read as UTC (never the server's local time); numbers and numeric
 * strings are epoch seconds or milliseconds; other strings go to `Date.parse` when they
 * name a zone (RFC 2822 and the like).
 */
export const parseDateTime = (value: unknown): number | undefined => {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime()
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return undefined
    return Math.abs(value) >= MILLISECONDS_THRESHOLD ? value : value * 1000
  }
  if (typeof value !== "string") return undefined
  const iso = parseIso(value)
  if (iso !== undefined) return iso
  const text = value.trim()
  if (text === "") return undefined
  if (text !== value) return parseDateTime(text)
  if (/^-?\d+(\.\d+)?$/.test(text)) return parseDateTime(Number(text))
  if (/^\d{4}-\d{2}-\d{2}/.test(text)) return undefined
  if (!/(GMT|UTC|Z\b|[+-]\d{2}:?\d{2})/.test(text)) return undefined
  const parsed = Date.parse(text)
  return Number.isNaN(parsed) ? undefined : parsed
}

/** ISO 8601 UTC with milliseconds (`2024-01-15T10:00:00.000Z`), or null. */
export const toIsoDateTime = (value: unknown): string | null => {
  const time = parseDateTime(value)
  return time === undefined ? null : formatIso(time)
}

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/

export const toNumber = (value: unknown): number | null => {
  if (typeof value === "number") return Number.isFinite(value) ? value : null
  if (typeof value === "string") {
    const text = value.trim()
    if (!NUMERIC.test(text)) return null
    const number = Number(text)
    return Number.isFinite(number) ? number : null
  }
  if (typeof value === "boolean") return value ? 1 : 0
  return null
}

export const toBoolean = (value: unknown): boolean | null => {
  if (typeof value === "boolean") return value
  if (typeof value === "number") return value === 1 ? true : value === 0 ? false : null
  if (typeof value === "string") {
    const text = value.trim().toLowerCase()
    if (text === "true" || text === "1" || text === "yes") return true
    if (text === "false" || text === "0" || text === "no") return false
  }
  return null
}

export const toText = (value: unknown): unknown => {
  if (typeof value === "string") return value
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value)
  return value
}

export type Coercion = (value: unknown) => unknown

const identity: Coercion = (value) => value

/**
 * The coercion for a field `type`; `null` and `undefined` pass through untouched.
 * Unknown types (`object`, `enum`, custom names) keep the value.
 */
export const coercionFor = (type: string | undefined): Coercion => {
  const wrap = (coerce: Coercion): Coercion => (value) => (value === undefined || value === null ? value : coerce(value))
  switch (type) {
    case "string":
      return wrap(toText)
    case "number":
    case "float":
    case "decimal":
      return wrap(toNumber)
    case "integer": {
      return wrap((value) => {
        const number = toNumber(value)
        return number === null ? null : Math.trunc(number)
      })
    }
    case "boolean":
      return wrap(toBoolean)
    case "datetime_string":
    case "date_time":
    case "datetime":
      return wrap(toIsoDateTime)
    default:
      return identity
  }
}
