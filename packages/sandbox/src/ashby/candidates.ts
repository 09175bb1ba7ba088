import type { Route } from "../router.js"
import type { AshbyContext } from "./AshbyContext.js"
import type { AshbyCandidate } from "./data.js"
import { invalidInput, notFound } from "./errors.js"

const optionalText = (body: Record<string, unknown>, field: string): string | undefined => {
  const value = body[field]
  if (value === undefined || value === null) return undefined
  if (typeof value !== "string") throw invalidInput(`${field} must be a string`)
  return value
}

const validUrl = (field: string, value: string): string => {
  try {
    new URL(value)
  } catch {
    throw invalidInput(`${field} must be a valid URL`)
  }
  return value
}

/** candidate.list, candidate.info and candidate.create. */
export const candidateRoutes = (context: AshbyContext): ReadonlyArray<Route> => [
  context.endpoint("candidate.list", (ctx, body) => {
    const views = context.views()
    context.page(ctx, body, { items: [...context.state.candidates.values()], updatedAt: (c) => c.updatedAt, view: (c) => views.candidate(c) })
  }),
  context.endpoint("candidate.info", (ctx, body) => {
    const candidate = context.state.candidates.get(context.required(body, "id"))
    if (candidate === undefined) throw notFound("candidate", "Candidate not found")
    context.ok(ctx, context.views().candidate(candidate))
  }),
  // name is required; email, phoneNumber, linkedInUrl, githubUrl, website, alternateEmailAddresses,
  // sourceId, creditedToUserId and location ({city, region, country}) are optional
  context.endpoint("candidate.create", (ctx, body) => {
    const name = context.required(body, "name")
    const email = optionalText(body, "email")
    const phone = optionalText(body, "phoneNumber")
    const alternates = body["alternateEmailAddresses"]
    if (alternates !== undefined && (!Array.isArray(alternates) || alternates.some((a) => typeof a !== "string"))) throw invalidInput("alternateEmailAddresses must be a list of strings")
    const sourceId = optionalText(body, "sourceId")
    if (sourceId !== undefined && !context.state.sources.some((s) => s.id === sourceId)) throw invalidInput("Unknown source")
    const creditedToUserId = optionalText(body, "creditedToUserId")
    if (creditedToUserId !== undefined && !context.state.users.has(creditedToUserId)) throw invalidInput("Unknown user")
    const links: Array<{ type: string; url: string }> = []
    for (const [field, type] of [["linkedInUrl", "LinkedIn"], ["githubUrl", "GitHub"], ["website", "Website"]] as const) {
      const url = optionalText(body, field)
      if (url !== undefined) links.push({ type, url: validUrl(field, url) })
    }
    const location = body["location"] as Record<string, unknown> | undefined
    const at = context.tick()
    const candidate: AshbyCandidate = {
      id: context.state.newId("candidate"),
      name,
      emails: [
        ...(email === undefined ? [] : [{ value: email, type: "Personal" as const, isPrimary: true }]),
        ...((alternates ?? []) as Array<string>).map((value) => ({ value, type: "Other" as const, isPrimary: false }))
      ],
      phones: phone === undefined ? [] : [{ value: phone, type: "Personal", isPrimary: true }],
      socialLinks: links,
      tags: [],
      position: null,
      company: null,
      school: null,
      sourceId: sourceId ?? null,
      creditedToUserId: creditedToUserId ?? null,
      location: location === undefined || location === null
        ? null
        : { city: String(location["city"] ?? ""), region: String(location["region"] ?? ""), country: String(location["country"] ?? "") },
      createdAt: at,
      updatedAt: at
    }
    context.state.candidates.set(candidate.id, candidate)
    context.ok(ctx, context.views().candidate(candidate))
  })
]
