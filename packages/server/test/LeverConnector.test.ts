import { expect, layer } from "@effect/vitest"
import {
  APPLICATION_STATUS_VALUES,
  AtsApplication,
  AtsApplicationResult,
  AtsApplicationsList,
  AtsCandidate,
  AtsCandidateResult,
  AtsCandidatesList
} from "@switchyard/api"
import type { Sandbox } from "@switchyard/sandbox"
import { Effect, Layer, Schema } from "effect"
import { accountBody } from "./support/Fixtures.js"
import { authorizeLever, leverAccount, leverApi, leverConnector, leverMethod, sandboxSettings } from "./support/LeverAccount.js"
import { type Json, SandboxLive, SandboxProviders } from "./support/SandboxLayer.js"
import { TestServer } from "./support/TestServer.js"

/*
 * The built-in lever connector against the sandbox's OAuth2 provider (a Lever v1 look-alike):
 * an access token got the way lever@1.0.0 reads its authentication (the account runs the newest
 * version, whose other operations LeverAts.test.ts covers) (its
 * authorization URL, audience and scopes, PKCE; the consent page's Allow; the code exchanged
 * at its token URL), an account linked with it, then every operation the connector implements
 * through the unified API (jobs, which no unified endpoint has, through the action RPC),
 * checked against what the sandbox itself answers and against the unified schemas.
 */

const Server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive(23))

const lever = leverConnector("1.0.0")

/** The connector's authorization-code method as the engine resolves it for an account's settings. */
const methodFor = (settings: Record<string, unknown>) => leverMethod(lever, settings)

const authorize = (sandbox: Sandbox) => authorizeLever(sandbox, lever)

/** Every opportunity, expanded as the connector asks, newest first. */
const allOpportunities = (sandbox: Sandbox, accessToken: string, query = "") =>
  Effect.gen(function*() {
    const out: Array<Json> = []
    let offset: string | undefined
    for (;;) {
      const page = yield* leverApi(sandbox, accessToken, `/opportunities?limit=100&expand=applications&expand=stage${query}${offset === undefined ? "" : `&offset=${offset}`}`)
      out.push(...page.data)
      if (!page.hasNext) return out
      offset = page.next
    }
  })

const setup = Effect.gen(function*() {
  const { sandbox, client, account, headers, tokens } = yield* leverAccount(lever)
  const reasons = (yield* leverApi(sandbox, tokens.access_token, "/archive_reasons")).data as Array<Json>
  return { sandbox, client, account, headers, tokens, reasons }
})

const ids = (records: ReadonlyArray<Json>) => records.map((record) => record.id as string)

const iso = (ms: number) => new Date(ms).toISOString()

