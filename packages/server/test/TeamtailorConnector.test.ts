import { expect, layer } from "@effect/vitest"
import {
  APPLICATION_STATUS_VALUES,
  AtsApplication,
  AtsApplicationResult,
  AtsApplicationsList,
  AtsCandidate,
  AtsCandidateResult,
  AtsApplicationStagesList,
  AtsCandidatesList,
  AtsDepartmentsList,
  AtsInterviewStagesList,
  AtsJobsList,
  AtsLocationsList,
  AtsRejectedReasonsList,
  AtsUsersList
} from "@switchyard/api"
import { HttpServer } from "@effect/platform"
import { StackOne } from "@stackone/stackone-client-ts"
import type { Sandbox } from "@switchyard/sandbox"
import { Effect, Layer, Schema } from "effect"
import { accountBody, freshProject } from "./support/Fixtures.js"
import { type Json, SandboxLive, SandboxProviders } from "./support/SandboxLayer.js"
import { TestServer } from "./support/TestServer.js"
import { walkPages } from "./support/walkPages.js"

/*
 * The built-in teamtailor connector against the sandbox's Teamtailor look-alike (a JSON:API under
 * /v1 behind `Authorization: Token token=<key>` and X-Api-Version, as docs.teamtailor.com describes):
 * an account linked with the look-alike's API key, then every action the connector implements,
 * through the unified API where it has the operation and through the action RPC otherwise, checked
 * against what the look-alike itself answers.
 */

const Server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive(31))

const API_VERSION = "20240904"

const lookAlike = (sandbox: Sandbox) => {
  const info = sandbox.lookAlikes.teamtailor
  if (info === undefined) throw new Error("the sandbox has no teamtailor look-alike")
  return info
}

/** The look-alike read directly with its API key. */
const ttApi = (sandbox: Sandbox, path: string) =>
  Effect.promise(async () => {
    const info = lookAlike(sandbox)
    const response = await fetch(`${info.baseUrl}${path}`, {
      headers: { authorization: `Token token=${info.credentials["apiKey"]}`, "x-api-version": API_VERSION }
    })
    if (!response.ok) throw new Error(`sandbox teamtailor ${path} answered ${response.status}`)
    return (await response.json()) as any
  })

/** Every record of a list, page by page (30, the most a page holds), following links.next. */
const everything = (sandbox: Sandbox, path: string, query = "") =>
  Effect.gen(function*() {
    const data: Array<Json> = []
    const included: Array<Json> = []
    let url: string | undefined = `${path}?page%5Bsize%5D=30${query}`
    while (url !== undefined) {
      const page: any = yield* ttApi(sandbox, url)
      data.push(...page.data)
      included.push(...(page.included ?? []))
      url = page.links.next === undefined ? undefined : page.links.next.slice(lookAlike(sandbox).baseUrl.length)
    }
    return { data, included }
  })

const setup = Effect.gen(function*() {
  const sandbox = yield* SandboxProviders
  sandbox.reset()
  sandbox.clearRequests()
  sandbox.faults.clear()
  const info = lookAlike(sandbox)
  const project = yield* freshProject
  const client = project.client
  const account = yield* client.accounts.create_account({
    payload: accountBody({ connector_key: "teamtailor", credentials: { apiKey: info.credentials["apiKey"]! }, settings: { base_url: info.baseUrl } })
  })
  const headers = { "x-account-id": account.id }
  const rpc = (payload: { action: string; query?: Record<string, unknown>; path?: Record<string, unknown>; body?: Record<string, unknown> }) =>
    client.actions.rpc_action({ headers, payload })
  /** Every record of a list action through the RPC, page by page. */
  const rpcAll = (action: string, pageSize: number, query: Record<string, unknown> = {}) =>
    walkPages((cursor) => rpc({ action, query: { page_size: pageSize, ...query, ...(cursor ? { cursor } : {}) } }))
  const address = (yield* HttpServer.HttpServer).address
  const origin = address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : ""
  const stackOne = new StackOne({ serverURL: origin, security: { username: project.key, password: "" }, retryConfig: { strategy: "none" } })
  return { sandbox, info, client, account, headers, rpc, rpcAll, stackOne }
})

const requestsTo = (sandbox: Sandbox, path: string) => sandbox.requests("teamtailor").filter((r) => r.path === `/v1${path}`)

const ids = (records: ReadonlyArray<Json>) => records.map((record) => record.id as string)

/** Teamtailor's "2024-02-20T13:40:59.000+01:00" as the unified UTC time. */
const utc = (text: string) => new Date(text).toISOString()

const errorTag = <A>(effect: Effect.Effect<A, { readonly _tag: string }>) => Effect.map(Effect.flip(effect), (error) => error._tag)

