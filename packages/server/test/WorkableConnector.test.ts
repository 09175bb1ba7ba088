import { expect, layer } from "@effect/vitest"
import { AtsApplication, AtsApplicationsList, AtsCandidate, AtsCandidatesList } from "@switchyard/api"
import type { Sandbox } from "@switchyard/sandbox"
import { Effect, Layer, Schema } from "effect"
import { accountBody, freshProject } from "./support/Fixtures.js"
import { type Json, SandboxLive, SandboxProviders } from "./support/SandboxLayer.js"
import { TestServer } from "./support/TestServer.js"

/*
 * The built-in workable connector against the sandbox's Workable look-alike (SPI v3): an account
 * linked with the look-alike's token, subdomain and acting member, then every action the connector
 * has, checked against what the look-alike itself answers. Candidates and applications go through
 * the unified API; jobs, stages, users and departments (no unified endpoint yet) through the
 * action RPC. The connector keeps to Workable's 10 requests per 10 seconds (one a second per
 * account), so independent checks run on accounts of their own, side by side.
 */

const Server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive(11))

const workableOf = (sandbox: Sandbox) => {
  const info = sandbox.lookAlikes.workable
  if (info === undefined) throw new Error("the sandbox has no workable look-alike")
  return info
}

/** The look-alike read directly with its token. */
const workableApi = (sandbox: Sandbox, path: string) =>
  Effect.promise(async () => {
    const info = workableOf(sandbox)
    const response = await fetch(path.startsWith("http") ? path : `${info.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${info.credentials["apiToken"]}` }
    })
    if (!response.ok) throw new Error(`sandbox workable ${path} answered ${response.status}`)
    return (await response.json()) as any
  })

/** Every record of a Workable collection, following paging.next. */
const everything = (sandbox: Sandbox, path: string, key: string) =>
  Effect.gen(function*() {
    const out: Array<Json> = []
    let next: string | undefined = path
    while (next !== undefined) {
      const page: any = yield* workableApi(sandbox, next)
      out.push(...page[key])
      next = page.paging?.next
    }
    return out
  })

const newAccount = (sandbox: Sandbox, credentials: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const { client } = yield* freshProject
    const info = workableOf(sandbox)
    const account = yield* client.accounts.create_account({
      payload: accountBody({
        connector_key: "workable",
        credentials: {
          apiToken: info.credentials["apiToken"]!,
          subdomain: info.credentials["subdomain"]!,
          memberId: info.credentials["memberId"]!,
          ...credentials
        },
        settings: { base_url: info.baseUrl }
      })
    })
    const headers = { "x-account-id": account.id }
    const rpc = (payload: { action: string; query?: Record<string, unknown>; path?: Record<string, unknown>; body?: unknown }) =>
      client.actions.rpc_action({ headers, payload })
    /** Every record of a list action through the RPC, following `next`; the pages' count. */
    const all = (action: string, query: Record<string, unknown> = {}) =>
      Effect.gen(function*() {
        const records: Array<Json> = []
        let cursor: unknown
        let pages = 0
        do {
          const page = yield* rpc({ action, query: cursor === undefined ? query : { ...query, cursor } })
          records.push(...(page.data as Array<Json>))
          cursor = page.next
          pages++
        } while (cursor !== undefined && cursor !== null)
        return { records, pages }
      })
    return { client, account, headers, rpc, all }
  })

const setup = Effect.gen(function*() {
  const sandbox = yield* SandboxProviders
  sandbox.reset()
  sandbox.clearRequests()
  sandbox.faults.clear()
  return { sandbox, ...(yield* newAccount(sandbox)) }
})