/** Strictly the unified record: no field the schema lacks, every field of its type, enums from the known values. */
const decodeApplication = Schema.decodeUnknownSync(AtsApplication, { onExcessProperty: "error" })
const decodeCandidate = Schema.decodeUnknownSync(AtsCandidate, { onExcessProperty: "error" })
const expectApplication = (record: Json) => {
  decodeApplication(record)
  for (const key of ["status", "application_status"]) {
    expect(APPLICATION_STATUS_VALUES).toContain(record[key].value)
  }
  for (const key of ["created_at", "updated_at"]) expect(record[key]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
}
const expectCandidate = (record: Json) => {
  decodeCandidate(record)
  for (const phone of record.phone_numbers ?? []) expect(["personal", "work", "mobile", "home", "unknown", "other"]).toContain(phone.type)
  for (const key of ["created_at", "updated_at"]) expect(record[key]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
}

const errorTag = <A>(effect: Effect.Effect<A, { readonly _tag: string }>) => Effect.map(Effect.flip(effect), (error) => error._tag)

layer(Server, { excludeTestServices: true })("the lever connector over the sandbox's OAuth provider", (it) => {
  it.effect("its OAuth fields reach the sandbox's authorization server with Lever's paths, audience and scopes", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxProviders
      expect(lever.definition.baseUrl).toBe("https://api.lever.co/v1")
      // Lever's own endpoints unless the account's settings say otherwise
      expect(methodFor({})).toMatchObject({
        authorizationUrl: "https://auth.lever.co/authorize",
        tokenUrl: "https://auth.lever.co/oauth/token",
        authorizationParams: { audience: "https://api.lever.co/v1/", prompt: "consent" },
        scope: "offline_access opportunities:read:admin opportunities:write:admin applications:read:admin archive_reasons:read:admin postings:read:admin",
        pkce: true,
        testActions: ["ats_list_jobs"]
      })
      expect(methodFor({}).setupFields.map((field) => [field.key, field.required, field.secret ?? false])).toEqual([
        ["clientId", true, false],
        ["clientSecret", true, true]
      ])
      expect(methodFor(sandboxSettings(sandbox))).toMatchObject({
        authorizationUrl: `${sandbox.oauth.url}/authorize`,
        tokenUrl: sandbox.oauth.tokenUrl,
        authorizationParams: { audience: `${sandbox.oauth.baseUrl}/`, prompt: "consent" }
      })

      const tokens = yield* authorize(sandbox)
      expect(tokens.scope).toBe(methodFor({}).scope)
      expect(tokens.refresh_token).toBeTruthy()
      const { client, headers } = yield* setup
      const jobs = yield* client.actions.rpc_action({ headers, payload: { action: "ats_list_jobs", query: { page_size: 1 } } })
      expect(jobs.data).toHaveLength(1)
      const bearer = sandbox.requests("oauth").filter((request) => request.path === "/v1/postings")
      expect(bearer).toHaveLength(1)
    }))

  it.effect("ats_list_applications pages through every opportunity's application once; ats_get_application gets each", () =>
    Effect.gen(function*() {
      const { client, headers, reasons, sandbox, tokens } = yield* setup
      const raw = yield* allOpportunities(sandbox, tokens.access_token)
      const applied = raw.filter((o) => o.applications.length === 1)
      expect(applied.length).toBeGreaterThan(0)
      expect(applied.length).toBeLessThan(raw.length)
      sandbox.clearRequests()

      const records: Array<Json> = []
      let next: string | null | undefined
      let pages = 0
      do {
        const page = yield* client.unified_ats.ats_list_applications({
          headers,
          urlParams: { page_size: 7, ...(next ? { next } : {}) }
        })
        Schema.decodeUnknownSync(AtsApplicationsList, { onExcessProperty: "error" })(page)
        records.push(...(page.data as ReadonlyArray<Json>))
        next = page.next
        pages++
      } while (next)
      // Lever pages opportunities: pages of 7, the leads without an application left out of each
      expect(pages).toBe(Math.ceil(raw.length / 7))
      expect(ids(records)).toEqual(applied.map((o) => o.id))
      const offsets = sandbox.requests("oauth").filter((r) => r.path === "/v1/opportunities").map((r) => r.query["offset"] ?? null)
      expect(offsets).toHaveLength(pages)
      expect(new Set(offsets).size).toBe(pages)
      for (const record of records) expectApplication(record)

      const reason = (o: Json) => reasons.find((r) => r.id === o.archived?.reason)
      const rejected = applied.find((o) => reason(o)?.type === "non-hired")!
      const hired = applied.find((o) => reason(o)?.type === "hired")!
      const active = applied.find((o) => o.archived === null)!
      const byId = new Map(records.map((record) => [record.id as string, record]))
      expect(byId.get(rejected.id)).toMatchObject({
        remote_id: rejected.applications[0].id,
        candidate_id: rejected.id,
        job_id: rejected.applications[0].posting,
        job_posting_id: rejected.applications[0].posting,
        interview_stage: { id: rejected.stage.id, remote_id: rejected.stage.id, name: rejected.stage.text },
        application_stage_id: rejected.stage.id,
        status: { value: "rejected", source_value: "non-hired" },
        application_status: { value: "rejected", source_value: "non-hired" },
        rejected_reason: reason(rejected)!.text,
        rejected_reason_ids: [rejected.archived.reason],
        rejected_reasons: [{ id: rejected.archived.reason, label: reason(rejected)!.text }],
        rejected_at: iso(rejected.archived.archivedAt),
        candidate: { name: rejected.name, email: rejected.emails[0] },
        created_at: iso(rejected.applications[0].createdAt),
        updated_at: iso(rejected.updatedAt)
      })
      expect(byId.get(hired.id)).toMatchObject({ status: { value: "hired", source_value: "hired" }, rejected_reason_ids: [] })
      expect(byId.get(hired.id)!.rejected_reason).toBeUndefined()
      expect(byId.get(active.id)).toMatchObject({ status: { value: "active", source_value: "active" }, rejected_reasons: [] })
      const named = records.find((record) => record.candidate.last_name !== undefined)!
      expect(`${named.candidate.first_name} ${named.candidate.last_name}`).toBe(named.candidate.name)

      for (const o of [rejected, hired, active]) {
        const one = yield* client.unified_ats.ats_get_application({ headers, path: { id: o.id }, urlParams: {} })
        Schema.decodeUnknownSync(AtsApplicationResult, { onExcessProperty: "error" })(one)
        expect(one.data).toEqual(byId.get(o.id))
      }
      expect(yield* errorTag(client.unified_ats.ats_get_application({ headers, path: { id: "00000000-0000-4000-8000-000000000000" }, urlParams: {} }))).toBe("NotFound")
      const lead = raw.find((o) => o.applications.length === 0)!
      expect(yield* errorTag(client.unified_ats.ats_get_application({ headers, path: { id: lead.id }, urlParams: {} }))).toBe("NotFound")
    }))

  it.effect("ats_list_applications filters by job, stage and update time", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox, tokens } = yield* setup
      const applied = (yield* allOpportunities(sandbox, tokens.access_token)).filter((o) => o.applications.length === 1)
      const list = (filter: Record<string, string>) =>
        Effect.map(client.unified_ats.ats_list_applications({ headers, urlParams: { page_size: 100, filter } }), (page) => page.data as ReadonlyArray<Json>)

      const posting = applied[0]!.applications[0].posting
      const forJob = yield* list({ job_id: posting })
      expect(ids(forJob)).toEqual(applied.filter((o) => o.applications[0].posting === posting).map((o) => o.id))
      const sent = sandbox.requests("oauth").filter((r) => r.path === "/v1/opportunities").at(-1)!
      expect(sent.query["posting_id"]).toBe(posting)

      const stage = applied[0]!.stage.id
      const inStage = applied.filter((o) => o.stage.id === stage).map((o) => o.id)
      expect(ids(yield* list({ stage }))).toEqual(inStage)
      expect(ids(yield* list({ application_stage_id: stage }))).toEqual(inStage)

      const times = [...new Set(applied.map((o) => o.updatedAt as number))].sort((a, b) => a - b)
      const median = times[Math.floor(times.length / 2)]!
      const after = yield* list({ updated_after: iso(median) })
      expect(ids(after)).toEqual(applied.filter((o) => o.updatedAt >= median).map((o) => o.id))
      expect(sandbox.requests("oauth").filter((r) => r.path === "/v1/opportunities").at(-1)!.query["updated_at_start"]).toBe(String(median))
    }))

  it.effect("ats_list_candidates pages through every opportunity; ats_get_candidate; 404; filter by email", () =>
    Effect.gen(function*() {
      const { client, headers, reasons, sandbox, tokens } = yield* setup
      const raw = yield* allOpportunities(sandbox, tokens.access_token)
      const records: Array<Json> = []
      let next: string | null | undefined
      let pages = 0
      do {
        const page = yield* client.unified_ats.ats_list_candidates({ headers, urlParams: { page_size: 25, ...(next ? { next } : {}) } })
        Schema.decodeUnknownSync(AtsCandidatesList, { onExcessProperty: "error" })(page)
        records.push(...(page.data as ReadonlyArray<Json>))
        next = page.next
        pages++
      } while (next)
      expect(pages).toBe(Math.ceil(sandbox.counts.opportunities / 25))
      expect(ids(records)).toEqual(raw.map((o) => o.id))
      for (const record of records) expectCandidate(record)

      const byId = new Map(records.map((record) => [record.id as string, record]))
      const rich = raw.find((o) => o.applications.length === 1 && o.tags.length > 0 && o.phones.length > 0)!
      expect(byId.get(rich.id)).toEqual({
        id: rich.id,
        remote_id: rich.id,
        name: rich.name,
        first_name: rich.name.split(" ")[0],
        last_name: rich.name.split(" ").slice(1).join(" "),
        email: rich.emails[0],
        emails: rich.emails.map((value: string) => ({ value })),
        phone: rich.phones[0].value,
        phone_numbers: rich.phones.map((p: Json) => ({ type: p.type, phone: p.value })),
        social_links: rich.links.map((url: string) => ({ url })),
        company: rich.headline,
        application_ids: [rich.id],
        remote_application_ids: [rich.applications[0].id],
        ...(reasons.find((r) => r.id === rich.archived?.reason)?.type === "hired" ? { hired_at: iso(rich.archived.archivedAt) } : {}),
        tags: rich.tags.map((name: string) => ({ name })),
        created_at: iso(rich.createdAt),
        updated_at: iso(rich.updatedAt)
      })
      const hired = raw.find((o) => reasons.find((r) => r.id === o.archived?.reason)?.type === "hired")!
      expect(byId.get(hired.id)!.hired_at).toBe(iso(hired.archived.archivedAt))
      const lead = raw.find((o) => o.applications.length === 0)!
      expect(byId.get(lead.id)).toMatchObject({ application_ids: [], remote_application_ids: [] })

      const one = yield* client.unified_ats.ats_get_candidate({ headers, path: { id: rich.id }, urlParams: {} })
      Schema.decodeUnknownSync(AtsCandidateResult, { onExcessProperty: "error" })(one)
      expect(one.data).toEqual(byId.get(rich.id))
      expect(yield* errorTag(client.unified_ats.ats_get_candidate({ headers, path: { id: "00000000-0000-4000-8000-000000000000" }, urlParams: {} }))).toBe("NotFound")

      const byEmail = yield* client.unified_ats.ats_list_candidates({ headers, urlParams: { filter: { email: rich.emails[0].toUpperCase() } } })
      expect(ids(byEmail.data as ReadonlyArray<Json>)).toEqual([rich.id])
      const created = [...new Set(raw.map((o) => o.createdAt as number))].sort((a, b) => a - b)
      const cut = created[Math.floor(created.length / 2)]!
      const newer = yield* client.unified_ats.ats_list_candidates({ headers, urlParams: { page_size: 100, filter: { created_after: iso(cut) } } })
      expect(ids(newer.data as ReadonlyArray<Json>)).toEqual(raw.filter((o) => o.createdAt >= cut).map((o) => o.id))
    }))

  it.effect("ats_create_candidate creates an opportunity as the acting user, visible afterwards", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox, tokens } = yield* setup
      const postings = (yield* leverApi(sandbox, tokens.access_token, "/postings")).data as Array<Json>
      const created = yield* client.unified_ats.ats_create_candidate({
        headers,
        payload: {
          first_name: "Ada",
          last_name: "Lovelace",
          email: "ada.lever@example.com",
          company: "Analytical Engines",
          phone_numbers: [{ type: "mobile", phone: "+44 20 7946 0001" }, { type: "personal", phone: "+44 20 7946 0002" }],
          social_links: [{ type: "website", url: "https://example.com/ada" }],
          passthrough: { postings: [postings[0]!.id], tags: ["API"] }
        }
      })
      expect(created).toMatchObject({ statusCode: 201, data: { id: expect.any(String), remote_id: expect.any(String) } })
      const id = created.data!.id as string
      const post = sandbox.requests("oauth").find((r) => r.method === "POST" && r.path === "/v1/opportunities")!
      expect(post.query).toEqual({ perform_as: sandbox.oauth.performAs })
      expect(JSON.parse(post.body!)).toEqual({
        name: "Ada Lovelace",
        headline: "Analytical Engines",
        emails: ["ada.lever@example.com"],
        phones: [{ type: "mobile", value: "+44 20 7946 0001" }, { type: "other", value: "+44 20 7946 0002" }],
        links: ["https://example.com/ada"],
        postings: [postings[0]!.id],
        tags: ["API"]
      })

      const got = yield* client.unified_ats.ats_get_candidate({ headers, path: { id }, urlParams: {} })
      expect(got.data).toMatchObject({
        id,
        name: "Ada Lovelace",
        first_name: "Ada",
        last_name: "Lovelace",
        email: "ada.lever@example.com",
        company: "Analytical Engines",
        phone_numbers: [{ type: "mobile", phone: "+44 20 7946 0001" }, { type: "other", phone: "+44 20 7946 0002" }],
        social_links: [{ url: "https://example.com/ada" }],
        tags: [{ name: "API" }],
        application_ids: [id]
      })
      const newest = yield* client.unified_ats.ats_list_candidates({ headers, urlParams: { page_size: 1 } })
      expect(ids(newest.data as ReadonlyArray<Json>)).toEqual([id])
      const application = yield* client.unified_ats.ats_get_application({ headers, path: { id }, urlParams: {} })
      expect(application.data).toMatchObject({ id, candidate_id: id, job_id: postings[0]!.id, status: { value: "active" } })
      expectApplication(application.data as Json)

      // Lever dedupes by email: a second journey of the same person is a second candidate with that contact's data
      const again = yield* client.unified_ats.ats_create_candidate({ headers, payload: { name: "A. Lovelace", email: "ADA.LEVER@example.com" } })
      const byEmail = yield* client.unified_ats.ats_list_candidates({ headers, urlParams: { filter: { email: "ada.lever@example.com" } } })
      expect(ids(byEmail.data as ReadonlyArray<Json>)).toEqual([again.data!.id, id])
      expect((byEmail.data as ReadonlyArray<Json>).map((c) => c.name)).toEqual(["Ada Lovelace", "Ada Lovelace"])
    }))

  it.effect("without an acting user, Lever's refusal comes back as the provider's 400", () =>
    Effect.gen(function*() {
      const { client, sandbox, tokens } = yield* setup
      const account = yield* client.accounts.create_account({
        payload: accountBody({
          connector_key: "lever",
          credentials: { accessToken: tokens.access_token, refreshToken: tokens.refresh_token },
          settings: sandboxSettings(sandbox)
        })
      })
      const error = yield* Effect.flip(client.unified_ats.ats_create_candidate({ headers: { "x-account-id": account.id }, payload: { name: "Nobody" } }))
      expect(error).toMatchObject({ _tag: "BadRequest", statusCode: 400 })
      expect(JSON.stringify(error)).toContain("perform_as")
      expect(sandbox.requests("oauth").filter((r) => r.method === "POST" && r.path === "/v1/opportunities")).toHaveLength(1)
    }))

  it.effect("jobs (postings) through the action RPC: ats_list_jobs pages, ats_get_job gets, 404; a unified action by RPC too", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox, tokens } = yield* setup
      const raw = (yield* leverApi(sandbox, tokens.access_token, "/postings")).data as Array<Json>
      const rpc = (payload: { action: string; query?: Record<string, unknown>; path?: Record<string, unknown> }) => client.actions.rpc_action({ headers, payload })
      const jobs: Array<Json> = []
      let cursor: unknown
      let pages = 0
      do {
        const page = yield* rpc({ action: "ats_list_jobs", query: { page_size: 3, ...(cursor ? { cursor } : {}) } })
        jobs.push(...(page.data as ReadonlyArray<Json>))
        cursor = page.next
        pages++
      } while (cursor)
      expect(pages).toBe(Math.ceil(raw.length / 3))
      expect(ids(jobs)).toEqual(raw.map((p) => p.id))
      const posting = raw[0]!
      expect(jobs[0]).toEqual({
        id: posting.id,
        remote_id: posting.id,
        code: posting.reqCode,
        title: posting.text,
        description: posting.content.description,
        status: posting.state,
        job_status: { value: posting.state, source_value: posting.state },
        hiring_team: [
          { user_id: posting.hiringManager, remote_user_id: posting.hiringManager, role: "hiring_manager" },
          { user_id: posting.owner, remote_user_id: posting.owner, role: "owner" }
        ],
        confidential: "false",
        created_at: iso(posting.createdAt),
        updated_at: iso(posting.updatedAt)
      })
      const one = yield* rpc({ action: "ats_get_job", path: { id: posting.id } })
      expect(one.data).toEqual(jobs[0])
      expect(yield* errorTag(rpc({ action: "ats_get_job", path: { id: "nope" } }))).toBe("NotFound")
      const published = yield* rpc({ action: "ats_list_jobs", query: { page_size: 100, filter_status: "published" } })
      expect(ids(published.data as ReadonlyArray<Json>)).toEqual(raw.filter((p) => p.state === "published").map((p) => p.id))

      const candidate = yield* client.unified_ats.ats_list_candidates({ headers, urlParams: { page_size: 1 } })
      const byRpc = yield* rpc({ action: "ats_get_candidate", path: { id: (candidate.data as ReadonlyArray<Json>)[0]!.id } })
      expect(byRpc.data).toEqual((candidate.data as ReadonlyArray<Json>)[0])

      // an operation Lever's connector does not implement (Lever has no departments)
      expect(yield* errorTag(client.unified_ats.ats_list_departments({ headers, urlParams: {} }))).toBe("NotImplemented")
    }))
})
