import { Either } from "effect"
import type { ActionDefinition, ActionInput } from "./ConnectorDefinition.js"
import { parseDateTime, toBoolean } from "./coerce.js"
import { ActionInputError, type InputIssue } from "./RunErrors.js"

/*
 * Inputs reach an action flat (`{id, page_size, body, ...}`). Declared inputs are checked
 * and coerced (query strings carry numbers and booleans as text); undeclared ones pass
 * through untouched, because connectors read `inputs.body`, `inputs.proxy` or
 * `inputs.filter_*` without always declaring them.
 */

export type ActionInputs = Readonly<Record<string, unknown>>

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/

/** Absent for optional inputs: missing, null, or "" (an empty query parameter). */
const isAbsent = (value: unknown): boolean => value === undefined || value === null || value === ""

const describe = (value: unknown): string =>
  Array.isArray(value) ? "an array" : value === null ? "null" : typeof value === "object" ? "an object" : `a ${typeof value}`

type Checked = Either.Either<unknown, string>

const checkOne = (input: ActionInput, value: unknown): Checked => {
  switch (input.type) {
    case "string":
      if (typeof value === "string") return Either.right(value)
      if (typeof value === "number" || typeof value === "boolean") return Either.right(String(value))
      return Either.left(`must be a string, got ${describe(value)}`)
    case "number": {
      if (typeof value === "number" && Number.isFinite(value)) return Either.right(value)
      if (typeof value === "string" && NUMERIC.test(value.trim())) return Either.right(Number(value.trim()))
      return Either.left(`must be a number, got ${typeof value === "string" ? "non-numeric text" : describe(value)}`)
    }
    case "boolean": {
      const bool = toBoolean(value)
      return bool === null ? Either.left(`must be a boolean (true or false)`) : Either.right(bool)
    }
    case "datetime_string":
      if (typeof value === "string" && parseDateTime(value) !== undefined && !/^\s*-?\d+(\.\d+)?\s*$/.test(value)) {
        return Either.right(value)
      }
      return Either.left("must be an ISO 8601 date or date-time")
    case "object": {
      if (isRecord(value)) return Either.right(value)
      if (typeof value === "string" && value.trim().startsWith("{")) {
        try {
          const parsed: unknown = JSON.parse(value)
          if (isRecord(parsed)) return Either.right(parsed)
        } catch {
          // reported below
        }
      }
      return Either.left(`must be an object, got ${describe(value)}`)
    }
    case "enum": {
      const text = typeof value === "number" || typeof value === "boolean" ? String(value) : value
      if (typeof text !== "string") return Either.left(`must be one of the allowed values, got ${describe(value)}`)
      const allowed = input.oneOf?.values
      if (allowed !== undefined && allowed.length > 0 && !allowed.includes(text)) {
        const shown = allowed.slice(0, 20).join(", ")
        return Either.left(`must be one of ${shown}${allowed.length > 20 ? ", ..." : ""}`)
      }
      return Either.right(text)
    }
  }
}

/**
 * Nested inputs of an object input, when its `properties` lists them in the inputs' own
 * shape (`{name, type, required, properties}`, no `in`); other shapes describe nothing.
 */
type NestedInput = Pick<ActionInput, "name" | "type" | "required" | "array" | "properties" | "oneOf">

const nestedInputs = (properties: unknown): ReadonlyArray<NestedInput> | undefined =>
  Array.isArray(properties) && properties.length > 0 &&
    properties.every((item) => isRecord(item) && typeof item.name === "string" && typeof item.type === "string")
    ? properties as ReadonlyArray<NestedInput>
    : undefined

/** Checks `fields` inside `value` as inputs named `<prefix>.<name>`; the object with coerced members. */
const checkMembers = (
  fields: ReadonlyArray<NestedInput>,
  value: Record<string, unknown>,
  prefix: string,
  issues: Array<InputIssue>
): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...value }
  for (const field of fields) {
    const name = `${prefix}.${field.name}`
    const member = Object.prototype.hasOwnProperty.call(value, field.name) ? value[field.name] : undefined
    if (isAbsent(member)) {
      if (field.required === true) issues.push({ input: name, message: "is required" })
      continue
    }
    const checked = checkInput({ ...field, name } as ActionInput, member, issues)
    if (checked !== undefined) out[field.name] = checked
  }
  return out
}

