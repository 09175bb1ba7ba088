import { rngFor } from "../prng.js"
import { LEVER_STAGES, opportunityUrls, uuid, type LeverOpportunity, type LeverState } from "./data.js"

/**
 * `POST /v1/opportunities` as Lever documents it: a JSON body whose fields are all optional, on
 * behalf of `perform_as` (required). An email that an existing contact has, or `contact`, links
 * the new opportunity to that contact (Lever dedupes: the contact's data wins, new emails, phones
 * and links are added). At most one posting; with one, the opportunity gets an application.
 */

export class CreateRefused extends Error {}

const ORIGINS = ["agency", "applied", "internal", "referred", "sourced", "university"] as const

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

const text = (body: Record<string, unknown>, name: string): string | undefined => {
  const value = body[name]
  if (value === undefined || value === null) return undefined
  if (typeof value !== "string") throw new CreateRefused(`${name} must be a string`)
  return value
}

const texts = (body: Record<string, unknown>, name: string): Array<string> => {
  const value = body[name]
  if (value === undefined || value === null) return []
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) throw new CreateRefused(`${name} must be an array of strings`)
  return value
}

const timestamp = (value: unknown, name: string): number | undefined => {
  if (value === undefined || value === null) return undefined
  if (typeof value !== "number" || !Number.isFinite(value)) throw new CreateRefused(`${name} must be a timestamp in milliseconds`)
  return value
}

const union = <T>(first: ReadonlyArray<T>, second: ReadonlyArray<T>, key: (item: T) => string): Array<T> => {
  const seen = new Set(first.map(key))
  return [...first, ...second.filter((item) => !seen.has(key(item)))]
}

/** The new opportunity (already added, newest first), or throws `CreateRefused` with Lever's reason. */
export const createOpportunity = (state: LeverState, performAs: string | null, input: unknown, now: number): LeverOpportunity => {
  if (performAs === null || performAs === "") throw new CreateRefused("Missing required query parameter: perform_as")
  if (!state.users.includes(performAs)) throw new CreateRefused(`perform_as ${performAs} is not a user of this account`)
  if (!isRecord(input)) throw new CreateRefused("The body must be a JSON object")
  const emails = texts(input, "emails")
  const links = texts(input, "links")
  const tags = texts(input, "tags")
  const sources = texts(input, "sources")
  const followers = texts(input, "followers")
  const postings = texts(input, "postings")
  const phonesRaw = input["phones"] ?? []
  if (!Array.isArray(phonesRaw) || !phonesRaw.every((p) => isRecord(p) && typeof p["value"] === "string" && (p["type"] === undefined || p["type"] === null || typeof p["type"] === "string"))) {
    throw new CreateRefused("phones must be an array of {type, value} objects")
  }
  const phones = phonesRaw.map((p) => ({ type: (p as { type?: string }).type ?? "other", value: (p as { value: string }).value }))
  const origin = text(input, "origin") ?? "sourced"
  if (!(ORIGINS as ReadonlyArray<string>).includes(origin)) throw new CreateRefused(`origin must be one of ${ORIGINS.join(", ")}`)
  const stage = text(input, "stage") ?? "lead-new"
  const stageIndex = (LEVER_STAGES as ReadonlyArray<string>).indexOf(stage)
  if (stageIndex < 0) throw new CreateRefused(`stages ${stage} was not found`)
  const owner = text(input, "owner") ?? performAs
  for (const user of [owner, ...followers]) if (!state.users.includes(user)) throw new CreateRefused(`users ${user} was not found`)
  if (postings.length > 1) throw new CreateRefused("Only one posting may be specified; send one request per posting")
  const postingId = postings[0]
  if (postingId !== undefined && !state.postings.some((p) => p.id === postingId)) throw new CreateRefused(`postings ${postingId} was not found`)
  const createdAt = timestamp(input["createdAt"], "createdAt") ?? now
  if (createdAt > now) throw new CreateRefused("createdAt cannot be in the future")
  let archived: LeverOpportunity["archived"] = null
  if (input["archived"] !== undefined && input["archived"] !== null) {
    const given = input["archived"]
    if (!isRecord(given) || typeof given["reason"] !== "string") throw new CreateRefused("archived must be an object with a reason")
    const reason = given["reason"]
    if (!state.archiveReasons.some((r) => r.id === reason)) throw new CreateRefused(`archive_reasons ${reason} was not found`)
    const archivedAt = timestamp(given["archivedAt"], "archived.archivedAt") ?? now
    if (archivedAt < createdAt) throw new CreateRefused("archived.archivedAt must not be before createdAt")
    archived = { reason, archivedAt }
  }

  const contactId = text(input, "contact")
  const lower = emails.map((e) => e.toLowerCase())
  const match = contactId !== undefined
    ? state.opportunities.find((o) => o.contact === contactId)
    : state.opportunities.find((o) => o.emails.some((e) => lower.includes(e.toLowerCase())))
  if (contactId !== undefined && match === undefined) throw new CreateRefused(`contacts ${contactId} was not found`)

  const rng = rngFor(state.seed, "lever-created", state.created++)
  const id = uuid(rng)
  const contact = match?.contact ?? uuid(rng)
  const applicationId = uuid(rng)
  const opportunity: LeverOpportunity = {
    id,
    name: match?.name ?? text(input, "name") ?? "",
    headline: match?.headline ?? text(input, "headline") ?? "",
    contact,
    emails: union(match?.emails ?? [], emails, (e) => e.toLowerCase()),
    phones: union(match?.phones ?? [], phones, (p) => p.value),
    confidentiality: "non-confidential",
    location: match?.location ?? text(input, "location") ?? "",
    links: union(match?.links ?? [], links, (l) => l),
    archived,
    createdAt,
    updatedAt: now,
    lastInteractionAt: now,
    lastAdvancedAt: createdAt,
    snoozedUntil: null,
    stage,
    stageChanges: [{ toStageId: stage, toStageIndex: stageIndex, updatedAt: createdAt, userId: performAs }],
    owner,
    followers: union([performAs], [owner, ...followers], (u) => u),
    applications: postingId === undefined ? [] : [applicationId],
    sources,
    origin: origin as LeverOpportunity["origin"],
    sourcedBy: origin === "sourced" ? performAs : null,
    tags,
    isAnonymized: false,
    dataProtection: null,
    urls: opportunityUrls(id),
    postingId: postingId ?? ""
  }
  // Lever lists newest first
  const at = state.opportunities.findIndex((o) => o.createdAt < createdAt)
  state.opportunities.splice(at < 0 ? state.opportunities.length : at, 0, opportunity)
  return opportunity
}
