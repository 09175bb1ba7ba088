import { HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import {
  APPLICATION_STATUS_VALUES,
  AtsApplication,
  AtsApplicationResult,
  AtsApplicationsList,
  AtsApplicationStagesList,
  AtsCandidate,
  AtsCandidateResult,
  AtsCandidatesList,
  AtsDepartmentsList,
  AtsJobsList,
  AtsLocationsList,
  AtsRejectedReasonsList,
  AtsUsersList
} from "@switchyard/api"
import type { Sandbox } from "@switchyard/sandbox"
import { Effect, Schema } from "effect"
import { accountBody, freshProject } from "./support/Fixtures.js"
import { type Json, SandboxProviders, SandboxServer } from "./support/SandboxLayer.js"
import { sdkCalls, stackOneSdkClient } from "./support/StackOneSdkClient.js"
import { walkPages } from "./support/walkPages.js"

/*
 * The built-in ashby connector against the sandbox's Ashby look-alike (POST /<category>.<method>
 * with Basic authentication, {success, results} answers, cursor pages): an account linked with
 * the look-alike's API key, then every action the connector implements through the unified API,
 * each write also through the real StackOne SDK, checked against what the look-alike itself
 * answers and against the unified schemas.
 */

/** Three attempts within a 4 s deadline, so a long Retry-After is answered at once rather than waited out. */
const Server = SandboxServer(4000)

const lookAlike = (sandbox: Sandbox) => {
  const info = sandbox.lookAlikes.ashby
  if (info === undefined) throw new Error("the sandbox has no ashby look-alike")
  return info
}

/** One Ashby call on the look-alike, with the account's key unless `key` says otherwise. */
const call = (sandbox: Sandbox, endpoint: string, body: Json = {}, key?: string | null) =>
  Effect.promise(async () => {
    const info = lookAlike(sandbox)
    const secret = key === undefined ? info.credentials["apiKey"] : key
    const response = await fetch(`${info.baseUrl}/${endpoint}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(secret === null ? {} : { authorization: `Basic ${Buffer.from(`${secret}:`).toString("base64")}` })
      },
      body: JSON.stringify(body)
    })
    return { status: response.status, body: (await response.json()) as any }
  })

/** Every record of an Ashby list, page after page. */
const everything = (sandbox: Sandbox, endpoint: string, body: Json = {}) =>
  Effect.gen(function*() {
    const out: Array<Json> = []
    let cursor: string | undefined
    for (;;) {
      const page = (yield* call(sandbox, endpoint, { ...body, limit: 100, ...(cursor === undefined ? {} : { cursor }) })).body
      expect(page.success).toBe(true)
      out.push(...page.results)
      if (!page.moreDataAvailable) return out
      cursor = page.nextCursor
    }
  })

const setup = Effect.gen(function*() {
  const sandbox = yield* SandboxProviders
  sandbox.reset()
  sandbox.faults.clear()
  sandbox.clearRequests()
  const info = lookAlike(sandbox)
  const { client, key } = yield* freshProject
  const account = yield* client.accounts.create_account({
    payload: accountBody({ connector_key: "ashby", credentials: { apiKey: info.credentials["apiKey"]! }, settings: { base_url: info.baseUrl } })
  })
  const headers = { "x-account-id": account.id }
  const address = (yield* HttpServer.HttpServer).address
  const sdk = stackOneSdkClient(address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : "", key)
  return { sandbox, client, account, headers, sdkWrite: sdkCalls(sdk, account.id).write, ats: client.unified_ats }
})

/** The Ashby calls the server made, with their JSON bodies. */
const sent = (sandbox: Sandbox, endpoint: string) =>
  sandbox.requests("ashby").filter((r) => r.path === `/${endpoint}`).map((r) => JSON.parse(r.body ?? "{}") as Json)

const ids = (records: ReadonlyArray<Json>) => records.map((record) => record.id as string)

const decodeApplication = Schema.decodeUnknownSync(AtsApplication, { onExcessProperty: "error" })
const decodeCandidate = Schema.decodeUnknownSync(AtsCandidate, { onExcessProperty: "error" })
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

const errorTag = <A>(effect: Effect.Effect<A, { readonly _tag: string }>) => Effect.map(Effect.flip(effect), (error) => error._tag)

const MISSING = "00000000-0000-4000-8000-000000000000"

layer(Server, { excludeTestServices: true })("the ashby connector over the sandbox's Ashby look-alike", (it) => {
  it.effect("the look-alike answers as Ashby documents: 401 without a key, 403 with a wrong one, 200 success:false refusals, cursor pages and sync tokens", () =>
    Effect.gen(function*() {
      const { sandbox } = yield* setup
      const missing = yield* call(sandbox, "candidate.list", {}, null)
      expect(missing.status).toBe(401)
      expect(missing.body).toMatchObject({ success: false, errorInfo: { code: expect.any(String) } })
      expect((yield* call(sandbox, "candidate.list", {}, "not-the-key")).status).toBe(403)

      const absent = yield* call(sandbox, "application.info", { applicationId: MISSING })
      expect(absent).toMatchObject({ status: 200, body: { success: false, errors: ["application_not_found"], errorInfo: { code: "application_not_found" } } })
      expect((yield* call(sandbox, "candidate.info", {})).body).toMatchObject({ success: false, errorInfo: { code: "invalid_input" } })

      const first = (yield* call(sandbox, "candidate.list", { limit: 25 })).body
      expect(first).toMatchObject({ success: true, moreDataAvailable: true, nextCursor: expect.any(String) })
      expect(first.results).toHaveLength(25)
      const candidates = yield* everything(sandbox, "candidate.list")
      expect(candidates.length).toBeGreaterThanOrEqual(40)
      expect(new Set(ids(candidates)).size).toBe(candidates.length)

      // the last page of a pass carries a syncToken; a sync with it sees only what changed since
      const last = (yield* call(sandbox, "candidate.list", { limit: 100 })).body
      expect(last.moreDataAvailable).toBe(false)
      expect((yield* call(sandbox, "candidate.list", { syncToken: last.syncToken })).body.results).toEqual([])
      const created = (yield* call(sandbox, "candidate.create", { name: "Grace Hopper", email: "grace@example.com" })).body.results
      const changed = (yield* call(sandbox, "candidate.list", { syncToken: last.syncToken })).body
      expect(ids(changed.results)).toEqual([created.id])
      expect((yield* call(sandbox, "candidate.list", { syncToken: "nonsense" })).body).toMatchObject({ success: false })
    }))

  it.effect("ats_list_applications pages through every application once; ats_get_application gets each; 404", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox } = yield* setup
      const raw = yield* everything(sandbox, "application.list")
      const reasons = (yield* call(sandbox, "archiveReason.list")).body.results as Array<Json>
      sandbox.clearRequests()

      const { pages, records } = yield* walkPages(
        (next) => client.unified_ats.ats_list_applications({ headers, urlParams: { page_size: 7, ...(next ? { next } : {}) } }),
        { schema: AtsApplicationsList }
      )
      expect(pages).toBe(Math.ceil(raw.length / 7))
      expect(ids(records)).toEqual(ids(raw))
      const bodies = sent(sandbox, "application.list")
      expect(bodies).toHaveLength(pages)
      expect(bodies[0]).toEqual({ limit: 7 })
      expect(new Set(bodies.map((b) => b.cursor ?? null)).size).toBe(pages)
      for (const record of records) {
        decodeApplication(record)
        expect(APPLICATION_STATUS_VALUES).toContain(record.status.value)
        expect(record.created_at).toMatch(ISO)
      }

      const byId = new Map(records.map((record) => [record.id as string, record]))
      const archived = raw.find((a) => a.status === "Archived")!
      const reason = reasons.find((r) => r.id === archived.archiveReason.id)!
      const stage = archived.currentInterviewStage
      expect(byId.get(archived.id)).toEqual({
        id: archived.id,
        remote_id: archived.id,
        candidate_id: archived.candidate.id,
        remote_candidate_id: archived.candidate.id,
        job_id: archived.job.id,
        remote_job_id: archived.job.id,
        interview_stage: { id: stage.id, remote_id: stage.id, name: stage.title, order: stage.orderInInterviewPlan },
        interview_stage_id: stage.id,
        remote_interview_stage_id: stage.id,
        application_stage: { id: stage.id, remote_id: stage.id, name: stage.title, order: stage.orderInInterviewPlan },
        application_stage_id: stage.id,
        remote_application_stage_id: stage.id,
        rejected_reason: reason.text,
        rejected_reason_id: reason.id,
        remote_rejected_reason_id: reason.id,
        rejected_reason_ids: [reason.id],
        remote_rejected_reason_ids: [reason.id],
        rejected_reasons: [{
          id: reason.id,
          remote_id: reason.id,
          label: reason.text,
          rejected_reason_type: {
            value: { RejectedByCandidate: "rejected_by_candidate", RejectedByOrg: "rejected_by_organization", Other: "other" }[reason.reasonType as string],
            source_value: reason.reasonType
          }
        }],
        rejected_at: archived.archivedAt,
        location_id: archived.job.locationId,
        remote_location_id: archived.job.locationId,
        application_status: { value: "rejected", source_value: "Archived" },
        status: { value: "rejected", source_value: "Archived" },
        ...(archived.source ? { source: { id: archived.source.id, remote_id: archived.source.id, name: archived.source.title } } : {}),
        candidate: {
          name: archived.candidate.name,
          first_name: archived.candidate.name.split(" ")[0],
          last_name: archived.candidate.name.split(" ").slice(1).join(" "),
          email: archived.candidate.primaryEmailAddress.value
        },
        created_at: archived.createdAt,
        updated_at: archived.updatedAt
      })
      for (const [status, unified] of [["Active", "active"], ["Hired", "hired"], ["Lead", "lead"]] as const) {
        const one = raw.find((a) => a.status === status)!
        expect(byId.get(one.id)).toMatchObject({ status: { value: unified, source_value: status }, rejected_reasons: [] })
        expect(byId.get(one.id)!.rejected_reason).toBeUndefined()
      }

      for (const application of [archived, raw.find((a) => a.status === "Hired")!]) {
        const one = yield* client.unified_ats.ats_get_application({ headers, path: { id: application.id }, urlParams: {} })
        Schema.decodeUnknownSync(AtsApplicationResult, { onExcessProperty: "error" })(one)
        expect(one.data).toEqual(byId.get(application.id))
      }
      expect(sent(sandbox, "application.info").at(-1)).toEqual({ applicationId: raw.find((a) => a.status === "Hired")!.id })
      expect(yield* errorTag(client.unified_ats.ats_get_application({ headers, path: { id: MISSING }, urlParams: {} }))).toBe("NotFound")
    }))

  it.effect("ats_list_applications filters by job and creation time (sent to Ashby) and by stage", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox } = yield* setup
      const raw = yield* everything(sandbox, "application.list")
      const list = (filter: Record<string, string>) =>
        Effect.map(client.unified_ats.ats_list_applications({ headers, urlParams: { page_size: 100, filter } }), (page) => page.data as ReadonlyArray<Json>)

      const jobId = raw[0]!.job.id
      expect(ids(yield* list({ job_id: jobId }))).toEqual(ids(raw.filter((a) => a.job.id === jobId)))
      expect(sent(sandbox, "application.list").at(-1)).toEqual({ limit: 100, jobId })

      const times = raw.map((a) => Date.parse(a.createdAt)).sort((a, b) => a - b)
      const cut = times[Math.floor(times.length / 2)]!
      expect(ids(yield* list({ created_after: new Date(cut).toISOString() }))).toEqual(ids(raw.filter((a) => Date.parse(a.createdAt) > cut)))
      expect(sent(sandbox, "application.list").at(-1)).toEqual({ limit: 100, createdAfter: cut })

      const stageId = raw[0]!.currentInterviewStage.id
      const inStage = ids(raw.filter((a) => a.currentInterviewStage.id === stageId))
      expect(ids(yield* list({ stage: stageId }))).toEqual(inStage)
      expect(ids(yield* list({ application_stage_id: stageId }))).toEqual(inStage)
    }))

  it.effect("ats_move_application moves to a stage of the job's plan and ats_reject_application archives with a reason, both seen on later reads", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox } = yield* setup
      const raw = yield* everything(sandbox, "application.list")
      const active = raw.find((a) => a.status === "Active")!
      const stages = (yield* client.unified_ats.ats_list_job_application_stages({ headers, path: { id: active.job.id }, urlParams: {} })).data as ReadonlyArray<Json>
      const plan = (yield* call(sandbox, "interviewStage.list", { interviewPlanId: active.currentInterviewStage.interviewPlanId })).body.results as Array<Json>
      expect(stages).toEqual(plan.map((s) => ({ id: s.id, remote_id: s.id, name: s.title, order: s.orderInInterviewPlan })))
      const target = plan.find((s) => s.type === "Offer")!

      yield* client.unified_ats.ats_move_application({ headers, path: { id: active.id }, payload: { interview_stage_id: target.id } })
      expect(sent(sandbox, "application.changeStage").at(-1)).toEqual({ applicationId: active.id, interviewStageId: target.id })
      const moved = yield* client.unified_ats.ats_get_application({ headers, path: { id: active.id }, urlParams: {} })
      expect(moved.data).toMatchObject({ interview_stage_id: target.id, interview_stage: { name: "Offer" }, status: { value: "active" } })
      expect((yield* call(sandbox, "application.info", { applicationId: active.id })).body.results.currentInterviewStage.id).toBe(target.id)

      // a stage of another plan is Ashby's invalid_input (HTTP 200, success false): the unified 400
      const foreign = (yield* everything(sandbox, "job.list")).find((j) => j.defaultInterviewPlanId !== active.currentInterviewStage.interviewPlanId)!
      const other = (yield* call(sandbox, "interviewStage.list", { interviewPlanId: foreign.defaultInterviewPlanId })).body.results[2]
      const refused = yield* Effect.flip(client.unified_ats.ats_move_application({ headers, path: { id: active.id }, payload: { interview_stage_id: other.id } }))
      expect(refused).toMatchObject({ _tag: "BadRequest", statusCode: 400 })
      expect(JSON.stringify(refused)).toContain("invalid_input")
      expect(yield* errorTag(client.unified_ats.ats_move_application({ headers, path: { id: MISSING }, payload: { interview_stage_id: target.id } }))).toBe("NotFound")

      const reasons = (yield* client.unified_ats.ats_list_rejected_reasons({ headers, urlParams: {} })).data as ReadonlyArray<Json>
      const reason = reasons.find((r) => r.rejected_reason_type.value === "rejected_by_candidate")!
      yield* client.unified_ats.ats_reject_application({ headers, path: { id: active.id }, payload: { rejected_reason_id: reason.id } })
      const archivedStage = plan.find((s) => s.type === "Archived")!
      expect(sent(sandbox, "application.changeStage").at(-1)).toEqual({ applicationId: active.id, interviewStageId: archivedStage.id, archiveReasonId: reason.id })
      const rejected = yield* client.unified_ats.ats_get_application({ headers, path: { id: active.id }, urlParams: {} })
      expect(rejected.data).toMatchObject({
        status: { value: "rejected", source_value: "Archived" },
        interview_stage_id: archivedStage.id,
        rejected_reason_id: reason.id,
        rejected_reason: reason.label,
        rejected_at: expect.stringMatching(ISO)
      })
      // without a reason Ashby refuses the move to an Archived stage
      const other2 = raw.find((a) => a.status === "Active" && a.id !== active.id)!
      expect(yield* errorTag(client.unified_ats.ats_reject_application({ headers, path: { id: other2.id }, payload: {} }))).toBe("BadRequest")
      expect((yield* call(sandbox, "application.info", { applicationId: other2.id })).body.results.status).toBe("Active")
    }))

  it.effect("the StackOne SDK moves and rejects an application: answers the SDK accepts, the look-alike's application changed", () =>
    Effect.gen(function*() {
      const { sandbox, sdkWrite } = yield* setup
      const active = (yield* everything(sandbox, "application.list")).find((a) => a.status === "Active")!
      const plan = (yield* call(sandbox, "interviewStage.list", { interviewPlanId: active.currentInterviewStage.interviewPlanId })).body.results as Array<Json>
      const target = plan.find((s) => s.type === "Offer")!
      const reason = ((yield* call(sandbox, "archiveReason.list")).body.results as Array<Json>).find((r) => r.reasonType === "RejectedByOrg")!

      const moved = yield* sdkWrite("ats_move_application", { interview_stage_id: target.id }, active.id)
      expect({ status: moved.status, issues: moved.issues, data: moved.body.data }).toEqual({ status: 200, issues: [], data: { id: active.id, remote_id: active.id } })
      expect((yield* call(sandbox, "application.info", { applicationId: active.id })).body.results).toMatchObject({ status: "Active", currentInterviewStage: { id: target.id } })

      const rejected = yield* sdkWrite("ats_reject_application", { rejected_reason_id: reason.id }, active.id)
      expect({ status: rejected.status, issues: rejected.issues, data: rejected.body.data }).toEqual({ status: 200, issues: [], data: { id: active.id, remote_id: active.id } })
      expect((yield* call(sandbox, "application.info", { applicationId: active.id })).body.results).toMatchObject({
        status: "Archived",
        archiveReason: { id: reason.id },
        currentInterviewStage: { id: plan.find((s) => s.type === "Archived")!.id }
      })
      expect(sent(sandbox, "application.changeStage")).toHaveLength(2)
    }))

  it.effect("ats_list_candidates pages through every candidate once; ats_get_candidate; 404", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox } = yield* setup
      const raw = yield* everything(sandbox, "candidate.list")
      const { pages, records } = yield* walkPages(
        (next) => client.unified_ats.ats_list_candidates({ headers, urlParams: { page_size: 25, ...(next ? { next } : {}) } }),
        { schema: AtsCandidatesList }
      )
      expect(pages).toBe(Math.ceil(raw.length / 25))
      expect(ids(records)).toEqual(ids(raw))
      for (const record of records) decodeCandidate(record)

      const byId = new Map(records.map((record) => [record.id as string, record]))
      const rich = raw.find((c) => c.phoneNumbers.length > 0 && c.tags.length > 0 && c.socialLinks.length > 0 && c.company && c.position && c.location)!
      expect(byId.get(rich.id)).toEqual({
        id: rich.id,
        remote_id: rich.id,
        name: rich.name,
        first_name: rich.name.split(" ")[0],
        last_name: rich.name.split(" ").slice(1).join(" "),
        email: rich.primaryEmailAddress.value,
        emails: rich.emailAddresses.map((e: Json) => ({ type: e.type.toLowerCase(), value: e.value })),
        phone: rich.primaryPhoneNumber.value,
        phone_numbers: rich.phoneNumbers.map((p: Json) => ({ type: p.type.toLowerCase(), phone: p.value })),
        social_links: rich.socialLinks.map((l: Json) => ({ type: l.type, url: l.url })),
        company: rich.company,
        title: rich.position,
        country: rich.location.locationComponents.find((c: Json) => c.type === "Country").name,
        application_ids: rich.applicationIds,
        remote_application_ids: rich.applicationIds,
        tags: rich.tags.map((t: Json) => ({ remote_id: t.id, name: t.title })),
        created_at: rich.createdAt,
        updated_at: rich.updatedAt
      })
      const one = yield* client.unified_ats.ats_get_candidate({ headers, path: { id: rich.id }, urlParams: {} })
      Schema.decodeUnknownSync(AtsCandidateResult, { onExcessProperty: "error" })(one)
      expect(one.data).toEqual(byId.get(rich.id))
      expect(sent(sandbox, "candidate.info").at(-1)).toEqual({ id: rich.id })
      expect(yield* errorTag(client.unified_ats.ats_get_candidate({ headers, path: { id: MISSING }, urlParams: {} }))).toBe("NotFound")
    }))

  it.effect("ats_create_candidate sends Ashby's candidate.create fields, through the unified API and the StackOne SDK; the candidate is there afterwards", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox, sdkWrite } = yield* setup
      const before = (yield* everything(sandbox, "candidate.list")).length
      const created = yield* client.unified_ats.ats_create_candidate({
        headers,
        payload: {
          first_name: "Ada",
          last_name: "Lovelace",
          email: "ada.ashby@example.com",
          phone_numbers: [{ type: "mobile", phone: "+44 20 7946 0001" }],
          social_links: [{ type: "LinkedIn", url: "https://linkedin.com/in/ada" }, { type: "website", url: "https://example.com/ada" }],
          country: "United Kingdom",
          company: "Analytical Engines",
          passthrough: { alternateEmailAddresses: ["ada@work.example"] }
        }
      })
      expect(created).toMatchObject({ statusCode: 201, data: { id: expect.any(String), remote_id: expect.any(String) } })
      const id = created.data!.id as string
      expect(sent(sandbox, "candidate.create")).toEqual([{
        name: "Ada Lovelace",
        email: "ada.ashby@example.com",
        phoneNumber: "+44 20 7946 0001",
        linkedInUrl: "https://linkedin.com/in/ada",
        website: "https://example.com/ada",
        location: { country: "United Kingdom" },
        alternateEmailAddresses: ["ada@work.example"]
      }])

      const got = yield* client.unified_ats.ats_get_candidate({ headers, path: { id }, urlParams: {} })
      expect(got.data).toMatchObject({
        id,
        name: "Ada Lovelace",
        first_name: "Ada",
        last_name: "Lovelace",
        email: "ada.ashby@example.com",
        emails: [{ type: "personal", value: "ada.ashby@example.com" }, { type: "other", value: "ada@work.example" }],
        phone_numbers: [{ type: "personal", phone: "+44 20 7946 0001" }],
        social_links: [{ type: "LinkedIn", url: "https://linkedin.com/in/ada" }, { type: "Website", url: "https://example.com/ada" }],
        country: "United Kingdom",
        application_ids: []
      })
      expect(got.data!.company).toBeUndefined()
      const raw = yield* everything(sandbox, "candidate.list")
      expect(raw).toHaveLength(before + 1)
      expect(raw.at(-1)!.id).toBe(id)

      // Ashby requires a name: its invalid_input is the unified 400, and nothing is created
      expect(yield* errorTag(client.unified_ats.ats_create_candidate({ headers, payload: { email: "nameless@example.com" } }))).toBe("BadRequest")
      expect(yield* everything(sandbox, "candidate.list")).toHaveLength(before + 1)

      // through the StackOne SDK: an answer it accepts, the candidate in the look-alike
      const bySdk = yield* sdkWrite("ats_create_candidate", { name: "Grace Hopper", email: "grace.ashby@example.com", phone_numbers: [{ phone: "+1 555 0100" }] })
      expect({ status: bySdk.status, issues: bySdk.issues }).toEqual({ status: 201, issues: [] })
      const graceId = bySdk.body.data.id as string
      expect(bySdk.body.data).toEqual({ id: graceId, remote_id: graceId })
      expect((yield* call(sandbox, "candidate.info", { id: graceId })).body.results).toMatchObject({
        id: graceId,
        name: "Grace Hopper",
        primaryEmailAddress: { value: "grace.ashby@example.com" },
        primaryPhoneNumber: { value: "+1 555 0100" }
      })
      expect(yield* everything(sandbox, "candidate.list")).toHaveLength(before + 2)
    }))

  it.effect("jobs, interview stages, rejected reasons, users, departments and locations through the unified API, as the look-alike has them", () =>
    Effect.gen(function*() {
      const { ats, headers, sandbox } = yield* setup
      const rawJobs = yield* everything(sandbox, "job.list")
      expect(rawJobs.some((j) => j.status === "Draft")).toBe(false)
      const jobs = yield* walkPages((next) => ats.ats_list_jobs({ headers, urlParams: { page_size: 3, ...(next ? { next } : {}) } }), { schema: AtsJobsList })
      expect(jobs.pages).toBe(Math.ceil(rawJobs.length / 3))
      expect(ids(jobs.records)).toEqual(ids(rawJobs))
      const job = rawJobs[0]!
      expect(jobs.records[0]).toEqual({
        id: job.id,
        remote_id: job.id,
        code: job.customRequisitionId,
        title: job.title,
        status: job.status,
        job_status: { value: job.status.toLowerCase(), source_value: job.status },
        department_ids: [job.departmentId],
        remote_department_ids: [job.departmentId],
        location_ids: [job.locationId],
        remote_location_ids: [job.locationId],
        hiring_team: job.hiringTeam.map((m: Json) => ({
          user_id: m.userId,
          remote_user_id: m.userId,
          first_name: m.firstName,
          last_name: m.lastName,
          email: m.email,
          role: m.role
        })),
        confidential: String(job.confidential),
        created_at: job.createdAt,
        updated_at: job.updatedAt
      })
      expect((yield* ats.ats_get_job({ headers, path: { id: job.id }, urlParams: {} })).data).toEqual(jobs.records[0])
      expect(yield* errorTag(ats.ats_get_job({ headers, path: { id: MISSING }, urlParams: {} }))).toBe("NotFound")
      // the unified draft and open are Ashby's Draft and Open
      const drafts = yield* ats.ats_list_jobs({ headers, urlParams: { filter: { status: "draft" } } })
      expect(sent(sandbox, "job.list").at(-1)).toEqual({ limit: 25, status: ["Draft"] })
      const rawDrafts = yield* everything(sandbox, "job.list", { status: ["Draft"] })
      expect(rawDrafts.length).toBeGreaterThan(0)
      expect(ids(drafts.data as ReadonlyArray<Json>)).toEqual(ids(rawDrafts))
      const open = yield* ats.ats_list_jobs({ headers, urlParams: { page_size: 100, filter: { job_status: "open" } } })
      expect(sent(sandbox, "job.list").at(-1)).toEqual({ limit: 100, status: ["Open"] })
      expect(ids(open.data as ReadonlyArray<Json>)).toEqual(ids(rawJobs.filter((j) => j.status === "Open")))

      const plan = (yield* call(sandbox, "interviewStage.list", { interviewPlanId: job.defaultInterviewPlanId })).body.results as Array<Json>
      const stageRecord = (stage: Json) => ({ id: stage.id, remote_id: stage.id, name: stage.title, order: stage.orderInInterviewPlan })
      const jobStages = yield* ats.ats_list_job_application_stages({ headers, path: { id: job.id }, urlParams: {} })
      Schema.decodeUnknownSync(AtsApplicationStagesList, { onExcessProperty: "error" })(jobStages)
      expect(jobStages.data).toEqual(plan.map(stageRecord))
      expect((yield* ats.ats_get_interview_stage({ headers, path: { id: plan[1]!.id }, urlParams: {} })).data).toEqual(stageRecord(plan[1]!))
      expect(yield* errorTag(ats.ats_get_interview_stage({ headers, path: { id: MISSING }, urlParams: {} }))).toBe("NotFound")
      expect(yield* errorTag(ats.ats_list_job_application_stages({ headers, path: { id: MISSING }, urlParams: {} }))).toBe("NotFound")

      const rawReasons = (yield* call(sandbox, "archiveReason.list")).body.results as Array<Json>
      const reasons = yield* ats.ats_list_rejected_reasons({ headers, urlParams: {} })
      Schema.decodeUnknownSync(AtsRejectedReasonsList, { onExcessProperty: "error" })(reasons)
      expect(ids(reasons.data as ReadonlyArray<Json>)).toEqual(ids(rawReasons))
      const second = (reasons.data as ReadonlyArray<Json>)[1]!
      expect((yield* ats.ats_get_rejected_reason({ headers, path: { id: rawReasons[1]!.id }, urlParams: {} })).data).toEqual(second)
      expect(second).toMatchObject({ label: rawReasons[1]!.text, type: rawReasons[1]!.reasonType })
      expect(yield* errorTag(ats.ats_get_rejected_reason({ headers, path: { id: MISSING }, urlParams: {} }))).toBe("NotFound")

      const rawUsers = yield* everything(sandbox, "user.list")
      const users = yield* walkPages((next) => ats.ats_list_users({ headers, urlParams: { page_size: 3, ...(next ? { next } : {}) } }), { schema: AtsUsersList })
      expect(ids(users.records)).toEqual(ids(rawUsers))
      expect(users.pages).toBe(Math.ceil(rawUsers.length / 3))
      const user = rawUsers[2]!
      expect((yield* ats.ats_get_user({ headers, path: { id: user.id }, urlParams: {} })).data).toEqual({
        id: user.id,
        remote_id: user.id,
        first_name: user.firstName,
        last_name: user.lastName,
        name: `${user.firstName} ${user.lastName}`,
        email: user.email
      })
      expect(users.records[2]).toEqual((yield* ats.ats_get_user({ headers, path: { id: user.id }, urlParams: {} })).data)
      expect(yield* errorTag(ats.ats_get_user({ headers, path: { id: MISSING }, urlParams: {} }))).toBe("NotFound")

      type ListCall = (params: { headers: typeof headers; urlParams: { page_size: number; next?: string } }) => Effect.Effect<
        { readonly data: ReadonlyArray<unknown>; readonly next?: string | null | undefined },
        { readonly _tag: string }
      >
      type GetCall = (params: { headers: typeof headers; path: { id: string }; urlParams: {} }) => Effect.Effect<{ readonly data: unknown }, { readonly _tag: string }>
      const kinds: ReadonlyArray<{ endpoint: string; field: string; schema: Schema.Schema<any, any>; list: ListCall; get: GetCall }> = [
        { endpoint: "department", field: "departmentId", schema: AtsDepartmentsList, list: ats.ats_list_departments, get: ats.ats_get_department },
        { endpoint: "location", field: "locationId", schema: AtsLocationsList, list: ats.ats_list_locations, get: ats.ats_get_location }
      ]
      for (const { endpoint, field, get, list, schema } of kinds) {
        const raw = yield* everything(sandbox, `${endpoint}.list`)
        const listed = yield* walkPages((next) => list({ headers, urlParams: { page_size: 2, ...(next ? { next } : {}) } }), { schema })
        expect(listed.records).toEqual(raw.map((r) => ({ id: r.id, remote_id: r.id, name: r.name })))
        expect(listed.pages).toBe(Math.ceil(raw.length / 2))
        expect((yield* get({ headers, path: { id: raw[0]!.id }, urlParams: {} })).data).toEqual(listed.records[0])
        expect(sent(sandbox, `${endpoint}.info`).at(-1)).toEqual({ [field]: raw[0]!.id })
        expect(yield* errorTag(get({ headers, path: { id: MISSING }, urlParams: {} }))).toBe("NotFound")
      }
    }))

  it.effect("a 429 with a long Retry-After, failing 5xx answers and a wrong API key (Ashby's 403) give the unified errors", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox } = yield* setup
      sandbox.faults.add({ match: { provider: "ashby", path: "/candidate.list" }, fault: "rate_limit", retryAfter: 30, times: 5 })
      expect(yield* errorTag(client.unified_ats.ats_list_candidates({ headers, urlParams: {} }))).toBe("TooManyRequests")
      expect(sandbox.requests("ashby").filter((r) => r.path === "/candidate.list")).toHaveLength(1)
      sandbox.faults.clear()

      sandbox.clearRequests()
      sandbox.faults.add({ match: { provider: "ashby", path: "/application.list" }, fault: "status", status: 503, times: 10 })
      expect(yield* errorTag(client.unified_ats.ats_list_applications({ headers, urlParams: {} }))).toBe("BadGateway")
      expect(sandbox.requests("ashby").filter((r) => r.path === "/application.list")).toHaveLength(3)
      sandbox.faults.clear()

      const info = lookAlike(sandbox)
      const wrong = yield* client.accounts.create_account({
        payload: accountBody({ connector_key: "ashby", credentials: { apiKey: "definitely-wrong-ashby-key" }, settings: { base_url: info.baseUrl } })
      })
      sandbox.clearRequests()
      const refused = yield* Effect.flip(client.unified_ats.ats_list_candidates({ headers: { "x-account-id": wrong.id }, urlParams: {} }))
      expect(JSON.stringify(refused)).not.toContain("definitely-wrong-ashby-key")
      expect(sandbox.requests("ashby").filter((r) => r.path === "/candidate.list")).toHaveLength(1)
      // Ashby's 403 for a wrong key is the provider's refusal of the request, with its status
      expect(refused).toMatchObject({ _tag: "BadRequest", statusCode: 400, provider_errors: [{ status: 403 }] })
    }))
})