const decodeApplication = Schema.decodeUnknownSync(AtsApplication, { onExcessProperty: "error" })
const decodeCandidate = Schema.decodeUnknownSync(AtsCandidate, { onExcessProperty: "error" })
const isoMs = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/** The unified stage of a Teamtailor stage (the same for interview and application stages). */
const stageRecord = (s: Json) => ({
  id: s.id,
  remote_id: s.id,
  name: s.attributes.name,
  order: s.attributes["row-order"],
  created_at: utc(s.attributes["created-at"]),
  updated_at: utc(s.attributes["updated-at"])
})

const find = (included: ReadonlyArray<Json>, type: string, id: string | undefined) => included.find((r) => r.type === type && r.id === id)

/** The unified application the connector should make of a job application and the resources it includes. */
const expectedApplication = (a: Json, included: ReadonlyArray<Json>) => {
  const stage = find(included, "stages", a.relationships.stage.data.id)!
  const candidate = find(included, "candidates", a.relationships.candidate.data.id)!
  const reasonId: string | undefined = a.relationships["reject-reason"].data?.id
  const reason = find(included, "reject-reasons", reasonId)
  const stageObject = stageRecord(stage)
  const status = a.attributes["rejected-at"]
    ? { value: "rejected", source_value: "rejected" }
    : { value: ({ Inbox: "new", "In process": "active", Hired: "hired" } as Record<string, string>)[stage.attributes["stage-type"]], source_value: stage.attributes["stage-type"] }
  return {
    id: a.id,
    remote_id: a.id,
    candidate_id: candidate.id,
    remote_candidate_id: candidate.id,
    job_id: a.relationships.job.data.id,
    remote_job_id: a.relationships.job.data.id,
    interview_stage: stageObject,
    interview_stage_id: stage.id,
    remote_interview_stage_id: stage.id,
    application_stage: stageObject,
    application_stage_id: stage.id,
    remote_application_stage_id: stage.id,
    rejected_reasons: reason === undefined ? [] : [{
      id: reason.id,
      remote_id: reason.id,
      label: reason.attributes.reason,
      rejected_reason_type: {
        value: reason.attributes["rejected-by-company"] ? "rejected_by_organization" : "rejected_by_candidate",
        source_value: reason.attributes["rejected-by-company"]
      }
    }],
    rejected_reason_ids: reason === undefined ? [] : [reason.id],
    remote_rejected_reason_ids: reason === undefined ? [] : [reason.id],
    rejected_at: a.attributes["rejected-at"] ? utc(a.attributes["rejected-at"]) : null,
    application_status: status,
    candidate: {
      name: `${candidate.attributes["first-name"]} ${candidate.attributes["last-name"]}`,
      first_name: candidate.attributes["first-name"],
      last_name: candidate.attributes["last-name"],
      email: candidate.attributes.email
    },
    ...(a.attributes["referring-site"] ? { source: { name: a.attributes["referring-site"] } } : {}),
    created_at: utc(a.attributes["created-at"]),
    updated_at: utc(a.attributes["updated-at"])
  }
}

