import { parseDateTime, toIsoDateTime, toNumber, toText } from "./coerce.js"

/*
 * The helpers connector expressions may call (connector-format.md, "Expressions"). They
 * run on provider data, so none of them throws: a missing value (null or undefined) passes
 * through as it is, any other input a helper cannot read gives null (predicates give false).
 * Each is linear in its input; the evaluator bounds the length of what an expression yields.
 */

type Helper = (...args: Array<any>) => unknown

const isMissing = (value: unknown): value is null | undefined => value === undefined || value === null

const isPresent = (value: unknown): boolean =>
  value !== undefined && value !== null && value !== "" && !(Array.isArray(value) && value.length === 0)

/** Present strings, numbers and booleans: the parts `join` and `concat` keep. */
const isPresentScalar = (value: unknown): boolean =>
  isPresent(value) && ["string", "number", "boolean"].includes(typeof value)

/** A helper on text: a missing value passes through, anything but a string is null. */
const onText = (f: (text: string, ...args: Array<unknown>) => unknown): Helper =>
  (value: unknown, ...args: Array<unknown>) => (isMissing(value) ? value : typeof value === "string" ? f(value, ...args) : null)

/** A helper on a date-like value (ISO 8601, epoch seconds or milliseconds; see `parseDateTime`). */
const onDate = (f: (time: number, ...args: Array<unknown>) => unknown): Helper =>
  (value: unknown, ...args: Array<unknown>) => {
    if (isMissing(value)) return value
    const time = parseDateTime(value)
    return time === undefined || Number.isNaN(new Date(time).getTime()) ? null : f(time, ...args)
  }

/** `replace`, `join` and `concat` refuse to build more than this (null instead of a throw). */
export const MAX_REPLACED_LENGTH = 10_000_000
/** `split` keeps at most this many parts (a provider string split by "" could make millions). */
export const MAX_SPLIT_PARTS = 10_000

/** Joined text, or null when it would exceed the bound (V8 would throw past its string limit). */
const boundedJoin = (parts: ReadonlyArray<unknown>, separator: string) => {
  let length = 0
  for (const part of parts) length += String(part).length + separator.length
  return length > MAX_REPLACED_LENGTH ? null : parts.join(separator)
}

const DAY_MS = 86_400_000

const isFiniteNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value)

const pad = (value: number, width: number) => String(value).padStart(width, "0")

/** The tokens `formatDate` knows; any other character of a pattern is copied. */
const DATE_TOKENS = /YYYY|SSS|MM|DD|HH|mm|ss/g

const formatDate = (time: number, pattern: unknown): string | null => {
  if (typeof pattern !== "string") return null
  const date = new Date(time)
  return pattern.replace(DATE_TOKENS, (token) => {
    switch (token) {
      case "YYYY":
        return pad(date.getUTCFullYear(), 4)
      case "MM":
        return pad(date.getUTCMonth() + 1, 2)
      case "DD":
        return pad(date.getUTCDate(), 2)
      case "HH":
        return pad(date.getUTCHours(), 2)
      case "mm":
        return pad(date.getUTCMinutes(), 2)
      case "ss":
        return pad(date.getUTCSeconds(), 2)
      default:
        return pad(date.getUTCMilliseconds(), 3)
    }
  })
}

// Literal, every occurrence; never a regex (a connector's pattern could backtrack forever).
const replace = (text: string, search: unknown, replacement: unknown): string | null => {
  if (typeof search !== "string" || typeof replacement !== "string") return null
  if (search === "") return text
  const parts = text.split(search)
  const length = text.length + (parts.length - 1) * (replacement.length - search.length)
  return length > MAX_REPLACED_LENGTH ? null : parts.join(replacement)
}

const substring = (text: string, start: unknown, end: unknown): string | null => {
  if (!isFiniteNumber(start) || (end !== undefined && !isFiniteNumber(end))) return null
  return text.slice(Math.trunc(start), end === undefined ? undefined : Math.trunc(end))
}

const string = (value: unknown): unknown => {
  if (isMissing(value)) return value
  if (typeof value === "object" && (Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype)) {
    try {
      return JSON.stringify(value)
    } catch {
      return null
    }
  }
  const text = toText(value)
  return typeof text === "string" ? text : null
}

/**
 * Called as functions (`lower(x)`) and as transforms (`x|lower`, the subject being the
 * first argument). `toString` cannot be one: jexl's lexer reads `Object.prototype` names
 * as grammar elements, so `string` is the only name of that helper.
 */
export const expressionHelpers: Readonly<Record<string, Helper>> = {
  present: (value: unknown) => isPresent(value),
  missing: (value: unknown) => !isPresent(value),
  includes: (collection: unknown, item: unknown) =>
    Array.isArray(collection)
      ? collection.includes(item)
      : typeof collection === "string" && typeof item === "string"
      ? collection.includes(item)
      : false,
  keys: (value: unknown) =>
    typeof value === "object" && value !== null && !Array.isArray(value) ? Object.keys(value) : [],
  // Readable text from a list (e.g. a note's lines): the present strings, numbers and booleans only.
  join: (values: unknown, separator: unknown = ", ") =>
    boundedJoin((Array.isArray(values) ? values : [values]).filter(isPresentScalar), typeof separator === "string" ? separator : ", "),
  now: () => new Date().toISOString(),
  // The distinct present values of a list, first seen first (strings, numbers and booleans);
  // with a key, the records with a present value under it, the first of each value (a feed's
  // positions, one per department they name).
  unique: (values: unknown, key?: unknown) => {
    if (!Array.isArray(values)) return isMissing(values) ? values : null
    if (typeof key !== "string") return [...new Set(values.filter(isPresentScalar))]
    const seen = new Set<unknown>()
    return values.filter((item) => {
      const value = typeof item === "object" && item !== null && !Array.isArray(item) ? (item as Record<string, unknown>)[key] : undefined
      if (!isPresentScalar(value) || seen.has(value)) return false
      seen.add(value)
      return true
    })
  },

  // ---- strings
  lower: onText((text) => text.toLowerCase()),
  upper: onText((text) => text.toUpperCase()),
  trim: onText((text) => text.trim()),
  split: onText((text, separator) => (typeof separator === "string" ? text.split(separator, MAX_SPLIT_PARTS) : null)),
  replace: onText(replace),
  // positions from 0, the end excluded; negative ones count from the end
  substring: onText(substring),
  length: (value: unknown) =>
    isMissing(value) ? value : typeof value === "string" || Array.isArray(value) ? value.length : null,
  startsWith: (text: unknown, prefix: unknown) =>
    typeof text === "string" && typeof prefix === "string" && text.startsWith(prefix),
  endsWith: (text: unknown, suffix: unknown) =>
    typeof text === "string" && typeof suffix === "string" && text.endsWith(suffix),
  concat: (...parts: Array<unknown>) => boundedJoin(parts.filter(isPresentScalar), ""),
  string,
  number: (value: unknown) => (isMissing(value) ? value : toNumber(value)),

  // ---- dates, all UTC
  date: (value: unknown) => (isMissing(value) ? value : toIsoDateTime(value)),
  formatDate: onDate(formatDate),
  addDays: onDate((time, days) => (isFiniteNumber(days) ? toIsoDateTime(new Date(time + days * DAY_MS)) : null)),
  toEpoch: onDate((time) => Math.floor(time / 1000)),
  fromEpoch: (seconds: unknown) => {
    if (isMissing(seconds)) return seconds
    const number = typeof seconds === "boolean" ? null : toNumber(seconds)
    return number === null ? null : toIsoDateTime(new Date(number * 1000))
  }
}
