import { createHash, randomBytes } from "node:crypto"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { LEVER_STAGE_TEXT, LEVER_STAGES, startSandbox, type Sandbox } from "../src/index.js"
import { json } from "./support.js"

/*
 * The Lever v1 routes behind the OAuth provider that the lever connector uses: Lever's
 * authorize path and audience, opportunities with expanded applications and stages, an
 * opportunity's applications, archive reasons, and creating opportunities (perform_as, the
 * write scope, dedupe by email).
 */

let sb: Sandbox
const REDIRECT = "http://127.0.0.1:9/callback"

beforeAll(async () => {
  sb = await startSandbox({ seed: 5 })
})
afterAll(async () => {
  await sb.close()
})
beforeEach(() => {
  sb.reset()
})

const unescape = (text: string): string => text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")

/** The consent page's Allow form: its action and hidden fields. */
const allowForm = (html: string): { action: string; fields: Record<string, string> } => {
  const form = [...html.matchAll(/<form method="post" action="([^"]+)">(.*?)<\/form>/gs)].find((m) => (m[2] as string).includes(">Allow<"))
  if (form === undefined) throw new Error("no Allow form")
  return {
    action: unescape(form[1] as string),
    fields: Object.fromEntries([...(form[2] as string).matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((f) => [f[1] as string, unescape(f[2] as string)]))
  }
}

/** Lever's authorize URL on the sandbox (`/authorize`, not `/oauth/authorize`). */
const leverAuthorize = (params: Record<string, string>): string => `${sb.oauth.url}/authorize?${new URLSearchParams({ response_type: "code", client_id: sb.oauth.clientId, redirect_uri: REDIRECT, state: "s1", ...params }).toString()}`

/** Consent through `/authorize` with PKCE and the scopes given, then the code exchanged: an access token. */
const tokenFor = async (scope: string): Promise<string> => {
  const verifier = randomBytes(32).toString("base64url")
  const challenge = createHash("sha256").update(verifier).digest("base64url")
  const page = await fetch(leverAuthorize({ scope, audience: `${sb.oauth.baseUrl}/`, code_challenge: challenge, code_challenge_method: "S256" }))
  expect(page.status).toBe(200)
  const form = allowForm(await page.text())
  const back = await fetch(new URL(form.action, sb.oauth.url), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form.fields).toString(), redirect: "manual" })
  const code = new URL(back.headers.get("location") as string).searchParams.get("code") as string
  const res = await fetch(sb.oauth.tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: sb.oauth.clientId, client_secret: sb.oauth.clientSecret }).toString()
  })
  expect(res.status).toBe(200)
  return (await json<{ access_token: string }>(res)).access_token
}

const ALL = "offline_access opportunities:read:admin opportunities:write:admin applications:read:admin archive_reasons:read:admin postings:read:admin"

const get = (path: string, token: string): Promise<Response> => fetch(`${sb.oauth.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } })

const post = (path: string, token: string, body: unknown): Promise<Response> =>
  fetch(`${sb.oauth.baseUrl}${path}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) })

type Opportunity = { id: string; contact: string; name: string; emails: Array<string>; stage: unknown; applications: Array<any>; archived: { reason: string; archivedAt: number } | null; createdAt: number; updatedAt: number; origin: string; owner: string; followers: Array<string> }

/** Every opportunity, following `next`, with `query` on each page. */
const allOpportunities = async (token: string, query = ""): Promise<Array<Opportunity>> => {
  const seen: Array<Opportunity> = []
  let offset: string | undefined
  for (;;) {
    const res = await get(`/opportunities?limit=100${query}${offset === undefined ? "" : `&offset=${encodeURIComponent(offset)}`}`, token)
    expect(res.status).toBe(200)
    const body = await json<{ data: Array<Opportunity>; hasNext: boolean; next?: string }>(res)
    seen.push(...body.data)
    if (!body.hasNext) return seen
    offset = body.next
  }
}

