import { HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import {
  AtsApplication,
  AtsApplicationsList,
  AtsCandidate,
  AtsCandidatesList,
  AtsDepartmentsList,
  AtsInterviewStagesList,
  AtsJobsList,
  AtsUsersList
} from "@switchyard/api"
import type { Sandbox } from "@switchyard/sandbox"
import { Effect, Layer, Schema } from "effect"
import { accountBody, freshProject } from "./support/Fixtures.js"
import { type Json, SandboxLive, SandboxProviders } from "./support/SandboxLayer.js"
import { sdkCalls, stackOneSdkClient } from "./support/StackOneSdkClient.js"
import { TestServer } from "./support/TestServer.js"
import { walkPages } from "./support/walkPages.js"

/*
 * The built-in workable connector against the sandbox's Workable look-alike (SPI v3): an account
 * linked with the look-alike's token, subdomain and acting member, then every action the connector
 * has, through the unified API, each write also through the real StackOne SDK, checked against
 * what the look-alike itself holds. The connector keeps to Workable's 10 requests per 10 seconds
 * (one a second per account), so lists take few, large pages, and independent checks run on
 * accounts of their own, side by side.
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

/** An account of its own (its own one request a second), with the unified client and the StackOne SDK. */
const newAccount = (sandbox: Sandbox, credentials: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const { client, key } = yield* freshProject
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
    const address = (yield* HttpServer.HttpServer).address
    const sdk = stackOneSdkClient(address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : "", key)
    return { client, account, headers, sdkWrite: sdkCalls(sdk, account.id).write, ats: client.unified_ats }
  })

/** Fresh look-alike data, no faults, an empty request log, and `n` accounts. */
const setup = (n: number) =>
  Effect.gen(function*() {
    const sandbox = yield* SandboxProviders
    sandbox.reset()
    sandbox.faults.clear()
    const accounts = yield* Effect.all(Array.from({ length: n }, () => newAccount(sandbox)), { concurrency: "unbounded" })
    // linking checks the credentials with a request: the log starts after
    sandbox.clearRequests()
    return { sandbox, accounts }
  })

