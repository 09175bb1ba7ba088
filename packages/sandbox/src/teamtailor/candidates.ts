import type { Route } from "../router.js"
import type { TtCandidate } from "./data.js"
import { invalidField } from "./errors.js"
import { documentBody, inRange, sortBy, type TeamtailorContext } from "./teamtailorContext.js"

/** Candidates: the list (filters of docs.teamtailor.com#list-candidates), one, and creating one. */

const text = (value: unknown): string | null | undefined =>
  value === undefined ? undefined : value === null ? null : typeof value === "string" ? value : String(value)

const SORT_KEYS = {
  id: (c: TtCandidate) => c.id,
  "created-at": (c: TtCandidate) => c.created_at,
  "updated-at": (c: TtCandidate) => c.updated_at,
  email: (c: TtCandidate) => c.email ?? "",
  "first-name": (c: TtCandidate) => c.first_name ?? "",
  "last-name": (c: TtCandidate) => c.last_name ?? ""
}

export const candidateRoutes = (context: TeamtailorContext): ReadonlyArray<Route> => [
  context.route("GET", "/candidates", (ctx) => {
    const email = ctx.query.get("filter[email]")
    const connected = ctx.query.get("filter[connected]")
    const matching = context.state.candidates.filter((c) =>
      (email === null || (c.email ?? "").toLowerCase() === email.toLowerCase()) &&
      (connected === null || String(c.connected) === connected) &&
      inRange(ctx, "created-at", c.created_at) &&
      inRange(ctx, "updated-at", c.updated_at))
    const views = context.views(ctx)
    context.list(ctx, "candidates", sortBy(ctx, matching, SORT_KEYS, "id").map((c) => views.candidate(c)))
  }),
  context.route("GET", "/candidates/:id", (ctx, params) => context.one(ctx, context.views(ctx).candidate(context.find(context.state.candidates, params["id"])))),
  // "A unique email is a required attribute unless sourced is set to true"; `merge` updates the
  // candidate of that email instead (docs.teamtailor.com#create-candidate)
  context.route("POST", "/candidates", (ctx) => {
    const { attributes } = documentBody(ctx, "candidates")
    const email = text(attributes["email"]) ?? null
    const sourced = attributes["sourced"] === true
    if ((email === null || email.trim() === "") && !sourced) throw invalidField("can't be blank", "/data/attributes/email")
    const state = context.state
    const existing = email === null ? undefined : state.candidates.find((c) => (c.email ?? "").toLowerCase() === email.trim().toLowerCase())
    if (existing !== undefined && attributes["merge"] !== true) throw invalidField("has already been taken", "/data/attributes/email")
    const at = context.tick()
    const candidate: TtCandidate = existing ?? {
      id: state.next.candidate++,
      first_name: null,
      last_name: null,
      email: email === null ? null : email.trim(),
      phone: null,
      linkedin_url: null,
      pitch: null,
      tags: [],
      connected: false,
      sourced,
      internal: false,
      referred: false,
      unsubscribed: false,
      referring_site: null,
      referring_url: null,
      created_at: at,
      updated_at: at
    }
    const set = (key: "first_name" | "last_name" | "phone" | "linkedin_url" | "pitch", name: string) => {
      const value = text(attributes[name])
      if (value !== undefined) candidate[key] = value
    }
    set("first_name", "first-name")
    set("last_name", "last-name")
    set("phone", "phone")
    set("linkedin_url", "linkedin-url")
    set("pitch", "pitch")
    if (Array.isArray(attributes["tags"])) candidate.tags = attributes["tags"].map(String)
    if (typeof attributes["internal"] === "boolean") candidate.internal = attributes["internal"]
    candidate.updated_at = at
    if (existing === undefined) state.candidates.push(candidate)
    context.one(ctx, context.views(ctx).candidate(candidate), existing === undefined ? 201 : 200)
  })
]