const ids = (records: ReadonlyArray<Json>) => records.map((record) => record.id as string)
const iso = (text: string) => new Date(text).toISOString()
const errorTag = <A>(effect: Effect.Effect<A, { readonly _tag: string }>) => Effect.map(Effect.flip(effect), (error) => error._tag)
const decodeApplication = Schema.decodeUnknownSync(AtsApplication, { onExcessProperty: "error" })
const decodeCandidate = Schema.decodeUnknownSync(AtsCandidate, { onExcessProperty: "error" })
const calls = (sandbox: Sandbox, path: string, method = "GET") =>
  sandbox.requests("workable").filter((r) => r.method === method && r.path === `/spi/v3${path}`)

const STATUS_OF_KIND: Record<string, string> = {
  sourced: "lead",
  applied: "new",
  "phone-screen": "screen",
  assessment: "assessment",
  interview: "interview",
  offer: "offer",
  hired: "hired"
}

layer(Server, { excludeTestServices: true })("the workable connector over the sandbox's Workable look-alike", (it) => {
  it.effect("ats_list_applications pages through every candidate once by since_id; ats_get_application; 404", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox } = yield* setup
      const raw = yield* everything(sandbox, "/candidates?limit=100", "candidates")
      const stages = (yield* workableApi(sandbox, "/stages")).stages as Array<Json>
      expect(raw.length).toBeGreaterThanOrEqual(40)
      sandbox.clearRequests()

      const records: Array<Json> = []
      let next: string | null | undefined
      let pages = 0
      do {
        const page = yield* client.unified_ats.ats_list_applications({ headers, urlParams: { page_size: 30, ...(next ? { next } : {}) } })
        Schema.decodeUnknownSync(AtsApplicationsList, { onExcessProperty: "error" })(page)
        records.push(...(page.data as ReadonlyArray<Json>))
        next = page.next
        pages++
      } while (next)
      expect(pages).toBe(Math.ceil(raw.length / 30))
      expect(ids(records)).toEqual(raw.map((c) => c.id))
      // each page after the first asked from the since_id of Workable's paging.next
      const sent = calls(sandbox, "/candidates").map((r) => r.query["since_id"] ?? null)
      expect(sent).toEqual([null, raw[30]!.id])
      for (const record of records) decodeApplication(record)

      const stageOf = (slug: string) => stages.find((s) => s.slug === slug)!
      const byId = new Map(records.map((record) => [record.id as string, record]))
      const rejected = raw.find((c) => c.disqualified)!
      const hired = raw.find((c) => c.stage === "hired")!
      const active = raw.find((c) => !c.disqualified && c.stage === "interview")!
      for (const c of [rejected, hired, active]) {
        expect(byId.get(c.id)).toMatchObject({
          id: c.id,
          remote_id: c.id,
          candidate_id: c.id,
          job_id: c.job.shortcode,
          interview_stage: { id: c.stage, remote_id: c.stage, name: stageOf(c.stage).name, order: stageOf(c.stage).position },
          interview_stage_id: c.stage,
          application_stage_id: c.stage,
          candidate: { name: c.name, first_name: c.firstname, last_name: c.lastname, email: c.email },
          created_at: iso(c.created_at),
          updated_at: iso(c.updated_at)
        })
      }
      expect(byId.get(rejected.id)).toMatchObject({
        status: { value: "rejected", source_value: "disqualified" },
        application_status: { value: "rejected", source_value: "disqualified" },
        rejected_reason: rejected.disqualification_reason
      })
      expect(byId.get(hired.id)).toMatchObject({ status: { value: "hired", source_value: "hired" } })
      expect(byId.get(active.id)).toMatchObject({ status: { value: "interview", source_value: "interview" } })
      expect(byId.get(active.id)!.rejected_reason).toBeUndefined()
      for (const c of raw.filter((c) => !c.disqualified)) expect(byId.get(c.id)!.status.value).toBe(STATUS_OF_KIND[c.stage_kind])

      // by id Workable names the stage instead of giving its slug: the same record, with the time of the disqualification
      const one = yield* client.unified_ats.ats_get_application({ headers, path: { id: rejected.id }, urlParams: {} })
      const detail = (yield* workableApi(sandbox, `/candidates/${rejected.id}`)).candidate
      expect(detail.stage).toBe(stageOf(rejected.stage).name)
      expect(one.data).toEqual({ ...byId.get(rejected.id), rejected_at: iso(detail.disqualified_at) })
      const other = yield* client.unified_ats.ats_get_application({ headers, path: { id: active.id }, urlParams: {} })
      expect(other.data).toEqual(byId.get(active.id))
      expect(yield* errorTag(client.unified_ats.ats_get_application({ headers, path: { id: "0fffffff" }, urlParams: {} }))).toBe("NotFound")
    }))

  it.effect("ats_list_applications filters by job (shortcode), stage and update time, with Workable's own parameters", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox } = yield* setup
      const raw = yield* everything(sandbox, "/candidates?limit=100", "candidates")
      const list = (filter: Record<string, string>) =>
        Effect.map(client.unified_ats.ats_list_applications({ headers, urlParams: { page_size: 100, filter } }), (page) => page.data as ReadonlyArray<Json>)

      const shortcode = raw[0]!.job.shortcode as string
      const stage = raw[0]!.stage as string
      const both = yield* list({ job_id: shortcode, stage })
      expect(ids(both)).toEqual(raw.filter((c) => c.job.shortcode === shortcode && c.stage === stage).map((c) => c.id))
      expect(calls(sandbox, "/candidates").at(-1)!.query).toMatchObject({ shortcode, stage, limit: "100" })

      const times = [...new Set(raw.map((c) => c.updated_at as string))].sort()
      const median = times[Math.floor(times.length / 2)]!
      const after = yield* list({ updated_after: median })
      // Workable's updated_after is strict
      expect(ids(after)).toEqual(raw.filter((c) => c.updated_at > median).map((c) => c.id))
      expect(calls(sandbox, "/candidates").at(-1)!.query["updated_after"]).toBe(String(Date.parse(median) / 1000))
    }))

  it.effect("ats_list_candidates pages through every candidate; ats_get_candidate adds the tags; 404; filter by email", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox } = yield* setup
      const raw = yield* everything(sandbox, "/candidates?limit=100", "candidates")
      const records: Array<Json> = []
      let next: string | null | undefined
      do {
        const page = yield* client.unified_ats.ats_list_candidates({ headers, urlParams: { page_size: 40, ...(next ? { next } : {}) } })
        Schema.decodeUnknownSync(AtsCandidatesList, { onExcessProperty: "error" })(page)
        records.push(...(page.data as ReadonlyArray<Json>))
        next = page.next
      } while (next)
      expect(ids(records)).toEqual(raw.map((c) => c.id))
      for (const record of records) decodeCandidate(record)

      const rich = raw.find((c) => c.phone !== null && c.headline !== null && c.hired_at !== null)!
      const byId = new Map(records.map((record) => [record.id as string, record]))
      const expected = {
        id: rich.id,
        remote_id: rich.id,
        name: rich.name,
        first_name: rich.firstname,
        last_name: rich.lastname,
        email: rich.email,
        emails: [{ value: rich.email }],
        phone: rich.phone,
        phone_numbers: [{ phone: rich.phone }],
        title: rich.headline,
        application_ids: [rich.id],
        remote_application_ids: [rich.id],
        hired_at: iso(rich.hired_at),
        created_at: iso(rich.created_at),
        updated_at: iso(rich.updated_at)
      }
      expect(byId.get(rich.id)).toEqual(expected)

      const tagged = raw.find((c) => c.id !== rich.id && c.phone !== null)!
      const [richOne, taggedOne] = yield* Effect.all([
        client.unified_ats.ats_get_candidate({ headers, path: { id: rich.id }, urlParams: {} }),
        client.unified_ats.ats_get_candidate({ headers, path: { id: tagged.id }, urlParams: {} })
      ])
      const detail = (yield* workableApi(sandbox, `/candidates/${rich.id}`)).candidate
      expect(richOne.data).toEqual({ ...expected, tags: detail.tags.map((name: string) => ({ name })) })
      const taggedDetail = (yield* workableApi(sandbox, `/candidates/${tagged.id}`)).candidate
      expect(taggedOne.data).toEqual({ ...byId.get(tagged.id), tags: taggedDetail.tags.map((name: string) => ({ name })) })
      expect(yield* errorTag(client.unified_ats.ats_get_candidate({ headers, path: { id: "0fffffff" }, urlParams: {} }))).toBe("NotFound")

      const byEmail = yield* client.unified_ats.ats_list_candidates({ headers, urlParams: { filter: { email: rich.email.toUpperCase() } } })
      expect(ids(byEmail.data as ReadonlyArray<Json>)).toEqual([rich.id])
    }))

  it.effect("ats_create_candidate creates a candidate in the job passthrough.job_id names, seen afterwards as candidate and application", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox } = yield* setup
      const jobs = (yield* workableApi(sandbox, "/jobs")).jobs as Array<Json>
      const job = jobs[2]!
      const created = yield* client.unified_ats.ats_create_candidate({
        headers,
        payload: {
          first_name: "Ada",
          last_name: "Lovelace",
          email: "ada.workable@example.com",
          title: "Analyst",
          phone_numbers: [{ type: "mobile", phone: "+44 20 7946 0001" }],
          passthrough: { job_id: job.shortcode, tags: ["API"], summary: "Notes on the engine" }
        }
      })
      expect(created).toMatchObject({ statusCode: 201, data: { id: expect.any(String), remote_id: expect.any(String) } })
      const id = created.data!.id as string
      const post = calls(sandbox, `/jobs/${job.shortcode}/candidates`, "POST")
      expect(post).toHaveLength(1)
      expect(JSON.parse(post[0]!.body!)).toEqual({
        sourced: true,
        candidate: {
          name: "Ada Lovelace",
          firstname: "Ada",
          lastname: "Lovelace",
          email: "ada.workable@example.com",
          phone: "+44 20 7946 0001",
          headline: "Analyst",
          summary: "Notes on the engine",
          tags: ["API"]
        }
      })

      const got = yield* client.unified_ats.ats_get_candidate({ headers, path: { id }, urlParams: {} })
      expect(got.data).toMatchObject({
        id,
        name: "Ada Lovelace",
        email: "ada.workable@example.com",
        title: "Analyst",
        phone_numbers: [{ phone: "+44 20 7946 0001" }],
        tags: [{ name: "API" }],
        application_ids: [id]
      })
      const application = yield* client.unified_ats.ats_get_application({ headers, path: { id }, urlParams: {} })
      expect(application.data).toMatchObject({ id, job_id: job.shortcode, interview_stage_id: "sourced", status: { value: "lead" } })
      decodeApplication(application.data)
      // newest last: the last page holds it
      const raw = yield* everything(sandbox, "/candidates?limit=100", "candidates")
      expect(raw.at(-1)!.id).toBe(id)

      // a job that is not there: Workable's 404, told as the input's fault
      const missing = yield* Effect.flip(client.unified_ats.ats_create_candidate({ headers, payload: { name: "No Job", email: "x@example.com", passthrough: { job_id: "NOPE999" } } }))
      expect(missing).toMatchObject({ _tag: "BadRequest" })
      expect(JSON.stringify(missing)).toContain("job_id")
    }))

  it.effect("ats_move_application and ats_reject_application move and disqualify as the acting member, seen on later reads", () =>
    Effect.gen(function*() {
      const { client, headers, rpc, sandbox } = yield* setup
      const info = workableOf(sandbox)
      const raw = yield* everything(sandbox, "/candidates?limit=100", "candidates")
      const [first, second] = raw.filter((c) => !c.disqualified && c.stage === "applied")
      const reasons = (yield* workableApi(sandbox, "/disqualification_reasons")) as Array<Json>

      const moved = yield* client.unified_ats.ats_move_application({ headers, path: { id: first!.id }, payload: { interview_stage_id: "offer" } })
      expect(moved).toMatchObject({ data: { id: first!.id, remote_id: first!.id } })
      expect(JSON.parse(calls(sandbox, `/candidates/${first!.id}/move`, "POST")[0]!.body!)).toEqual({ member_id: info.credentials["memberId"], target_stage: "offer" })
      const after = yield* client.unified_ats.ats_get_application({ headers, path: { id: first!.id }, urlParams: {} })
      expect(after.data).toMatchObject({ interview_stage_id: "offer", interview_stage: { name: "Offer" }, status: { value: "offer" } })

      const reason = reasons.find((r) => !r.candidate_withdrew)!
      const rejected = yield* client.unified_ats.ats_reject_application({ headers, path: { id: second!.id }, payload: { rejected_reason_id: reason.id } })
      expect(rejected).toMatchObject({ data: { id: second!.id } })
      expect(JSON.parse(calls(sandbox, `/candidates/${second!.id}/disqualify`, "POST")[0]!.body!)).toEqual({
        member_id: info.credentials["memberId"],
        disqualify_reason_id: reason.id
      })
      const gone = yield* rpc({ action: "ats_get_application", path: { id: second!.id } })
      expect(gone.data).toMatchObject({ status: { value: "rejected" }, rejected_reason: reason.description, rejected_at: expect.any(String) })

      expect(yield* errorTag(client.unified_ats.ats_move_application({ headers, path: { id: "0fffffff" }, payload: { interview_stage_id: "offer" } }))).toBe("NotFound")

      // without an acting member Workable refuses the move
      const noMember = yield* newAccount(sandbox, { memberId: "" })
      const refused = yield* Effect.flip(noMember.client.unified_ats.ats_move_application({ headers: noMember.headers, path: { id: first!.id }, payload: { interview_stage_id: "hired" } }))
      // Workable's refusal (this look-alike's 422: the documentation gives none) is the provider's 400
      expect(refused).toMatchObject({ _tag: "BadRequest", statusCode: 400 })
      expect(JSON.stringify(refused)).toContain("member_id")
    }))

  it.effect("jobs by shortcode through the action RPC: ats_list_jobs pages, ats_get_job, 404, filter by state", () =>
    Effect.gen(function*() {
      const { all, rpc, sandbox } = yield* setup
      const raw = yield* everything(sandbox, "/jobs?limit=100", "jobs")
      const { records, pages } = yield* all("ats_list_jobs", { page_size: 3 })
      expect(pages).toBe(Math.ceil(raw.length / 3))
      expect(ids(records)).toEqual(raw.map((j) => j.shortcode))
      const closed = raw.find((j) => j.state === "closed")!
      expect(records.find((r) => r.id === closed.shortcode)).toEqual({
        id: closed.shortcode,
        remote_id: closed.shortcode,
        code: closed.code,
        title: closed.title,
        status: "closed",
        job_status: { value: "internal", source_value: "closed" }
      })
      const [one, missing, published] = yield* Effect.all([
        rpc({ action: "ats_get_job", path: { id: raw[1]!.shortcode } }),
        errorTag(rpc({ action: "ats_get_job", path: { id: "NOPE999" } })),
        rpc({ action: "ats_list_jobs", query: { page_size: 100, filter_status: "published" } })
      ])
      expect(one.data).toEqual(records[1])
      expect(missing).toBe("NotFound")
      expect(ids(published.data as ReadonlyArray<Json>)).toEqual(raw.filter((j) => j.state === "published").map((j) => j.shortcode))
    }))

  it.effect("stages, users (members) and departments through the action RPC", () =>
    Effect.gen(function*() {
      const { sandbox } = yield* setup
      const stages = (yield* workableApi(sandbox, "/stages")).stages as Array<Json>
      const members = yield* everything(sandbox, "/members?limit=100", "members")
      const departments = (yield* workableApi(sandbox, "/departments")) as Array<Json>
      // three accounts, so their one request a second each do not queue behind one another
      const [a, b, c] = yield* Effect.all([newAccount(sandbox), newAccount(sandbox), newAccount(sandbox)])
      yield* Effect.all([
        Effect.gen(function*() {
          const listed = yield* a.rpc({ action: "ats_list_interview_stages" })
          expect(listed.data).toEqual(stages.map((s) => ({ id: s.slug, remote_id: s.slug, name: s.name, order: s.position })))
          const one = yield* a.rpc({ action: "ats_get_interview_stage", path: { id: "phone-screen" } })
          expect(one.data).toEqual({ id: "phone-screen", remote_id: "phone-screen", name: "Phone Screen", order: 2 })
          expect(yield* errorTag(a.rpc({ action: "ats_get_interview_stage", path: { id: "nope" } }))).toBe("NotFound")
        }),
        Effect.gen(function*() {
          const { records, pages } = yield* b.all("ats_list_users", { page_size: 4 })
          expect(pages).toBe(Math.ceil(members.length / 4))
          expect(records).toEqual(members.map((m) => ({ id: m.id, remote_id: m.id, name: m.name, email: m.email })))
          const one = yield* b.rpc({ action: "ats_get_user", path: { id: members[5]!.id } })
          expect(one.data).toEqual(records[5])
          expect(yield* errorTag(b.rpc({ action: "ats_get_user", path: { id: "0fffffff" } }))).toBe("NotFound")
        }),
        Effect.gen(function*() {
          const listed = yield* c.rpc({ action: "ats_list_departments" })
          expect(listed.data).toEqual(departments.map((d) => ({ id: d.id, remote_id: d.id, name: d.name })))
        })
      ], { concurrency: "unbounded" })
    }))

  it.effect("Workable's 429, its 5xx and a bad token come back as the documented answers, the token never in them", () =>
    Effect.gen(function*() {
      const { headers, client, sandbox } = yield* setup
      sandbox.faults.add({ match: { provider: "workable", path: "/spi/v3/candidates" }, fault: "rate_limit", retryAfter: 1, times: 1 })
      const retried = yield* client.unified_ats.ats_list_candidates({ headers, urlParams: { page_size: 5 } })
      expect(retried.data).toHaveLength(5)
      expect(calls(sandbox, "/candidates").map((r) => r.faults.length)).toEqual([1, 0])
      sandbox.clearRequests()
      // a Retry-After beyond the provider deadline (60 s) is answered at once
      sandbox.faults.add({ match: { provider: "workable", path: "/spi/v3/candidates" }, fault: "rate_limit", retryAfter: 120, times: 5 })
      const limited = yield* Effect.flip(client.unified_ats.ats_list_candidates({ headers, urlParams: {} }))
      expect(limited._tag).toBe("TooManyRequests")
      expect(calls(sandbox, "/candidates")).toHaveLength(1)
      sandbox.faults.clear()
      sandbox.clearRequests()

      sandbox.faults.add({ match: { provider: "workable", path: "/spi/v3/candidates" }, fault: "status", status: 503, times: 1 })
      const recovered = yield* client.unified_ats.ats_list_candidates({ headers, urlParams: { page_size: 5 } })
      expect(recovered.data).toHaveLength(5)
      expect(calls(sandbox, "/candidates")).toHaveLength(2)
      sandbox.faults.clear()

      const bad = yield* newAccount(sandbox, { apiToken: "not-the-workable-token-0123456789" })
      const refused = yield* Effect.flip(bad.client.unified_ats.ats_list_candidates({ headers: bad.headers, urlParams: {} }))
      expect(refused._tag).not.toBe("TooManyRequests")
      const text = JSON.stringify(refused)
      expect(text).toContain("401")
      expect(text).not.toContain("not-the-workable-token-0123456789")
      expect(text).not.toContain(workableOf(sandbox).credentials["apiToken"]!)
    }))
})