describe("OAuth provider: Lever's authorize path and audience", () => {
  it("serves the consent page at /authorize too; an audience other than this API's or Lever's goes back as access_denied", async () => {
    const token = await tokenFor("opportunities:read:admin")
    expect((await get("/opportunities?limit=1", token)).status).toBe(200)

    const lever = await fetch(leverAuthorize({ audience: "https://api.lever.co/v1/", code_challenge: "a".repeat(43), code_challenge_method: "S256" }))
    expect(lever.status).toBe(200)
    expect(await lever.text()).toContain("<h1>Authorize Switchyard</h1>")

    const other = await fetch(leverAuthorize({ audience: "https://api.example.com/", code_challenge: "a".repeat(43), code_challenge_method: "S256" }), { redirect: "manual" })
    expect(other.status).toBe(302)
    const back = new URL(other.headers.get("location") as string)
    expect(back.searchParams.get("error")).toBe("access_denied")
    expect(back.searchParams.get("error_description")).toBe("Service not found: https://api.example.com/")
    expect(back.searchParams.get("state")).toBe("s1")

    const unknownClient = await fetch(leverAuthorize({ client_id: "nobody" }), { redirect: "manual" })
    expect(unknownClient.status).toBe(400)
    expect(unknownClient.headers.get("location")).toBeNull()
  })
})