/** Two calls side by side (each on its own account, else the account's rate limit queues them anyway). */
const both = <A, B, E1, E2, R1, R2>(a: Effect.Effect<A, E1, R1>, b: Effect.Effect<B, E2, R2>) =>
  Effect.all([a, b] as const, { concurrency: "unbounded" })

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
      const { accounts: [a, b, c, d], sandbox } = yield* setup(4)
      const raw = yield* everything(sandbox, "/candidates?limit=100", "candidates")
      const stages = (yield* workableApi(sandbox, "/stages")).stages as Array<Json>
      expect(raw.length).toBeGreaterThanOrEqual(40)
      const stageOf = (slug: string) => stages.find((s) => s.slug === slug)!
      const rejected = raw.find((c) => c.disqualified)!
      const hired = raw.find((c) => c.stage === "hired")!
      const active = raw.find((c) => !c.disqualified && c.stage === "interview")!
      sandbox.clearRequests()

      // the list on one account, the gets on others, side by side
      const [{ pages, records }, one, missing, other] = yield* Effect.all([
        walkPages(
          (next) => a!.ats.ats_list_applications({ headers: a!.headers, urlParams: { page_size: 30, ...(next ? { next } : {}) } }),
          { schema: AtsApplicationsList }
        ),
        b!.ats.ats_get_application({ headers: b!.headers, path: { id: rejected.id }, urlParams: {} }),
        errorTag(d!.ats.ats_get_application({ headers: d!.headers, path: { id: "0fffffff" }, urlParams: {} })),
        c!.ats.ats_get_application({ headers: c!.headers, path: { id: active.id }, urlParams: {} })
      ], { concurrency: "unbounded" })
      expect(pages).toBe(Math.ceil(raw.length / 30))
      expect(ids(records)).toEqual(raw.map((c) => c.id))
      // each page after the first asked from the since_id of Workable's paging.next
      const sent = calls(sandbox, "/candidates").map((r) => r.query["since_id"] ?? null)
      expect(sent).toEqual([null, raw[30]!.id])
      for (const record of records) decodeApplication(record)

      const byId = new Map(records.map((record) => [record.id as string, record]))
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
      const detail = (yield* workableApi(sandbox, `/candidates/${rejected.id}`)).candidate
      expect(detail.stage).toBe(stageOf(rejected.stage).name)
      expect(one.data).toEqual({ ...byId.get(rejected.id), rejected_at: iso(detail.disqualified_at) })
      expect(other.data).toEqual(byId.get(active.id))
      expect(missing).toBe("NotFound")
    }))

  it.effect("ats_list_applications filters by job (shortcode), stage and update time, with Workable's own parameters", () =>
    Effect.gen(function*() {
      const { accounts: [a, b], sandbox } = yield* setup(2)
      const raw = yield* everything(sandbox, "/candidates?limit=100", "candidates")
      const shortcode = raw[0]!.job.shortcode as string
      const stage = raw[0]!.stage as string
      const times = [...new Set(raw.map((c) => c.updated_at as string))].sort()
      const median = times[Math.floor(times.length / 2)]!
      const list = (account: typeof a, filter: Record<string, string>) =>
        Effect.map(account!.ats.ats_list_applications({ headers: account!.headers, urlParams: { page_size: 100, filter } }), (page) => page.data as ReadonlyArray<Json>)

      const [inJobAndStage, after] = yield* both(list(a, { job_id: shortcode, stage }), list(b, { updated_after: median }))
      expect(ids(inJobAndStage)).toEqual(raw.filter((c) => c.job.shortcode === shortcode && c.stage === stage).map((c) => c.id))
      expect(calls(sandbox, "/candidates").find((r) => r.query["shortcode"] !== undefined)!.query).toMatchObject({ shortcode, stage, limit: "100" })
      // Workable's updated_after is strict
      expect(ids(after)).toEqual(raw.filter((c) => c.updated_at > median).map((c) => c.id))
      expect(calls(sandbox, "/candidates").find((r) => r.query["updated_after"] !== undefined)!.query["updated_after"]).toBe(String(Date.parse(median) / 1000))
    }))

  it.effect("ats_list_candidates pages through every candidate; ats_get_candidate adds the tags; 404; filter by email", () =>
    Effect.gen(function*() {
      const { accounts: [a, b, c], sandbox } = yield* setup(3)
      const raw = yield* everything(sandbox, "/candidates?limit=100", "candidates")
      const rich = raw.find((c) => c.phone !== null && c.headline !== null && c.hired_at !== null)!
      const tagged = raw.find((c) => c.id !== rich.id && c.phone !== null)!
      const [{ pages, records }, [richOne, missing], [taggedOne, byEmail]] = yield* Effect.all([
        walkPages(
          (next) => a!.ats.ats_list_candidates({ headers: a!.headers, urlParams: { page_size: 40, ...(next ? { next } : {}) } }),
          { schema: AtsCandidatesList }
        ),
        both(
          b!.ats.ats_get_candidate({ headers: b!.headers, path: { id: rich.id }, urlParams: {} }),
          errorTag(b!.ats.ats_get_candidate({ headers: b!.headers, path: { id: "0fffffff" }, urlParams: {} }))
        ),
        both(
          c!.ats.ats_get_candidate({ headers: c!.headers, path: { id: tagged.id }, urlParams: {} }),
          c!.ats.ats_list_candidates({ headers: c!.headers, urlParams: { filter: { email: rich.email.toUpperCase() } } })
        )
      ], { concurrency: "unbounded" })
      expect(pages).toBe(Math.ceil(raw.length / 40))
      expect(ids(records)).toEqual(raw.map((c) => c.id))
      for (const record of records) decodeCandidate(record)

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
      const detail = (yield* workableApi(sandbox, `/candidates/${rich.id}`)).candidate
      expect(richOne.data).toEqual({ ...expected, tags: detail.tags.map((name: string) => ({ name })) })
      const taggedDetail = (yield* workableApi(sandbox, `/candidates/${tagged.id}`)).candidate
      expect(taggedOne.data).toEqual({ ...byId.get(tagged.id), tags: taggedDetail.tags.map((name: string) => ({ name })) })
      expect(missing).toBe("NotFound")
      expect(ids(byEmail.data as ReadonlyArray<Json>)).toEqual([rich.id])
    }))

  it.effect("ats_create_candidate creates a candidate in the job passthrough.job_id names, through the unified API and the StackOne SDK", () =>
    Effect.gen(function*() {
      const { accounts: [a, b], sandbox } = yield* setup(2)
      const jobs = (yield* workableApi(sandbox, "/jobs")).jobs as Array<Json>
      const [job, other] = [jobs[2]!, jobs[5]!]
      const before = (yield* everything(sandbox, "/candidates?limit=100", "candidates")).length

      const [created, [bySdk, missing]] = yield* both(
        a!.ats.ats_create_candidate({
          headers: a!.headers,
          payload: {
            first_name: "Ada",
            last_name: "Lovelace",
            email: "ada.workable@example.com",
            title: "Analyst",
            phone_numbers: [{ type: "mobile", phone: "+44 20 7946 0001" }],
            passthrough: { job_id: job.shortcode, tags: ["API"], summary: "Notes on the engine" }
          }
        }),
        both(
          b!.sdkWrite("ats_create_candidate", { name: "Grace Hopper", email: "grace.workable@example.com", passthrough: { job_id: other.shortcode } }),
          // a job that is not there: Workable's 404, told as the input's fault
          Effect.flip(b!.ats.ats_create_candidate({ headers: b!.headers, payload: { name: "No Job", email: "x@example.com", passthrough: { job_id: "NOPE999" } } }))
        )
      )
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
      // the SDK's create: its answer validated by the SDK, the candidate in the look-alike on that job
      expect({ status: bySdk.status, issues: bySdk.issues }).toEqual({ status: 201, issues: [] })
      const graceId = bySdk.body.data.id as string
      expect(bySdk.body.data).toEqual({ id: graceId, remote_id: graceId })
      expect((yield* workableApi(sandbox, `/candidates/${graceId}`)).candidate).toMatchObject({
        id: graceId,
        name: "Grace Hopper",
        firstname: "Grace",
        lastname: "Hopper",
        email: "grace.workable@example.com",
        job: { shortcode: other.shortcode },
        sourced: true
      })
      expect(missing).toMatchObject({ _tag: "BadRequest" })
      expect(JSON.stringify(missing)).toContain("job_id")

      const [got, application] = yield* both(
        a!.ats.ats_get_candidate({ headers: a!.headers, path: { id }, urlParams: {} }),
        b!.ats.ats_get_application({ headers: b!.headers, path: { id }, urlParams: {} })
      )
      expect(got.data).toMatchObject({
        id,
        name: "Ada Lovelace",
        email: "ada.workable@example.com",
        title: "Analyst",
        phone_numbers: [{ phone: "+44 20 7946 0001" }],
        tags: [{ name: "API" }],
        application_ids: [id]
      })
      expect(application.data).toMatchObject({ id, job_id: job.shortcode, interview_stage_id: "sourced", status: { value: "lead" } })
      decodeApplication(application.data)
      // newest last, and nothing for the missing job
      const raw = yield* everything(sandbox, "/candidates?limit=100", "candidates")
      expect(raw).toHaveLength(before + 2)
      expect(new Set(ids(raw.slice(-2)))).toEqual(new Set([id, graceId]))
    }))

  it.effect("ats_move_application and ats_reject_application move and disqualify as the acting member, through the unified API and the StackOne SDK", () =>
    Effect.gen(function*() {
      const { accounts: [a, b, c], sandbox } = yield* setup(3)
      const info = workableOf(sandbox)
      const raw = yield* everything(sandbox, "/candidates?limit=100", "candidates")
      // three candidates before the offer and interview stages they are moved to
      const [first, second, third] = raw.filter((c) => !c.disqualified && ["sourced", "applied", "phone-screen", "assessment"].includes(c.stage))
      const reasons = (yield* workableApi(sandbox, "/disqualification_reasons")) as Array<Json>
      const reason = reasons.find((r) => !r.candidate_withdrew)!
      const withdrew = reasons.find((r) => r.candidate_withdrew)!

      const [[moved, afterMove], [rejected, afterReject], [sdkMoved, sdkRejected, missing]] = yield* Effect.all([
        Effect.all([
          a!.ats.ats_move_application({ headers: a!.headers, path: { id: first!.id }, payload: { interview_stage_id: "offer" } }),
          a!.ats.ats_get_application({ headers: a!.headers, path: { id: first!.id }, urlParams: {} })
        ]),
        Effect.all([
          b!.ats.ats_reject_application({ headers: b!.headers, path: { id: second!.id }, payload: { rejected_reason_id: reason.id } }),
          b!.ats.ats_get_application({ headers: b!.headers, path: { id: second!.id }, urlParams: {} })
        ]),
        Effect.all([
          c!.sdkWrite("ats_move_application", { interview_stage_id: "interview" }, third!.id),
          c!.sdkWrite("ats_reject_application", { rejected_reason_id: withdrew.id }, third!.id),
          errorTag(c!.ats.ats_move_application({ headers: c!.headers, path: { id: "0fffffff" }, payload: { interview_stage_id: "offer" } }))
        ])
      ], { concurrency: "unbounded" })

      expect(moved).toMatchObject({ data: { id: first!.id, remote_id: first!.id } })
      expect(JSON.parse(calls(sandbox, `/candidates/${first!.id}/move`, "POST")[0]!.body!)).toEqual({ member_id: info.credentials["memberId"], target_stage: "offer" })
      expect(afterMove.data).toMatchObject({ interview_stage_id: "offer", interview_stage: { name: "Offer" }, status: { value: "offer" } })

      expect(rejected).toMatchObject({ data: { id: second!.id } })
      expect(JSON.parse(calls(sandbox, `/candidates/${second!.id}/disqualify`, "POST")[0]!.body!)).toEqual({
        member_id: info.credentials["memberId"],
        disqualify_reason_id: reason.id
      })
      expect(afterReject.data).toMatchObject({ status: { value: "rejected" }, rejected_reason: reason.description, rejected_at: expect.any(String) })

      // the SDK's move and reject: answers the SDK accepts, and the look-alike's candidate moved, then disqualified as withdrawn
      for (const answer of [sdkMoved, sdkRejected]) {
        expect({ status: answer.status, issues: answer.issues, data: answer.body.data }).toEqual({ status: 200, issues: [], data: { id: third!.id, remote_id: third!.id } })
      }
      expect(JSON.parse(calls(sandbox, `/candidates/${third!.id}/move`, "POST")[0]!.body!)).toEqual({ member_id: info.credentials["memberId"], target_stage: "interview" })
      expect((yield* workableApi(sandbox, `/candidates/${third!.id}`)).candidate).toMatchObject({
        stage: "Interview",
        disqualified: true,
        disqualification_reason: withdrew.description,
        disqualified_at: expect.any(String)
      })
      expect(missing).toBe("NotFound")

      // without an acting member Workable refuses the move
      const noMember = yield* newAccount(sandbox, { memberId: "" })
      const refused = yield* Effect.flip(noMember.ats.ats_move_application({ headers: noMember.headers, path: { id: first!.id }, payload: { interview_stage_id: "hired" } }))
      // Workable's refusal (this look-alike's 422: the documentation gives none) is the provider's 400
      expect(refused).toMatchObject({ _tag: "BadRequest", statusCode: 400 })
      expect(JSON.stringify(refused)).toContain("member_id")
      expect((yield* workableApi(sandbox, `/candidates/${first!.id}`)).candidate.stage).toBe("Offer")
    }))

  it.effect("ats_create_application copies a candidate to another job (POST /candidates/{id}/copy), through the unified API and the StackOne SDK", () =>
    Effect.gen(function*() {
      const { accounts: [a, b], sandbox } = yield* setup(2)
      const info = workableOf(sandbox)
      const raw = yield* everything(sandbox, "/candidates?limit=100", "candidates")
      const jobs = (yield* workableApi(sandbox, "/jobs")).jobs as Array<Json>
      const [one, two, three] = raw.filter((c) => !c.disqualified)
      const twoBefore = (yield* workableApi(sandbox, `/candidates/${two!.id}`)).candidate
      const elsewhere = (c: Json) => jobs.find((j) => j.shortcode !== c.job.shortcode && j.state === "published")!.shortcode as string

      const [[created, missing], [bySdk, noJob]] = yield* both(
        both(
          a!.ats.ats_create_application({ headers: a!.headers, payload: { candidate_id: one!.id, job_id: elsewhere(one!) } }),
          Effect.flip(a!.ats.ats_create_application({ headers: a!.headers, payload: { candidate_id: "0fffffff", job_id: elsewhere(one!) } }))
        ),
        both(
          b!.sdkWrite("ats_create_application", { candidate_id: two!.id, job_id: elsewhere(two!), passthrough: { target_stage: "applied" } }),
          Effect.flip(b!.ats.ats_create_application({ headers: b!.headers, payload: { candidate_id: three!.id, job_id: "NOPE999" } }))
        )
      )
      expect(created).toMatchObject({ statusCode: 201, data: { id: expect.any(String) } })
      const copyId = created.data!.id as string
      expect(copyId).not.toBe(one!.id)
      expect(JSON.parse(calls(sandbox, `/candidates/${one!.id}/copy`, "POST")[0]!.body!)).toEqual({
        member_id: info.credentials["memberId"],
        target_job_shortcode: elsewhere(one!)
      })
      expect(missing).toMatchObject({ _tag: "NotFound" })
      expect(noJob).toMatchObject({ _tag: "NotFound" })

      expect({ status: bySdk.status, issues: bySdk.issues }).toEqual({ status: 201, issues: [] })
      const sdkCopyId = bySdk.body.data.id as string
      expect(bySdk.body.data).toEqual({ id: sdkCopyId, remote_id: sdkCopyId })
      expect(JSON.parse(calls(sandbox, `/candidates/${two!.id}/copy`, "POST")[0]!.body!)).toEqual({
        member_id: info.credentials["memberId"],
        target_job_shortcode: elsewhere(two!),
        target_stage: "applied"
      })
      // the look-alike holds both copies on their new jobs, the originals where they were
      const [copy, sdkCopy, original] = yield* Effect.all([
        workableApi(sandbox, `/candidates/${copyId}`),
        workableApi(sandbox, `/candidates/${sdkCopyId}`),
        workableApi(sandbox, `/candidates/${two!.id}`)
      ])
      expect(copy.candidate).toMatchObject({ email: one!.email, name: one!.name, job: { shortcode: elsewhere(one!) }, disqualified: false })
      expect(sdkCopy.candidate).toMatchObject({ email: two!.email, job: { shortcode: elsewhere(two!) }, stage: "Applied" })
      expect(original.candidate).toEqual(twoBefore)

      // read back as the new application of that job
      const application = yield* a!.ats.ats_get_application({ headers: a!.headers, path: { id: sdkCopyId }, urlParams: {} })
      decodeApplication(application.data)
      expect(application.data).toMatchObject({ id: sdkCopyId, candidate_id: sdkCopyId, job_id: elsewhere(two!), interview_stage_id: "applied", status: { value: "new" } })
      // two copies, nothing for the missing candidate or job
      expect((yield* everything(sandbox, "/candidates?limit=100", "candidates")).length).toBe(raw.length + 2)
    }))

  it.effect("jobs by shortcode through the unified API: ats_list_jobs pages, ats_get_job, 404, the status filter", () =>
    Effect.gen(function*() {
      const { accounts: [a, b, c], sandbox } = yield* setup(3)
      const raw = yield* everything(sandbox, "/jobs?limit=100", "jobs")
      const [{ pages, records }, [one, missing], [open, drafts]] = yield* Effect.all([
        walkPages(
          (next) => a!.ats.ats_list_jobs({ headers: a!.headers, urlParams: { page_size: 4, ...(next ? { next } : {}) } }),
          { schema: AtsJobsList }
        ),
        both(
          b!.ats.ats_get_job({ headers: b!.headers, path: { id: raw[1]!.shortcode }, urlParams: {} }),
          errorTag(b!.ats.ats_get_job({ headers: b!.headers, path: { id: "NOPE999" }, urlParams: {} }))
        ),
        both(
          c!.ats.ats_list_jobs({ headers: c!.headers, urlParams: { page_size: 100, filter: { status: "open" } } }),
          c!.ats.ats_list_jobs({ headers: c!.headers, urlParams: { page_size: 100, filter: { job_status: "draft" } } })
        )
      ], { concurrency: "unbounded" })
      expect(pages).toBe(Math.ceil(raw.length / 4))
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
      expect(one.data).toEqual(records[1])
      expect(missing).toBe("NotFound")
      // the unified open is Workable's published
      expect(ids(open.data as ReadonlyArray<Json>)).toEqual(raw.filter((j) => j.state === "published").map((j) => j.shortcode))
      expect(ids(drafts.data as ReadonlyArray<Json>)).toEqual(raw.filter((j) => j.state === "draft").map((j) => j.shortcode))
      expect(calls(sandbox, "/jobs").map((r) => r.query["state"]).filter((s) => s !== undefined).sort()).toEqual(["draft", "published"])
    }))

  it.effect("stages, users (members) and departments through the unified API", () =>
    Effect.gen(function*() {
      const { accounts: [a, b, c, d], sandbox } = yield* setup(4)
      const stages = (yield* workableApi(sandbox, "/stages")).stages as Array<Json>
      const members = yield* everything(sandbox, "/members?limit=100", "members")
      const departments = (yield* workableApi(sandbox, "/departments")) as Array<Json>
      yield* Effect.all([
        Effect.gen(function*() {
          const listed = yield* a!.ats.ats_list_interview_stages({ headers: a!.headers, urlParams: {} })
          Schema.decodeUnknownSync(AtsInterviewStagesList, { onExcessProperty: "error" })(listed)
          expect(listed.data).toEqual(stages.map((s) => ({ id: s.slug, remote_id: s.slug, name: s.name, order: s.position })))
          const one = yield* a!.ats.ats_get_interview_stage({ headers: a!.headers, path: { id: "phone-screen" }, urlParams: {} })
          expect(one.data).toEqual({ id: "phone-screen", remote_id: "phone-screen", name: "Phone Screen", order: 2 })
          expect(yield* errorTag(a!.ats.ats_get_interview_stage({ headers: a!.headers, path: { id: "nope" }, urlParams: {} }))).toBe("NotFound")
        }),
        Effect.gen(function*() {
          const { pages, records } = yield* walkPages(
            (next) => b!.ats.ats_list_users({ headers: b!.headers, urlParams: { page_size: 5, ...(next ? { next } : {}) } }),
            { schema: AtsUsersList }
          )
          expect(pages).toBe(Math.ceil(members.length / 5))
          expect(records).toEqual(members.map((m) => ({ id: m.id, remote_id: m.id, name: m.name, email: m.email })))
          expect(records).toHaveLength(members.length)
        }),
        Effect.gen(function*() {
          const one = yield* d!.ats.ats_get_user({ headers: d!.headers, path: { id: members[5]!.id }, urlParams: {} })
          expect(one.data).toEqual({ id: members[5]!.id, remote_id: members[5]!.id, name: members[5]!.name, email: members[5]!.email })
        }),
        Effect.gen(function*() {
          const listed = yield* c!.ats.ats_list_departments({ headers: c!.headers, urlParams: {} })
          Schema.decodeUnknownSync(AtsDepartmentsList, { onExcessProperty: "error" })(listed)
          expect(listed.data).toEqual(departments.map((d) => ({ id: d.id, remote_id: d.id, name: d.name })))
          expect(yield* errorTag(c!.ats.ats_get_user({ headers: c!.headers, path: { id: "0fffffff" }, urlParams: {} }))).toBe("NotFound")
        })
      ], { concurrency: "unbounded" })
    }))

  it.effect("Workable's 429, its 5xx and a bad token come back as the documented answers, the token never in them", () =>
    Effect.gen(function*() {
      // one account for each fault, so the account's one request a second does not add up between them
      const { accounts: [a, b, c], sandbox } = yield* setup(3)
      sandbox.faults.add({ match: { provider: "workable", path: "/spi/v3/candidates" }, fault: "rate_limit", retryAfter: 1, times: 1 })
      const retried = yield* a!.ats.ats_list_candidates({ headers: a!.headers, urlParams: { page_size: 5 } })
      expect(retried.data).toHaveLength(5)
      expect(calls(sandbox, "/candidates").map((r) => r.faults.length)).toEqual([1, 0])
      sandbox.clearRequests()
      // a Retry-After beyond the provider deadline (60 s) is answered at once
      sandbox.faults.add({ match: { provider: "workable", path: "/spi/v3/candidates" }, fault: "rate_limit", retryAfter: 120, times: 5 })
      const limited = yield* Effect.flip(b!.ats.ats_list_candidates({ headers: b!.headers, urlParams: {} }))
      expect(limited._tag).toBe("TooManyRequests")
      expect(calls(sandbox, "/candidates")).toHaveLength(1)
      sandbox.faults.clear()
      sandbox.clearRequests()

      sandbox.faults.add({ match: { provider: "workable", path: "/spi/v3/candidates" }, fault: "status", status: 503, times: 1 })
      const recovered = yield* c!.ats.ats_list_candidates({ headers: c!.headers, urlParams: { page_size: 5 } })
      expect(recovered.data).toHaveLength(5)
      expect(calls(sandbox, "/candidates")).toHaveLength(2)
      sandbox.faults.clear()

      const bad = yield* newAccount(sandbox, { apiToken: "not-the-workable-token-0123456789" })
      const refused = yield* Effect.flip(bad.ats.ats_list_candidates({ headers: bad.headers, urlParams: {} }))
      expect(refused._tag).not.toBe("TooManyRequests")
      const text = JSON.stringify(refused)
      expect(text).toContain("401")
      expect(text).not.toContain("not-the-workable-token-0123456789")
      expect(text).not.toContain(workableOf(sandbox).credentials["apiToken"]!)
    }))
})