const checkInput = (input: ActionInput, value: unknown, issues: Array<InputIssue>): unknown => {
  if (input.array === true) {
    let items: ReadonlyArray<unknown>
    if (Array.isArray(value)) items = value
    else if (typeof value === "string" && input.type !== "object") items = value.split(",").map((item) => item.trim())
    else items = [value]
    const out: Array<unknown> = []
    const fields = input.type === "object" ? nestedInputs(input.properties) : undefined
    items.forEach((item, index) => {
      const name = `${input.name}[${index}]`
      const checked = checkOne(input, item)
      if (Either.isLeft(checked)) issues.push({ input: name, message: checked.left })
      else out.push(fields === undefined ? checked.right : checkMembers(fields, checked.right as Record<string, unknown>, name, issues))
    })
    return out
  }
  if (Array.isArray(value) && input.type !== "object") {
    issues.push({ input: input.name, message: "must be a single value, not a list" })
    return undefined
  }
  const checked = checkOne(input, value)
  if (Either.isLeft(checked)) {
    issues.push({ input: input.name, message: checked.left })
    return undefined
  }
  const fields = input.type === "object" ? nestedInputs(input.properties) : undefined
  return fields === undefined ? checked.right : checkMembers(fields, checked.right as Record<string, unknown>, input.name, issues)
}

/**
 * Checks `inputs` against the action's declared inputs: required ones present, each
 * value of its type (numeric and boolean text coerced, enums within `oneOf.values`,
 * `array` inputs as lists or comma-separated text, an object's listed `properties` the
 * same way, named `body.candidate.id`). Optional inputs given as null or "" are dropped.
 * Undeclared inputs pass through unchanged.
 */
export const validateInputs = (
  action: Pick<ActionDefinition, "inputs">,
  inputs: ActionInputs
): Either.Either<Record<string, unknown>, ActionInputError> => {
  const out: Record<string, unknown> = { ...inputs }
  const issues: Array<InputIssue> = []
  for (const input of action.inputs ?? []) {
    const value = Object.prototype.hasOwnProperty.call(inputs, input.name) ? inputs[input.name] : undefined
    if (isAbsent(value) || (input.array === true && Array.isArray(value) && value.length === 0)) {
      if (input.required === true) issues.push({ input: input.name, message: "is required" })
      delete out[input.name]
      continue
    }
    const checked = checkInput(input, value, issues)
    if (checked !== undefined) out[input.name] = checked
    else delete out[input.name]
  }
  return issues.length > 0 ? Either.left(ActionInputError.fromIssues(issues)) : Either.right(out)
}

export interface RequestParts {
  readonly query?: Readonly<Record<string, unknown>> | undefined
  readonly path?: Readonly<Record<string, unknown>> | undefined
  readonly body?: unknown
  readonly headers?: Readonly<Record<string, string | ReadonlyArray<string> | undefined>> | undefined
}

const headerValue = (headers: RequestParts["headers"], name: string): unknown => {
  if (headers === undefined) return undefined
  const wanted = name.toLowerCase()
  for (const key of Object.keys(headers)) if (key.toLowerCase() === wanted) return headers[key]
  return undefined
}

/**
 * Flat inputs from an RPC request's parts, by each declared input's `in`:
 *   - `query` (the default) reads `query[name]`, `path` reads `path[name]`,
 *     `headers` reads the header of that name (case-insensitive);
 *   - `body`: an input named `body` receives the whole body, any other reads `body[name]`.
 * Undeclared query and path parameters pass through under their own names, and the body
 * as `body` when no declared input reads it. Undeclared headers never pass through (they
 * may carry the caller's own credentials).
 */
export const inputsFromRequest = (
  action: Pick<ActionDefinition, "inputs">,
  parts: RequestParts
): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...parts.query, ...parts.path }
  const declared = action.inputs ?? []
  let bodyRead = false
  for (const input of declared) {
    let value: unknown
    switch (input.in ?? "query") {
      case "query":
        value = parts.query?.[input.name]
        break
      case "path":
        value = parts.path?.[input.name] ?? parts.query?.[input.name]
        break
      case "headers":
        value = headerValue(parts.headers, input.name)
        break
      case "body":
        bodyRead = true
        value = input.name === "body" ? parts.body : isRecord(parts.body) ? parts.body[input.name] : undefined
        break
    }
    if (value !== undefined) out[input.name] = value
    else delete out[input.name]
  }
  if (!bodyRead && parts.body !== undefined && !("body" in out)) out.body = parts.body
  return out
}