describe("OAuth provider: opportunities, applications and archive reasons (Lever v1)", () => {
  it("expands applications and stages; an opportunity has at most one application, and leads may have none", async () => {
    const token = await tokenFor(ALL)
    const plain = await allOpportunities(token)
    const expanded = await allOpportunities(token, "&expand=applications&expand=stage")
    expect(expanded.map((o) => o.id)).toEqual(plain.map((o) => o.id))
    expect(plain.every((o) => typeof o.stage === "string" && o.applications.every((id) => typeof id === "string"))).toBe(true)

    const withApplication = expanded.filter((o) => o.applications.length === 1)
    const without = expanded.filter((o) => o.applications.length === 0)
    expect(withApplication.length).toBeGreaterThan(0)
    expect(without.length).toBeGreaterThan(0)
    expect(expanded.every((o) => o.applications.length <= 1)).toBe(true)
    expect(without.every((o) => o.origin === "sourced")).toBe(true)

    for (const o of expanded) {
      const source = plain.find((p) => p.id === o.id)!
      expect(o.stage).toEqual({ id: source.stage, text: LEVER_STAGE_TEXT[source.stage as string] })
      expect(o.applications.map((a) => a.id)).toEqual(source.applications)
    }
    const application = withApplication[0]!.applications[0]
    expect(application).toMatchObject({
      opportunityId: withApplication[0]!.id,
      candidateId: withApplication[0]!.id,
      createdAt: withApplication[0]!.createdAt,
      type: expect.stringMatching(/^(posting|user|referral)$/),
      posting: expect.stringMatching(/^[0-9a-f-]{36}$/),
      archived: withApplication[0]!.archived
    })

    const one = await json<{ data: Opportunity }>(await get(`/opportunities/${withApplication[0]!.id}?expand=applications,stage`, token))
    expect(one.data).toEqual(withApplication[0])

    const postings = await json<{ data: Array<{ id: string }> }>(await get("/postings", token))
    const postingId = application.posting as string
    expect(postings.data.map((p) => p.id)).toContain(postingId)
    const forPosting = await allOpportunities(token, `&posting_id=${postingId}&expand=applications`)
    expect(forPosting.length).toBeGreaterThan(0)
    expect(forPosting.every((o) => o.applications[0]?.posting === postingId)).toBe(true)
  })

  it("lists and gets an opportunity's application; unknown ids answer Lever's 404", async () => {
    const token = await tokenFor(ALL)
    const opportunities = await allOpportunities(token)
    const applied = opportunities.find((o) => o.applications.length === 1)!
    const lead = opportunities.find((o) => o.applications.length === 0)!

    const list = await json<{ data: Array<{ id: string; opportunityId: string }>; hasNext: boolean }>(await get(`/opportunities/${applied.id}/applications`, token))
    expect(list.hasNext).toBe(false)
    expect(list.data.map((a) => a.id)).toEqual(applied.applications)
    expect(list.data[0]!.opportunityId).toBe(applied.id)
    expect(await json(await get(`/opportunities/${lead.id}/applications`, token))).toEqual({ data: [], hasNext: false })

    const one = await json<{ data: unknown }>(await get(`/opportunities/${applied.id}/applications/${applied.applications[0]}`, token))
    expect(one.data).toEqual(list.data[0])

    const unknown = "00000000-0000-4000-8000-000000000000"
    const noApplication = await get(`/opportunities/${applied.id}/applications/${unknown}`, token)
    expect(noApplication.status).toBe(404)
    expect(await json(noApplication)).toEqual({ code: "ResourceNotFound", message: `applications ${unknown} was not found` })
    const noOpportunity = await get(`/opportunities/${unknown}/applications`, token)
    expect(noOpportunity.status).toBe(404)
    expect(await json(noOpportunity)).toEqual({ code: "ResourceNotFound", message: `opportunities ${unknown} was not found` })

    const readOnly = await tokenFor("opportunities:read:admin")
    const refused = await get(`/opportunities/${applied.id}/applications`, readOnly)
    expect(refused.status).toBe(403)
    expect(refused.headers.get("www-authenticate")).toContain('scope="applications:read:admin"')
  })

  it("lists archive reasons (by type) and gets one; archived opportunities carry their ids, hires included", async () => {
    const token = await tokenFor(ALL)
    const reasons = await json<{ data: Array<{ id: string; text: string; status: string; type: string }> }>(await get("/archive_reasons", token))
    expect(reasons.data.map((r) => r.type).sort()).toEqual(["hired", ...Array(6).fill("non-hired")])
    const hired = await json<{ data: Array<{ id: string }> }>(await get("/archive_reasons?type=hired", token))
    expect(hired.data).toEqual(reasons.data.filter((r) => r.type === "hired"))
    expect((await get("/archive_reasons?type=maybe", token)).status).toBe(400)
    expect(await json(await get(`/archive_reasons/${reasons.data[0]!.id}`, token))).toEqual({ data: reasons.data[0] })
    expect((await get("/archive_reasons/nope", token)).status).toBe(404)

    const archived = (await allOpportunities(token)).filter((o) => o.archived !== null)
    expect(archived.length).toBeGreaterThan(0)
    expect(archived.every((o) => reasons.data.some((r) => r.id === o.archived!.reason && r.status === "active"))).toBe(true)
    expect(archived.some((o) => o.archived!.reason === hired.data[0]!.id)).toBe(true)
    expect(archived.some((o) => o.archived!.reason !== hired.data[0]!.id)).toBe(true)
  })
})