layer(Server, { excludeTestServices: true })("the teamtailor connector over the sandbox's Teamtailor look-alike", (it) => {
  it.effect("sends the API key as Token token=, X-Api-Version on every request; a wrong key is the provider's 401", () =>
    Effect.gen(function*() {
      const { client, info, rpc, sandbox } = yield* setup
      const jobs = yield* rpc({ action: "ats_list_jobs", query: { page_size: 1 } })
      expect(jobs.data).toHaveLength(1)
      const [sent] = requestsTo(sandbox, "/jobs")
      // the log leaves out Authorization; the look-alike answered 200, so the Token scheme held
      expect(sent!.headers["x-api-version"]).toBe(API_VERSION)
      expect(sent!.query).toMatchObject({ "page[size]": "1", "filter[status]": "all", include: "department,locations,user" })

      const wrong = yield* client.accounts.create_account({
        payload: accountBody({ connector_key: "teamtailor", credentials: { apiKey: "definitely-wrong-teamtailor-key" }, settings: { base_url: info.baseUrl } })
      })
      const refused = yield* Effect.flip(client.actions.rpc_action({ headers: { "x-account-id": wrong.id }, payload: { action: "ats_list_jobs" } }))
      expect(refused).toMatchObject({ _tag: "BadRequest", provider_errors: [{ status: 401 }] })
      expect(JSON.stringify(refused)).not.toContain("definitely-wrong-teamtailor-key")

      // the look-alike itself: the Token scheme and the version header are both required
      const bare = yield* Effect.promise(() => fetch(`${info.baseUrl}/jobs`, { headers: { authorization: `Token token=${info.credentials["apiKey"]}` } }))
      expect(bare.status).toBe(406)
      const bearer = yield* Effect.promise(() =>
        fetch(`${info.baseUrl}/jobs`, { headers: { authorization: `Bearer ${info.credentials["apiKey"]}`, "x-api-version": API_VERSION } })
      )
      expect(bearer.status).toBe(401)
      expect(yield* Effect.promise(() => bearer.json())).toMatchObject({ errors: [{ status: "401" }] })
    }))

  it.effect("ats_list_applications pages through every job application once; ats_get_application gets each; 404", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox } = yield* setup
      const raw = yield* everything(sandbox, "/job-applications", "&include=candidate,job,stage,reject-reason")
      expect(raw.data.length).toBeGreaterThan(40)
      sandbox.clearRequests()

      const { pages, records } = yield* walkPages((next) => client.unified_ats.ats_list_applications({ headers, urlParams: { page_size: 9, ...(next ? { next } : {}) } }), { schema: AtsApplicationsList })
      expect(pages).toBe(Math.ceil(raw.data.length / 9))
      expect(ids(records)).toEqual(ids(raw.data))
      const sent = requestsTo(sandbox, "/job-applications")
      expect(sent.map((r) => r.query["page[number]"] ?? "1")).toEqual(Array.from({ length: pages }, (_, i) => String(i + 1)))
      expect(sent.every((r) => r.query["page[size]"] === "9" && r.query["include"] === "candidate,job,stage,reject-reason")).toBe(true)

      for (const record of records) {
        decodeApplication(record)
        expect(APPLICATION_STATUS_VALUES).toContain(record.application_status.value)
        for (const key of ["created_at", "updated_at"]) expect(record[key]).toMatch(isoMs)
      }
      const byId = new Map(records.map((record) => [record.id as string, record]))
      for (const a of raw.data) expect(byId.get(a.id)).toEqual(expectedApplication(a, raw.included))
      const statuses = new Set(records.map((r) => r.application_status.value))
      for (const status of ["new", "active", "hired", "rejected"]) expect(statuses).toContain(status)

      const rejected = raw.data.find((a) => a.relationships["reject-reason"].data !== null)!
      const one = yield* client.unified_ats.ats_get_application({ headers, path: { id: rejected.id }, urlParams: {} })
      Schema.decodeUnknownSync(AtsApplicationResult, { onExcessProperty: "error" })(one)
      expect(one.data).toEqual(byId.get(rejected.id))
      expect(yield* errorTag(client.unified_ats.ats_get_application({ headers, path: { id: "999999" }, urlParams: {} }))).toBe("NotFound")
    }))

  it.effect("ats_list_applications filters by update and creation time (and, by RPC, stage type)", () =>
    Effect.gen(function*() {
      const { client, headers, rpcAll, sandbox } = yield* setup
      const raw = (yield* everything(sandbox, "/job-applications")).data
      const times = raw.map((a) => Date.parse(a.attributes["updated-at"])).sort((x, y) => x - y)
      const median = times[Math.floor(times.length / 2)]!
      const after = yield* client.unified_ats.ats_list_applications({ headers, urlParams: { page_size: 30, filter: { updated_after: new Date(median).toISOString() } } })
      const expected = raw.filter((a) => Date.parse(a.attributes["updated-at"]) >= median)
      expect(ids(after.data as ReadonlyArray<Json>)).toEqual(ids(expected).slice(0, 30))
      expect(requestsTo(sandbox, "/job-applications").at(-1)!.query["filter[updated-at][from]"]).toBe(new Date(median).toISOString())

      const created = raw.map((a) => Date.parse(a.attributes["created-at"])).sort((x, y) => x - y)
      const cut = created[Math.floor(created.length / 3)]!
      const newer = yield* client.unified_ats.ats_list_applications({ headers, urlParams: { page_size: 30, filter: { created_after: new Date(cut).toISOString() } } })
      expect(ids(newer.data as ReadonlyArray<Json>)).toEqual(ids(raw.filter((a) => Date.parse(a.attributes["created-at"]) >= cut)).slice(0, 30))

      const hired = yield* rpcAll("ats_list_applications", 30, { filter_stage_type: "Hired" })
      expect(hired.records.length).toBeGreaterThan(0)
      expect(hired.records.every((r) => r.application_status.value === "hired" || r.application_status.value === "rejected")).toBe(true)
      expect(requestsTo(sandbox, "/job-applications").at(-1)!.query["filter[stage-type]"]).toBe("Hired")
    }))

  it.effect("ats_move_application and ats_reject_application write through PATCH; a later read sees them", () =>
    Effect.gen(function*() {
      const { client, headers, rpc, sandbox } = yield* setup
      const raw = yield* everything(sandbox, "/job-applications", "&include=candidate,job,stage,reject-reason")
      const target = raw.data.find((a) => a.relationships["reject-reason"].data === null && find(raw.included, "stages", a.relationships.stage.data.id)!.attributes["stage-type"] === "Inbox")!
      const job = find(raw.included, "jobs", target.relationships.job.data.id)!
      const jobWithStages = yield* ttApi(sandbox, `/jobs/${job.id}?include=stages`)
      const stages = (jobWithStages.included as Array<Json>).filter((r) => r.type === "stages")
      const interview = stages.find((s) => s.attributes.name === "Interview")!
      sandbox.clearRequests()

      const moved = yield* client.unified_ats.ats_move_application({ headers, path: { id: target.id }, payload: { interview_stage_id: interview.id } })
      expect(moved).toMatchObject({ statusCode: 200, data: { id: target.id, remote_id: target.id } })
      const [patch] = sandbox.requests("teamtailor").filter((r) => r.method === "PATCH")
      expect(patch!.path).toBe(`/v1/job-applications/${target.id}`)
      // a JSON:API document, sent as one
      expect(patch!.headers["content-type"]).toBe("application/vnd.api+json")
      expect(JSON.parse(patch!.body!)).toEqual({
        data: { id: target.id, type: "job-applications", relationships: { stage: { data: { type: "stages", id: interview.id } } } }
      })
      const afterMove = yield* client.unified_ats.ats_get_application({ headers, path: { id: target.id }, urlParams: {} })
      expect(afterMove.data).toMatchObject({ interview_stage_id: interview.id, interview_stage: { name: "Interview" }, application_status: { value: "active" } })

      // a stage of another job is Teamtailor's 422
      const otherStage = (yield* ttApi(sandbox, "/stages?page%5Bsize%5D=30")).data.find((s: Json) => !stages.some((own) => own.id === s.id))
      const wrongStage = yield* Effect.flip(client.unified_ats.ats_move_application({ headers, path: { id: target.id }, payload: { interview_stage_id: otherStage.id } }))
      expect(wrongStage).toMatchObject({ provider_errors: [{ status: 422 }] })

      const reasons = (yield* ttApi(sandbox, "/reject-reasons")).data as Array<Json>
      const byCandidate = reasons.find((r) => r.attributes["rejected-by-company"] === false)!
      const rejected = yield* client.unified_ats.ats_reject_application({ headers, path: { id: target.id }, payload: { rejected_reason_id: byCandidate.id } })
      expect(rejected).toMatchObject({ data: { id: target.id } })
      const afterReject = yield* client.unified_ats.ats_get_application({ headers, path: { id: target.id }, urlParams: {} })
      expect(afterReject.data).toMatchObject({
        application_status: { value: "rejected", source_value: "rejected" },
        rejected_reason_ids: [byCandidate.id],
        rejected_reasons: [{ id: byCandidate.id, label: byCandidate.attributes.reason, rejected_reason_type: { value: "rejected_by_candidate" } }],
        interview_stage_id: interview.id
      })
      expect((afterReject.data as Json).rejected_at).toMatch(isoMs)
      const direct = yield* ttApi(sandbox, `/job-applications/${target.id}`)
      expect(direct.data.attributes["rejected-at"]).not.toBeNull()

      expect(yield* errorTag(client.unified_ats.ats_reject_application({ headers, path: { id: "999999" }, payload: {} }))).toBe("NotFound")

      // ats_create_application: the candidate applies to another job, in its Inbox
      const candidateId = target.relationships.candidate.data.id as string
      const applied = new Set(raw.data.filter((a) => a.relationships.candidate.data?.id === candidateId).map((a) => a.relationships.job.data.id))
      const jobs = (yield* ttApi(sandbox, "/jobs?filter%5Bstatus%5D=all&page%5Bsize%5D=30")).data as Array<Json>
      const other = jobs.find((j) => !applied.has(j.id) && j.attributes.status === "open")!
      const created = yield* rpc({ action: "ats_create_application", body: { candidate_id: candidateId, job_id: other.id, passthrough: { "cover-letter": "Hello" } } })
      const newId = (created.data as Json).id as string
      const got = yield* client.unified_ats.ats_get_application({ headers, path: { id: newId }, urlParams: {} })
      expect(got.data).toMatchObject({ candidate_id: candidateId, job_id: other.id, application_status: { value: "new", source_value: "Inbox" }, interview_stage: { name: "Inbox" } })
    }))

  it.effect("ats_list_candidates pages through every candidate; ats_get_candidate; 404; filter by email and time", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox } = yield* setup
      const raw = (yield* everything(sandbox, "/candidates", "&include=job-applications")).data
      expect(raw.length).toBe(60)
      const { pages, records } = yield* walkPages((next) => client.unified_ats.ats_list_candidates({ headers, urlParams: { page_size: 25, ...(next ? { next } : {}) } }), { schema: AtsCandidatesList })
      expect(pages).toBe(3)
      expect(ids(records)).toEqual(ids(raw))
      for (const record of records) {
        decodeCandidate(record)
        for (const key of ["created_at", "updated_at"]) expect(record[key]).toMatch(isoMs)
      }
      const byId = new Map(records.map((record) => [record.id as string, record]))
      const rich = raw.find((c) => c.attributes.phone && c.attributes["linkedin-url"] && c.attributes.tags.length > 0 && c.relationships["job-applications"].data.length > 0)!
      expect(byId.get(rich.id)).toEqual({
        id: rich.id,
        remote_id: rich.id,
        name: `${rich.attributes["first-name"]} ${rich.attributes["last-name"]}`,
        first_name: rich.attributes["first-name"],
        last_name: rich.attributes["last-name"],
        email: rich.attributes.email,
        emails: [{ value: rich.attributes.email }],
        phone: rich.attributes.phone,
        phone_numbers: [{ phone: rich.attributes.phone }],
        social_links: [{ type: "linkedin", url: rich.attributes["linkedin-url"] }],
        application_ids: rich.relationships["job-applications"].data.map((r: Json) => r.id),
        remote_application_ids: rich.relationships["job-applications"].data.map((r: Json) => r.id),
        tags: rich.attributes.tags.map((name: string) => ({ name })),
        created_at: utc(rich.attributes["created-at"]),
        updated_at: utc(rich.attributes["updated-at"])
      })
      // Teamtailor's pages hold at most 30 (a larger page[size] is refused): the connector asks for 30
      sandbox.clearRequests()
      const big = yield* client.unified_ats.ats_list_candidates({ headers, urlParams: { page_size: 100 } })
      expect(ids(big.data as ReadonlyArray<Json>)).toEqual(ids(raw.slice(0, 30)))
      expect(requestsTo(sandbox, "/candidates")[0]!.query["page[size]"]).toBe("30")
      const tooBig = yield* Effect.promise(() =>
        fetch(`${lookAlike(sandbox).baseUrl}/candidates?page%5Bsize%5D=31`, {
          headers: { authorization: `Token token=${lookAlike(sandbox).credentials["apiKey"]}`, "x-api-version": API_VERSION }
        })
      )
      expect(tooBig.status).toBe(400)

      const pool = raw.find((c) => c.relationships["job-applications"].data.length === 0)!
      expect(byId.get(pool.id)).toMatchObject({ application_ids: [], remote_application_ids: [] })

      const one = yield* client.unified_ats.ats_get_candidate({ headers, path: { id: rich.id }, urlParams: {} })
      Schema.decodeUnknownSync(AtsCandidateResult, { onExcessProperty: "error" })(one)
      expect(one.data).toEqual(byId.get(rich.id))
      expect(yield* errorTag(client.unified_ats.ats_get_candidate({ headers, path: { id: "123456789" }, urlParams: {} }))).toBe("NotFound")

      const byEmail = yield* client.unified_ats.ats_list_candidates({ headers, urlParams: { filter: { email: rich.attributes.email.toUpperCase() } } })
      expect(ids(byEmail.data as ReadonlyArray<Json>)).toEqual([rich.id])
      const updated = raw.map((c) => Date.parse(c.attributes["updated-at"])).sort((x, y) => x - y)
      const cut = updated[Math.floor(updated.length / 2)]!
      const newer = yield* client.unified_ats.ats_list_candidates({ headers, urlParams: { page_size: 30, filter: { updated_after: new Date(cut).toISOString() } } })
      expect(ids(newer.data as ReadonlyArray<Json>)).toEqual(ids(raw.filter((c) => Date.parse(c.attributes["updated-at"]) >= cut)).slice(0, 30))
    }))

  it.effect("ats_create_candidate creates a candidate, visible afterwards; a taken email is Teamtailor's 422", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox } = yield* setup
      const created = yield* client.unified_ats.ats_create_candidate({
        headers,
        payload: {
          name: "Ada King Lovelace",
          email: "ada.teamtailor@example.com",
          phone_numbers: [{ type: "mobile", phone: "+44 20 7946 0001" }],
          social_links: [{ type: "website", url: "https://example.com/ada" }, { type: "linkedin", url: "https://www.LinkedIn.com/in/ada" }],
          company: "Analytical Engines"
        }
      })
      expect(created).toMatchObject({ statusCode: 201, data: { id: expect.any(String), remote_id: expect.any(String) } })
      const id = created.data!.id as string
      const post = sandbox.requests("teamtailor").find((r) => r.method === "POST" && r.path === "/v1/candidates")!
      expect(post.headers["content-type"]).toBe("application/vnd.api+json")
      expect(JSON.parse(post.body!)).toEqual({
        data: {
          type: "candidates",
          attributes: {
            "first-name": "Ada",
            "last-name": "King Lovelace",
            email: "ada.teamtailor@example.com",
            phone: "+44 20 7946 0001",
            "linkedin-url": "https://www.LinkedIn.com/in/ada"
          }
        }
      })
      const got = yield* client.unified_ats.ats_get_candidate({ headers, path: { id }, urlParams: {} })
      expect(got.data).toMatchObject({
        id,
        name: "Ada King Lovelace",
        first_name: "Ada",
        last_name: "King Lovelace",
        email: "ada.teamtailor@example.com",
        phone_numbers: [{ phone: "+44 20 7946 0001" }],
        social_links: [{ type: "linkedin", url: "https://www.LinkedIn.com/in/ada" }],
        application_ids: []
      })
      const byEmail = yield* client.unified_ats.ats_list_candidates({ headers, urlParams: { filter: { email: "ada.teamtailor@example.com" } } })
      expect(ids(byEmail.data as ReadonlyArray<Json>)).toEqual([id])

      const again = yield* Effect.flip(client.unified_ats.ats_create_candidate({ headers, payload: { first_name: "Ada", email: "ADA.teamtailor@example.com" } }))
      expect(again).toMatchObject({ provider_errors: [{ status: 422 }] })
      expect((yield* everything(sandbox, "/candidates")).data).toHaveLength(61)
    }))

  it.effect("jobs through the unified API and the action RPC: every status, page by page; one job; 404; a status filter", () =>
    Effect.gen(function*() {
      const { client, headers, rpc, rpcAll, sandbox } = yield* setup
      const raw = yield* everything(sandbox, "/jobs", "&filter%5Bstatus%5D=all&include=department,locations,user")
      const published = (yield* everything(sandbox, "/jobs")).data
      expect(published.length).toBeLessThan(raw.data.length)
      const { pages, records } = yield* rpcAll("ats_list_jobs", 3)
      expect(pages).toBe(Math.ceil(raw.data.length / 3))
      expect(ids(records)).toEqual(ids(raw.data))
      const job = raw.data[0]!
      const user = find(raw.included, "users", job.relationships.user.data.id)!
      expect(records[0]).toEqual({
        id: job.id,
        remote_id: job.id,
        title: job.attributes.title,
        description: job.attributes.body,
        status: job.attributes["human-status"],
        job_status: { value: "published", source_value: "published" },
        department_ids: job.relationships.department.data ? [job.relationships.department.data.id] : [],
        remote_department_ids: job.relationships.department.data ? [job.relationships.department.data.id] : [],
        location_ids: job.relationships.locations.data.map((l: Json) => l.id),
        remote_location_ids: job.relationships.locations.data.map((l: Json) => l.id),
        hiring_team: [{
          user_id: user.id,
          remote_user_id: user.id,
          first_name: user.attributes.name.split(" ")[0],
          last_name: user.attributes.name.split(" ").slice(1).join(" "),
          email: user.attributes.email,
          role: "recruiter"
        }],
        confidential: job.attributes.internal ? "true" : "false",
        created_at: utc(job.attributes["created-at"])
      })
      const byStatus = new Map(records.map((r) => [r.status, r.job_status]))
      expect(byStatus.get("archived")).toEqual({ value: "archived", source_value: "archived" })
      expect(byStatus.get("draft")).toEqual({ value: "draft", source_value: "draft" })
      expect(byStatus.get("unlisted")).toEqual({ value: "unmapped_value", source_value: "unlisted" })

      const one = yield* rpc({ action: "ats_get_job", path: { id: job.id } })
      expect(one.data).toEqual(records[0])
      expect(yield* errorTag(rpc({ action: "ats_get_job", path: { id: "424242" } }))).toBe("NotFound")
      const onlyPublished = yield* rpcAll("ats_list_jobs", 30, { filter_status: "published" })
      expect(ids(onlyPublished.records)).toEqual(ids(published))

      // the unified endpoints: the same records, pages by `next`; the unified status open is Teamtailor's published
      const unified = (yield* walkPages((next) => client.unified_ats.ats_list_jobs({ headers, urlParams: { page_size: 3, ...(next ? { next } : {}) } }), { schema: AtsJobsList })).records
      expect(unified).toEqual(records)
      expect((yield* client.unified_ats.ats_get_job({ headers, path: { id: job.id }, urlParams: {} })).data).toEqual(records[0])
      expect(yield* errorTag(client.unified_ats.ats_get_job({ headers, path: { id: "424242" }, urlParams: {} }))).toBe("NotFound")
      const open = yield* client.unified_ats.ats_list_jobs({ headers, urlParams: { page_size: 30, filter: { status: "open" } } })
      expect(ids(open.data as ReadonlyArray<Json>)).toEqual(ids(published))
      expect(requestsTo(sandbox, "/jobs").at(-1)!.query["filter[status]"]).toBe("published")
    }))

  it.effect("interview and application stages, reject reasons, users, departments and locations through the RPC and the unified API", () =>
    Effect.gen(function*() {
      const { client, headers, rpc, rpcAll, sandbox } = yield* setup
      const ats = client.unified_ats
      type Page = { readonly data: ReadonlyArray<unknown>; readonly next?: string | null | undefined }
      type ListCall = (params: { headers: typeof headers; urlParams: { page_size: number; next?: string } }) => Effect.Effect<Page, { readonly _tag: string }>
      type GetCall = (params: { headers: typeof headers; path: { id: string }; urlParams: {} }) => Effect.Effect<{ readonly data: unknown }, { readonly _tag: string }>
      const unifiedCalls: Record<string, { list: ListCall; get: GetCall; schema: Schema.Schema<any, any> }> = {
        ats_list_interview_stages: { list: ats.ats_list_interview_stages, get: ats.ats_get_interview_stage, schema: AtsInterviewStagesList },
        ats_list_application_stages: { list: ats.ats_list_application_stages, get: ats.ats_get_application_stage, schema: AtsApplicationStagesList },
        ats_list_rejected_reasons: { list: ats.ats_list_rejected_reasons, get: ats.ats_get_rejected_reason, schema: AtsRejectedReasonsList },
        ats_list_users: { list: ats.ats_list_users, get: ats.ats_get_user, schema: AtsUsersList },
        ats_list_departments: { list: ats.ats_list_departments, get: ats.ats_get_department, schema: AtsDepartmentsList },
        ats_list_locations: { list: ats.ats_list_locations, get: ats.ats_get_location, schema: AtsLocationsList }
      }
      const cases: ReadonlyArray<{ list: string; get: string; path: string; expected: (r: Json) => Json }> = [
        {
          list: "ats_list_interview_stages",
          get: "ats_get_interview_stage",
          path: "/stages",
          expected: stageRecord
        },
        {
          list: "ats_list_application_stages",
          get: "ats_get_application_stage",
          path: "/stages",
          expected: stageRecord
        },
        {
          list: "ats_list_rejected_reasons",
          get: "ats_get_rejected_reason",
          path: "/reject-reasons",
          expected: (r) => ({
            id: r.id,
            remote_id: r.id,
            label: r.attributes.reason,
            rejected_reason_type: {
              value: r.attributes["rejected-by-company"] ? "rejected_by_organization" : "rejected_by_candidate",
              source_value: r.attributes["rejected-by-company"]
            }
          })
        },
        {
          list: "ats_list_users",
          get: "ats_get_user",
          path: "/users",
          expected: (u) => ({
            id: u.id,
            remote_id: u.id,
            name: u.attributes.name,
            first_name: u.attributes.name.split(" ")[0],
            last_name: u.attributes.name.split(" ").slice(1).join(" "),
            email: u.attributes.email,
            ...(u.attributes.phone ? { phone: u.attributes.phone } : {})
          })
        },
        { list: "ats_list_departments", get: "ats_get_department", path: "/departments", expected: (d) => ({ id: d.id, remote_id: d.id, name: d.attributes.name }) },
        {
          list: "ats_list_locations",
          get: "ats_get_location",
          path: "/locations",
          expected: (l) => ({ id: l.id, remote_id: l.id, name: l.attributes.name || l.attributes.city })
        }
      ]
      for (const { expected, get, list, path } of cases) {
        const raw = (yield* everything(sandbox, path)).data
        const { pages, records } = yield* rpcAll(list, 8)
        expect(pages).toBe(Math.ceil(raw.length / 8))
        expect(records).toEqual(raw.map(expected))
        const last = raw.at(-1)!
        expect((yield* rpc({ action: get, path: { id: last.id } })).data).toEqual(expected(last))
        expect(yield* errorTag(rpc({ action: get, path: { id: "987654321" } }))).toBe("NotFound")

        const unified = unifiedCalls[list]!
        const listed = (yield* walkPages((next) => unified.list({ headers, urlParams: { page_size: 8, ...(next ? { next } : {}) } }), { schema: unified.schema })).records
        expect(listed).toEqual(records)
        expect((yield* unified.get({ headers, path: { id: last.id }, urlParams: {} })).data).toEqual(expected(last))
        expect(yield* errorTag(unified.get({ headers, path: { id: "987654321" }, urlParams: {} }))).toBe("NotFound")
      }
    }))

  it.effect("the StackOne SDK lists and reads applications and candidates, and moves and rejects an application", () =>
    Effect.gen(function*() {
      const { account, client, headers, sandbox, stackOne } = yield* setup
      const sdk = <A>(call: () => Promise<A>) => Effect.promise(call)
      const applications = yield* sdk(() => stackOne.ats.listApplications({ xAccountId: account.id, pageSize: "5" }))
      expect(applications.statusCode).toBe(200)
      const ours = yield* client.unified_ats.ats_list_applications({ headers, urlParams: { page_size: 5 } })
      expect(applications.applicationsPaginated?.data?.map((a) => a.id)).toEqual(ids(ours.data as ReadonlyArray<Json>))
      const second = yield* sdk(() => stackOne.ats.listApplications({ xAccountId: account.id, pageSize: "5", next: applications.applicationsPaginated!.next! }))
      const firstTen = (yield* ttApi(sandbox, "/job-applications?page%5Bsize%5D=10")).data as Array<Json>
      expect(second.applicationsPaginated?.data?.map((a) => a.id)).toEqual(ids(firstTen.slice(5)))

      const candidates = yield* sdk(() => stackOne.ats.listCandidates({ xAccountId: account.id, pageSize: "30" }))
      expect(candidates.candidatesPaginated?.data).toHaveLength(30)
      const first = candidates.candidatesPaginated!.data![0]!
      const one = yield* sdk(() => stackOne.ats.getCandidate({ xAccountId: account.id, id: first.id! }))
      expect(one.candidateResult?.data).toEqual(first)

      const raw = yield* everything(sandbox, "/job-applications", "&include=stage,reject-reason&filter%5Bstage-type%5D=In%20process")
      const open = raw.data.find((a) => a.relationships["reject-reason"].data === null)!
      const current = find(raw.included, "stages", open.relationships.stage.data.id)!
      const job = yield* ttApi(sandbox, `/job-applications/${open.id}?include=job`)
      const stages = (yield* ttApi(sandbox, `/jobs/${job.data.relationships.job.data.id}?include=stages`)).included as Array<Json>
      const hired = stages.find((s) => s.attributes["stage-type"] === "Hired" && s.id !== current.id)!
      const moved = yield* sdk(() => stackOne.ats.moveApplication({ xAccountId: account.id, id: open.id, atsMoveApplicationRequestDto: { interviewStageId: hired.id } }))
      expect(moved.moveApplicationResult?.data).toEqual({ id: open.id, remoteId: open.id })
      expect((yield* ttApi(sandbox, `/job-applications/${open.id}?include=stage`)).data.relationships.stage.data.id).toBe(hired.id)
      const rejected = yield* sdk(() => stackOne.ats.rejectApplication({ xAccountId: account.id, id: open.id, atsRejectApplicationRequestDto: {} }))
      expect(rejected.rejectApplicationResult?.data).toEqual({ id: open.id, remoteId: open.id })
      const after = yield* ttApi(sandbox, `/job-applications/${open.id}?include=reject-reason`)
      expect(after.data.attributes["rejected-at"]).not.toBeNull()
      expect(after.data.relationships["reject-reason"].data).toBeNull()
    }))

  it.effect("a 429 with Retry-After is retried and then answered; a lasting 429 and 5xx give the documented errors", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox } = yield* setup
      sandbox.faults.add({ match: { provider: "teamtailor", path: "/v1/candidates" }, fault: "rate_limit", retryAfter: 0, times: 1 })
      const page = yield* client.unified_ats.ats_list_candidates({ headers, urlParams: { page_size: 5 } })
      expect(page.data).toHaveLength(5)
      expect(requestsTo(sandbox, "/candidates")).toHaveLength(2)

      sandbox.clearRequests()
      sandbox.faults.add({ match: { provider: "teamtailor", path: "/v1/candidates" }, fault: "rate_limit", retryAfter: 120, times: 5 })
      expect(yield* errorTag(client.unified_ats.ats_list_candidates({ headers, urlParams: {} }))).toBe("TooManyRequests")
      expect(requestsTo(sandbox, "/candidates")).toHaveLength(1)
      sandbox.faults.clear()

      sandbox.clearRequests()
      sandbox.faults.add({ match: { provider: "teamtailor", path: "/v1/job-applications" }, fault: "status", status: 503, times: 10 })
      expect(yield* errorTag(client.unified_ats.ats_list_applications({ headers, urlParams: {} }))).toBe("BadGateway")
      expect(requestsTo(sandbox, "/job-applications").length).toBeGreaterThan(1)
      sandbox.faults.clear()
    }))
})
