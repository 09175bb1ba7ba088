import type { AtsState } from "./data.js"
import { validationError } from "./errors.js"
import { intParam, stringParam, type Body } from "./params.js"

/** Users named in request bodies: by id or email (recruiter, coordinator), or as a referrer. */

export interface Referrer {
  /** The user credited, when the referrer is one of ours. */
  readonly userId: number | null
  readonly raw: { type: string; value: string }
}

const userByEmail = (state: AtsState, email: string) => [...state.users.values()].find((user) => user.email.toLowerCase() === email.toLowerCase())

/** `{id}`, `{user_id}` or `{email}` of an existing user → the user's id. */
export const resolveUser = (state: AtsState, value: Body, field: string): number => {
  if (typeof value !== "object" || value === null) throw validationError(`${field} must be an object`, field)
  const id = value["id"] ?? value["user_id"]
  if (id !== undefined) {
    const userId = Number(id)
    if (!state.users.has(userId)) throw validationError(`User ${String(id)} was not found`, field)
    return userId
  }
  if (typeof value["email"] === "string") {
    const user = userByEmail(state, value["email"])
    if (user === undefined) throw validationError(`No user with email ${value["email"]}`, field)
    return user.id
  }
  throw validationError(`${field}[id] or ${field}[email] is required`, field)
}

/** `{type: id | email | outside, value}`; absent or null is no referrer. */
export const parseReferrer = (state: AtsState, value: unknown): Referrer | undefined => {
  if (value === undefined || value === null) return undefined
  if (typeof value !== "object") throw validationError("referrer must be an object", "referrer")
  const referrer = value as Body
  const type = stringParam(referrer["type"], "referrer.type", true) as string
  const referrerValue = referrer["value"]
  if (referrerValue === undefined || referrerValue === null) throw validationError("referrer.value is required", "referrer.value")
  if (type === "id") {
    const userId = Number(referrerValue)
    if (!state.users.has(userId)) throw validationError(`User ${String(referrerValue)} was not found`, "referrer.value")
    return { userId, raw: { type, value: String(referrerValue) } }
  }
  if (type === "email") {
    const user = userByEmail(state, String(referrerValue))
    if (user === undefined) throw validationError(`No user with email ${String(referrerValue)}`, "referrer.value")
    return { userId: user.id, raw: { type, value: String(referrerValue) } }
  }
  if (type === "outside") return { userId: null, raw: { type, value: String(referrerValue) } }
  throw validationError("referrer.type must be one of: id, email, outside", "referrer.type")
}

/** The author a note or email names in `user_id` (required without an acting user), else the acting user. */
export const authorId = (state: AtsState, body: Body, actingUserId: number | null): number => {
  const userId = intParam(body["user_id"], "user_id", actingUserId === null) ?? (actingUserId as number)
  if (!state.users.has(userId)) throw validationError(`User ${userId} was not found`, "user_id")
  return userId
}