describe("OAuth provider: creating opportunities (POST /v1/opportunities)", () => {
  it("needs the write scope and perform_as, and answers 201 with the new opportunity, listed first", async () => {
    const readOnly = await tokenFor("opportunities:read:admin")
    const refused = await post(`/opportunities?perform_as=${sb.oauth.performAs}`, readOnly, { name: "Ada Lovelace" })
    expect(refused.status).toBe(403)
    expect(await json(refused)).toMatchObject({ code: "Forbidden" })

    const writer = await tokenFor("opportunities:write:admin")
    const noUser = await post("/opportunities", writer, { name: "Ada Lovelace" })
    expect(noUser.status).toBe(400)
    expect(await json(noUser)).toEqual({ code: "BadRequestError", message: "Missing required query parameter: perform_as" })
    expect(await json(await post("/opportunities?perform_as=someone", writer, { name: "Ada" }))).toMatchObject({ code: "BadRequestError" })
    expect((await post(`/opportunities?perform_as=${sb.oauth.performAs}`, writer, "{not json")).status).toBe(400)
    expect(await json(await post(`/opportunities?perform_as=${sb.oauth.performAs}`, writer, { emails: "ada@example.com" }))).toEqual({ code: "BadRequestError", message: "emails must be an array of strings" })

    const created = await post(`/opportunities?perform_as=${sb.oauth.performAs}`, writer, {
      name: "Ada Lovelace",
      headline: "Analytical Engines Ltd",
      emails: ["Ada@Example.org"],
      phones: [{ type: "mobile", value: "+44 20 7946 0000" }],
      links: ["https://example.org/ada"],
      tags: ["Math"],
      sources: ["API"]
    })
    expect(created.status).toBe(201)
    const { data } = await json<{ data: Opportunity & Record<string, unknown> }>(created)
    expect(data).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "Ada Lovelace",
      emails: ["Ada@Example.org"],
      phones: [{ type: "mobile", value: "+44 20 7946 0000" }],
      stage: "lead-new",
      origin: "sourced",
      owner: sb.oauth.performAs,
      sourcedBy: sb.oauth.performAs,
      followers: [sb.oauth.performAs],
      applications: [],
      archived: null,
      createdAt: sb.clock.now()
    })
    expect(data).not.toHaveProperty("postingId")
    // the write scope reads too
    expect(await json(await get(`/opportunities/${data.id}`, writer))).toEqual({ data })
    const first = await json<{ data: Array<Opportunity> }>(await get("/opportunities?limit=1", writer))
    expect(first.data[0]!.id).toBe(data.id)
    const byEmail = await json<{ data: Array<Opportunity> }>(await get("/opportunities?email=ada@example.org", writer))
    expect(byEmail.data.map((o) => o.id)).toEqual([data.id])

    sb.reset()
    expect((await get(`/opportunities/${data.id}`, writer)).status).toBe(404)
  })

  it("applies to one posting, dedupes a contact by email, and refuses what Lever refuses", async () => {
    const token = await tokenFor(ALL)
    const postings = await json<{ data: Array<{ id: string; owner: string; hiringManager: string }> }>(await get("/postings", token))
    const posting = postings.data[0]!
    const existing = (await allOpportunities(token))[5]!
    const create = (body: unknown) => post(`/opportunities?perform_as=${sb.oauth.performAs}&expand=applications`, token, body)

    const applied = await create({ name: "Someone Else", emails: [existing.emails[0]!.toUpperCase(), "second@example.net"], postings: [posting.id], stage: LEVER_STAGES[3], origin: "applied" })
    expect(applied.status).toBe(201)
    const { data } = await json<{ data: Opportunity }>(applied)
    expect(data.id).not.toBe(existing.id)
    // the contact's data wins; the new email is added
    expect(data).toMatchObject({ contact: existing.contact, name: existing.name, stage: "applicant-new", emails: [...existing.emails, "second@example.net"] })
    expect(data.applications).toEqual([
      expect.objectContaining({ opportunityId: data.id, type: "posting", posting: posting.id, postingOwner: posting.owner, postingHiringManager: posting.hiringManager })
    ])
    const sameContact = await allOpportunities(token, `&contact_id=${existing.contact}`)
    expect(sameContact.map((o) => o.id).sort()).toEqual([existing.id, data.id].sort())
    const application = await json<{ data: { id: string } }>(await get(`/opportunities/${data.id}/applications/${data.applications[0].id}`, token))
    expect(application.data).toEqual(data.applications[0])

    for (const [body, message] of [
      [{ postings: [posting.id, postings.data[1]!.id] }, "Only one posting may be specified; send one request per posting"],
      [{ postings: ["nope"] }, "postings nope was not found"],
      [{ stage: "hired" }, "stages hired was not found"],
      [{ origin: "magic" }, "origin must be one of agency, applied, internal, referred, sourced, university"],
      [{ contact: "nope" }, "contacts nope was not found"],
      [{ createdAt: sb.clock.now() + 86_400_000 }, "createdAt cannot be in the future"]
    ] as const) {
      const res = await create(body)
      expect(res.status).toBe(400)
      expect(await json(res)).toEqual({ code: "BadRequestError", message })
    }
  })
})
