import { HttpClientRequest, HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { AtsApplication, AtsApplicationsList, AtsCandidate, AtsCandidatesList, AtsDepartmentsList, AtsJobsList, AtsRejectedReasonsList } from "@switchyard/api"
import type { Sandbox } from "@switchyard/sandbox"
import { Effect, Layer, Schema } from "effect"
import { referenceSchemaOf } from "../src/app/contractCheck/referenceSchemas.js"
import { accountBody, freshProject } from "./support/Fixtures.js"
import { type Json, SandboxLive, SandboxProviders } from "./support/SandboxLayer.js"
import { sdkCalls, stackOneSdkClient } from "./support/StackOneSdkClient.js"
import { TestServer } from "./support/TestServer.js"
import { walkPages } from "./support/walkPages.js"
import { expectErrorBody, json, send, withKey } from "./support/Wire.js"

/*
 * The built-in recruitee connector against the sandbox's Recruitee look-alike (ATS API under
 * /c/{company_id}, a personal API token as Bearer): an account linked with the look-alike's token and
 * company, then every action through the action RPC or the unified API (the writes also through the real
 * StackOne SDK), checked against what the look-alike itself answers (read directly with the same token) and
 * against StackOne's reference records.
 */

const Server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive(31))

const recruiteeOf = (sandbox: Sandbox) => {
  const info = sandbox.lookAlikes.recruitee
  if (info === undefined) throw new Error("the sandbox runs no recruitee look-alike")
  return info
}

/** The look-alike read directly, with its own token. */
const direct = (sandbox: Sandbox, path: string) =>
  Effect.promise(async () => {
    const info = recruiteeOf(sandbox)
    const response = await fetch(`${info.baseUrl}${path}`, { headers: { authorization: `Bearer ${info.credentials["apiToken"]}` } })
    if (!response.ok) throw new Error(`recruitee ${path} answered ${response.status}`)
    return (await response.json()) as any
  })

interface RpcPayload {
  readonly action: string
  readonly query?: Record<string, unknown>
  readonly path?: Record<string, unknown>
  readonly body?: unknown
}

const setup = Effect.gen(function*() {
  const sandbox = yield* SandboxProviders
  sandbox.reset()
  sandbox.clearRequests()
  sandbox.faults.clear()
  const info = recruiteeOf(sandbox)
  const { client, key } = yield* freshProject
  const account = yield* client.accounts.create_account({
    payload: accountBody({
      connector_key: "recruitee",
      credentials: { companyId: info.credentials["companyId"]!, apiToken: info.credentials["apiToken"]! },
      settings: { base_url: info.baseUrl }
    })
  })
  const rpc = (payload: RpcPayload, accountId = account.id) => client.actions.rpc_action({ headers: { "x-account-id": accountId }, payload })
  /** Every record of a list action, following `next` until there is none. */
  const all = (action: string, query: Record<string, unknown> = {}) =>
    walkPages((cursor) => rpc({ action, query: cursor === undefined ? query : { ...query, cursor } }))
  const address = (yield* HttpServer.HttpServer).address
  const sdk = stackOneSdkClient(address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : "", key)
  /** A unified write sent as raw JSON, with no client-side schema in the way. */
  const rawWrite = (path: string, body: unknown) =>
    send(HttpClientRequest.post(path).pipe(withKey(key), HttpClientRequest.setHeader("x-account-id", account.id), json(body)))
  return {
    sandbox, info, client, account, rpc, all, sdkWrite: sdkCalls(sdk, account.id).write, rawWrite, headers: { "x-account-id": account.id }
  }
})

const ids = (records: ReadonlyArray<Json>) => records.map((record) => record.id as string)

const decodeApplication = Schema.decodeUnknownSync(AtsApplication, { onExcessProperty: "error" })
const decodeCandidate = Schema.decodeUnknownSync(AtsCandidate, { onExcessProperty: "error" })

/** No issue against StackOne's reference shape of the action's answer. */
const fitsReference = (action: string, data: unknown) => {
  const reference = referenceSchemaOf(action)
  expect(reference, `StackOne defines ${action}`).toBeDefined()
  expect(reference!.issues(Array.isArray(data) ? { data, next: null } : { data })).toEqual([])
}

const errorTag = <A>(effect: Effect.Effect<A, { readonly _tag: string }>) => Effect.map(Effect.flip(effect), (error) => error._tag)

/** A provider refusal passed on as 400, with the provider's own status among its provider_errors. */
const providerStatus = <A>(effect: Effect.Effect<A, { readonly _tag: string }>) =>
  Effect.map(Effect.flip(effect), (error) => ({ tag: error._tag, status: (error as any).provider_errors?.[0]?.status }))

const candidatesPath = (sandbox: Sandbox) => `/c/${recruiteeOf(sandbox).credentials["companyId"]}/candidates`

/** The look-alike's placement, read directly through its candidate. */
const placementOf = (sandbox: Sandbox, placement: Json) =>
  Effect.map(direct(sandbox, `/candidates?ids=${placement.candidate_id}`), (answer) =>
    (answer.candidates[0].placements as Array<Json>).find((p) => p.id === placement.id)!)

/** The PATCH requests the look-alike received, with their JSON bodies. */
const patches = (sandbox: Sandbox) =>
  sandbox.requests("recruitee").filter((request) => request.method === "PATCH").map((request) => ({ path: request.path, body: JSON.parse(request.body ?? "{}") }))

/** A refusal's tag and message. */
const refusal = <A>(effect: Effect.Effect<A, { readonly _tag: string }>) =>
  Effect.map(Effect.flip(effect), (error) => ({ tag: error._tag, message: String((error as any).message ?? "") }))

layer(Server, { excludeTestServices: true })("the recruitee connector over the sandbox's Recruitee look-alike", (it) => {
  it.effect("lists candidates page by page with limit and offset, each once, as the look-alike has them, and gets one", () =>
    Effect.gen(function*() {
      const { all, rpc, sandbox } = yield* setup
      const raw = (yield* direct(sandbox, "/candidates")).candidates as Array<Json>
      expect(raw.length).toBeGreaterThanOrEqual(40)
      sandbox.clearRequests()

      const { pages, records } = yield* all("ats_list_candidates", { page_size: 17 })
      expect(pages).toBe(Math.ceil((raw.length + 1) / 17))
      expect(records).toHaveLength(raw.length)
      expect(new Set(ids(records)).size).toBe(records.length)
      // newest first, as Recruitee's default by_date sort
      expect(ids(records)).toEqual(raw.map((candidate) => String(candidate.id)))
      const offsets = sandbox.requests("recruitee").filter((request) => request.path === candidatesPath(sandbox)).map((request) => request.query)
      expect(offsets.map((query) => query["offset"])).toEqual(Array.from({ length: pages }, (_, i) => String(i * 17)))
      expect(offsets.every((query) => query["limit"] === "17" && query["sort"] === "by_date")).toBe(true)
      for (const record of records) decodeCandidate(record)
      fitsReference("ats_list_candidates", records)

      const sample = raw.find((candidate) => candidate.phones.length > 0 && candidate.placements.length > 0)!
      const got = yield* rpc({ action: "ats_get_candidate", path: { id: String(sample.id) } })
      expect(got.data).toMatchObject({
        id: String(sample.id),
        remote_id: String(sample.id),
        name: sample.name,
        first_name: sample.name.split(" ")[0],
        last_name: sample.name.split(" ").slice(1).join(" "),
        email: sample.emails[0],
        emails: sample.emails.map((value: string) => ({ value })),
        phone: sample.phones[0],
        phone_numbers: sample.phones.map((phone: string) => ({ type: "unknown", phone })),
        application_ids: sample.placements.map((placement: Json) => String(placement.id)),
        created_at: sample.created_at,
        updated_at: sample.updated_at
      })
      decodeCandidate(got.data)
      fitsReference("ats_get_candidate", got.data)
      expect(yield* errorTag(rpc({ action: "ats_get_candidate", path: { id: "999999" } }))).toBe("NotFound")
    }))

  it.effect("filters candidates by creation time and offer, as Recruitee's created_after and offer_id", () =>
    Effect.gen(function*() {
      const { all, sandbox } = yield* setup
      const raw = (yield* direct(sandbox, "/candidates")).candidates as Array<Json>
      const median = raw[Math.floor(raw.length / 2)]!
      const after = yield* all("ats_list_candidates", { filter_created_after: median.created_at, page_size: 50 })
      expect(ids(after.records).sort()).toEqual(raw.filter((candidate) => candidate.created_at > median.created_at).map((c) => String(c.id)).sort())
      const offerId = raw.flatMap((candidate) => candidate.placements)[0]!.offer_id
      const onOffer = yield* all("ats_list_candidates", { filter_job_id: String(offerId), page_size: 50 })
      expect(ids(onOffer.records).sort()).toEqual(
        raw.filter((candidate) => candidate.placements.some((p: Json) => p.offer_id === offerId)).map((c) => String(c.id)).sort()
      )
    }))

  it.effect("lists every placement as an application, gets one by its id, and 404s for missing ones", () =>
    Effect.gen(function*() {
      const { all, rpc, sandbox } = yield* setup
      const raw = (yield* direct(sandbox, "/candidates")).candidates as Array<Json>
      const placements = raw.flatMap((candidate) => candidate.placements as Array<Json>)
      expect(placements.length).toBeGreaterThan(20)

      const { records } = yield* all("ats_list_applications", { page_size: 10 })
      expect(records).toHaveLength(placements.length)
      expect(new Set(ids(records)).size).toBe(records.length)
      expect(ids(records).sort()).toEqual(placements.map((p) => `${p.candidate_id}-${p.id}`).sort())
      for (const record of records) decodeApplication(record)
      fitsReference("ats_list_applications", records)

      const rejected = placements.find((p) => p.disqualified)!
      const active = placements.find((p) => !p.disqualified)!
      const got = yield* rpc({ action: "ats_get_application", path: { id: `${rejected.candidate_id}-${rejected.id}` } })
      expect(got.data).toMatchObject({
        id: `${rejected.candidate_id}-${rejected.id}`,
        remote_id: String(rejected.id),
        candidate_id: String(rejected.candidate_id),
        job_id: String(rejected.offer_id),
        application_stage_id: String(rejected.stage_id),
        application_stage: { id: String(rejected.stage_id), remote_id: String(rejected.stage_id) },
        application_status: { value: "rejected", source_value: "disqualified" },
        rejected_reasons: [{ label: rejected.disqualify_reason }]
      })
      fitsReference("ats_get_application", got.data)
      const activeGot = yield* rpc({ action: "ats_get_application", path: { id: `${active.candidate_id}-${active.id}` } })
      expect(activeGot.data).toMatchObject({ application_status: { value: "active", source_value: "qualified" }, rejected_reasons: [] })

      const onJob = yield* all("ats_list_applications", { filter_job_id: String(active.offer_id), page_size: 50 })
      expect(ids(onJob.records).sort()).toEqual(placements.filter((p) => p.offer_id === active.offer_id).map((p) => `${p.candidate_id}-${p.id}`).sort())

      expect(yield* errorTag(rpc({ action: "ats_get_application", path: { id: `${active.candidate_id}-1` } }))).toBe("NotFound")
      expect(yield* errorTag(rpc({ action: "ats_get_application", path: { id: "999999-1" } }))).toBe("NotFound")
    }))

  it.effect("creates a candidate on a job; later reads see it with its new placement", () =>
    Effect.gen(function*() {
      const { rpc, sandbox } = yield* setup
      const offers = (yield* direct(sandbox, "/offers")).offers as Array<Json>
      const job = offers.find((offer) => offer.status === "published")!
      const created = yield* rpc({
        action: "ats_create_candidate",
        body: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.org", phone_numbers: [{ type: "mobile", phone: "+44 20 7946 0000" }], passthrough: { offers: [job.id] } }
      })
      const id = (created.data as Json).id as string
      expect(created.data).toEqual({ id, remote_id: id })
      const post = sandbox.requests("recruitee").find((request) => request.method === "POST")!
      expect(JSON.parse(post.body!)).toEqual({
        candidate: { name: "Ada Lovelace", emails: ["ada@example.org"], phones: ["+44 20 7946 0000"] },
        offers: [job.id]
      })

      const raw = (yield* direct(sandbox, `/candidates?ids=${id}`)).candidates as Array<Json>
      expect(raw).toHaveLength(1)
      const got = yield* rpc({ action: "ats_get_candidate", path: { id } })
      expect(got.data).toMatchObject({ id, name: "Ada Lovelace", email: "ada@example.org", application_ids: [String(raw[0]!.placements[0].id)] })
      const application = yield* rpc({ action: "ats_get_application", path: { id: `${id}-${raw[0]!.placements[0].id}` } })
      expect(application.data).toMatchObject({ candidate_id: id, job_id: String(job.id), application_status: { value: "active" } })
      // the newest candidate comes first
      const first = yield* rpc({ action: "ats_list_candidates", query: { page_size: 1 } })
      expect(ids(first.data as Array<Json>)).toEqual([id])

      // no name: Recruitee refuses the candidate (422), nothing is created
      expect(yield* providerStatus(rpc({ action: "ats_create_candidate", body: { email: "nobody@example.org" } }))).toEqual({ tag: "BadRequest", status: 422 })
      expect(sandbox.requests("recruitee").filter((request) => request.method === "POST")).toHaveLength(2)
      expect((yield* direct(sandbox, "/candidates")).candidates.filter((c: Json) => c.emails.includes("nobody@example.org"))).toHaveLength(0)
    }))

  it.effect("lists offers as jobs in pages with Recruitee's statuses, gets one, and lists departments", () =>
    Effect.gen(function*() {
      const { all, rpc, sandbox } = yield* setup
      const offers = (yield* direct(sandbox, "/offers")).offers as Array<Json>
      expect(offers.length).toBeGreaterThanOrEqual(6)
      const { pages, records } = yield* all("ats_list_jobs", { page_size: 3 })
      expect(pages).toBe(Math.ceil(offers.length / 3))
      expect(ids(records)).toEqual(offers.map((offer) => String(offer.id)))
      for (const [index, record] of records.entries()) {
        const offer = offers[index]!
        expect(record).toEqual({
          id: String(offer.id),
          remote_id: String(offer.id),
          title: offer.title,
          status: offer.status,
          job_status: { value: offer.status, source_value: offer.status },
          created_at: offer.created_at,
          updated_at: offer.updated_at
        })
      }
      fitsReference("ats_list_jobs", records)
      const closed = yield* all("ats_list_jobs", { filter_status: "closed" })
      expect(ids(closed.records)).toEqual(offers.filter((offer) => offer.status === "closed").map((offer) => String(offer.id)))

      const got = yield* rpc({ action: "ats_get_job", path: { id: String(offers[2]!.id) } })
      expect(got.data).toEqual(records[2])
      fitsReference("ats_get_job", got.data)
      expect(yield* errorTag(rpc({ action: "ats_get_job", path: { id: "1" } }))).toBe("NotFound")

      const departments = (yield* direct(sandbox, "/departments")).departments as Array<Json>
      const listed = yield* all("ats_list_departments", { page_size: 2 })
      expect(listed.records).toEqual(departments.map((d) => ({ id: String(d.id), remote_id: String(d.id), name: d.name })))
      fitsReference("ats_list_departments", listed.records)
    }))

  it.effect("answers the unified ATS endpoints for candidates, applications, jobs and departments the same as the action RPC", () =>
    Effect.gen(function*() {
      const { account, all, client, sandbox } = yield* setup
      const headers = { "x-account-id": account.id }
      const viaRpc = yield* all("ats_list_candidates", { page_size: 20 })
      const records = (yield* walkPages((next) => client.unified_ats.ats_list_candidates({ headers, urlParams: { page_size: 20, ...(next ? { next } : {}) } }), { schema: AtsCandidatesList })).records
      expect(records).toEqual(viaRpc.records)
      const one = yield* client.unified_ats.ats_get_candidate({ headers, path: { id: records[3]!.id as string }, urlParams: {} })
      expect(one.data).toEqual(records[3])
      expect(yield* errorTag(client.unified_ats.ats_get_candidate({ headers, path: { id: "999999" }, urlParams: {} }))).toBe("NotFound")

      const applications = (yield* walkPages((next) => client.unified_ats.ats_list_applications({ headers, urlParams: { page_size: 15, ...(next ? { next } : {}) } }), { schema: AtsApplicationsList })).records
      expect(applications).toEqual((yield* all("ats_list_applications", { page_size: 15 })).records)
      const application = yield* client.unified_ats.ats_get_application({ headers, path: { id: applications[0]!.id as string }, urlParams: {} })
      expect(application.data).toEqual(applications[0])

      const jobs = (yield* walkPages((next) => client.unified_ats.ats_list_jobs({ headers, urlParams: { page_size: 3, ...(next ? { next } : {}) } }), { schema: AtsJobsList })).records
      expect(jobs).toEqual((yield* all("ats_list_jobs", { page_size: 3 })).records)
      const job = yield* client.unified_ats.ats_get_job({ headers, path: { id: jobs[1]!.id as string }, urlParams: {} })
      expect(job.data).toEqual(jobs[1])
      expect(yield* errorTag(client.unified_ats.ats_get_job({ headers, path: { id: "1" }, urlParams: {} }))).toBe("NotFound")
      const drafts = (yield* walkPages((next) => client.unified_ats.ats_list_jobs({ headers, urlParams: { filter: { status: "draft" }, ...(next ? { next } : {}) } }), { schema: AtsJobsList })).records
      expect(drafts.length).toBeGreaterThan(0)
      expect(drafts).toEqual(jobs.filter((j) => j.status === "draft"))
      const departments = (yield* walkPages((next) => client.unified_ats.ats_list_departments({ headers, urlParams: { page_size: 2, ...(next ? { next } : {}) } }), { schema: AtsDepartmentsList })).records
      expect(departments).toEqual((yield* all("ats_list_departments", { page_size: 2 })).records)

      const created = yield* client.unified_ats.ats_create_candidate({ headers, payload: { name: "Grace Hopper", email: "grace@example.org" } })
      expect(created).toMatchObject({ statusCode: 201, data: { id: expect.any(String) } })
      const raw = (yield* direct(sandbox, `/candidates?ids=${created.data!.id}`)).candidates as Array<Json>
      expect(raw).toMatchObject([{ name: "Grace Hopper", emails: ["grace@example.org"], phones: [], placements: [] }])
    }))

  it.effect("moves a placement to another stage and rejects one with a disqualify reason (listed and got as rejected reasons) through the unified API; later reads see both", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox } = yield* setup
      const companyPath = `/c/${recruiteeOf(sandbox).credentials["companyId"]}`
      const raw = (yield* direct(sandbox, "/candidates")).candidates as Array<Json>
      const [moving, rejecting] = raw.flatMap((candidate) => candidate.placements as Array<Json>).filter((p) => !p.disqualified)
      const stages = [...new Set(raw.flatMap((candidate) => candidate.placements.map((p: Json) => p.stage_id as number)))].sort()
      const target = stages.find((stage) => stage !== moving!.stage_id)!
      const movingId = `${moving!.candidate_id}-${moving!.id}`
      sandbox.clearRequests()

      const moved = yield* client.unified_ats.ats_move_application({ headers, path: { id: movingId }, payload: { interview_stage_id: String(target) } })
      expect(moved.data).toEqual({ id: movingId, remote_id: String(moving!.id) })
      expect(patches(sandbox)).toEqual([{ path: `${companyPath}/placements/${moving!.id}/change_stage`, body: { stage_id: String(target) } }])
      expect(yield* placementOf(sandbox, moving!)).toMatchObject({ stage_id: target, disqualified: false })
      const afterMove = yield* client.unified_ats.ats_get_application({ headers, path: { id: movingId }, urlParams: {} })
      expect(afterMove.data).toMatchObject({ application_stage_id: String(target), interview_stage_id: String(target), application_status: { value: "active" } })
      fitsReference("ats_get_application", afterMove.data)

      const reasons = (yield* direct(sandbox, "/disqualify_reasons")).disqualify_reasons as Array<Json>
      const listed = (yield* walkPages((next) => client.unified_ats.ats_list_rejected_reasons({ headers, urlParams: { page_size: 3, ...(next ? { next } : {}) } }), { schema: AtsRejectedReasonsList })).records
      expect(listed).toEqual(reasons.map((reason) => ({ id: String(reason.id), remote_id: String(reason.id), label: reason.name })))
      fitsReference("ats_list_rejected_reasons", listed)
      const reason = reasons[1]!
      const gotReason = yield* client.unified_ats.ats_get_rejected_reason({ headers, path: { id: String(reason.id) }, urlParams: {} })
      expect(gotReason.data).toEqual(listed[1])
      fitsReference("ats_get_rejected_reason", gotReason.data)
      expect(yield* errorTag(client.unified_ats.ats_get_rejected_reason({ headers, path: { id: "1" }, urlParams: {} }))).toBe("NotFound")
      const rejectingId = `${rejecting!.candidate_id}-${rejecting!.id}`
      sandbox.clearRequests()
      const rejected = yield* client.unified_ats.ats_reject_application({ headers, path: { id: rejectingId }, payload: { rejected_reason_id: String(reason.id) } })
      expect(rejected.data).toEqual({ id: rejectingId, remote_id: String(rejecting!.id) })
      expect(patches(sandbox)).toEqual([{ path: `${companyPath}/placements/${rejecting!.id}/disqualify`, body: { disqualify_reason_id: String(reason.id) } }])
      expect(yield* placementOf(sandbox, rejecting!)).toMatchObject({ disqualified: true, disqualify_reason: reason.name, stage_id: rejecting!.stage_id })
      const afterReject = yield* client.unified_ats.ats_get_application({ headers, path: { id: rejectingId }, urlParams: {} })
      expect(afterReject.data).toMatchObject({ application_status: { value: "rejected", source_value: "disqualified" }, rejected_reasons: [{ label: reason.name }] })
    }))

  it.effect("refuses a move or a rejection without its stage or reason (400 naming the field), answers 404 for an unknown application, passes Recruitee's 422 on", () =>
    Effect.gen(function*() {
      const { client, headers, rawWrite, sandbox } = yield* setup
      const raw = (yield* direct(sandbox, "/candidates")).candidates as Array<Json>
      const placement = raw.flatMap((candidate) => candidate.placements as Array<Json>).find((p) => !p.disqualified)!
      const id = `${placement.candidate_id}-${placement.id}`
      const reason = ((yield* direct(sandbox, "/disqualify_reasons")).disqualify_reasons as Array<Json>)[0]!
      sandbox.clearRequests()

      const noStage = yield* refusal(client.unified_ats.ats_move_application({ headers, path: { id }, payload: {} }))
      expect(noStage).toEqual({ tag: "BadRequest", message: expect.stringContaining("interview_stage_id") })
      const noReason = yield* refusal(client.unified_ats.ats_reject_application({ headers, path: { id }, payload: {} }))
      expect(noReason).toEqual({ tag: "BadRequest", message: expect.stringContaining("rejected_reason_id") })
      // not a string: the unified request's own schema refuses it (sent raw, past the client's schema)
      const wrongType = yield* rawWrite(`/unified/ats/applications/${id}/move`, { interview_stage_id: 5501 })
      expect(expectErrorBody(wrongType, 400).message).toContain("interview_stage_id")
      const wrongReason = yield* rawWrite(`/unified/ats/applications/${id}/reject`, { rejected_reason_id: ["7700"] })
      expect(expectErrorBody(wrongReason, 400).message).toContain("rejected_reason_id")
      expect(patches(sandbox)).toEqual([])

      // unknown: the candidate, the placement, a placement of another candidate, an id that is no "{candidate}-{placement}"
      const other = raw.find((candidate) => candidate.id !== placement.candidate_id && candidate.placements.length > 0)!
      for (const unknown of ["999999-1", `${placement.candidate_id}-1`, `${placement.candidate_id}-${other.placements[0].id}`, String(placement.id)]) {
        expect(yield* errorTag(client.unified_ats.ats_move_application({ headers, path: { id: unknown }, payload: { interview_stage_id: "5501" } }))).toBe("NotFound")
        expect(yield* errorTag(client.unified_ats.ats_reject_application({ headers, path: { id: unknown }, payload: { rejected_reason_id: String(reason.id) } }))).toBe("NotFound")
      }
      expect(patches(sandbox)).toEqual([])

      // a stage or a reason the company does not have: Recruitee's 422, nothing changed
      expect(yield* providerStatus(client.unified_ats.ats_move_application({ headers, path: { id }, payload: { interview_stage_id: "1" } }))).toEqual({ tag: "BadRequest", status: 422 })
      expect(yield* providerStatus(client.unified_ats.ats_reject_application({ headers, path: { id }, payload: { rejected_reason_id: "1" } }))).toEqual({ tag: "BadRequest", status: 422 })
      expect(yield* placementOf(sandbox, placement)).toMatchObject({ stage_id: placement.stage_id, disqualified: false })
    }))

  it.effect("the StackOne SDK moves and rejects an application: answers the SDK accepts, the look-alike's placement changed", () =>
    Effect.gen(function*() {
      const { sandbox, sdkWrite } = yield* setup
      const raw = (yield* direct(sandbox, "/candidates")).candidates as Array<Json>
      const placement = raw.flatMap((candidate) => candidate.placements as Array<Json>).find((p) => !p.disqualified)!
      const id = `${placement.candidate_id}-${placement.id}`
      const target = placement.stage_id === 5503 ? 5504 : 5503
      const reason = ((yield* direct(sandbox, "/disqualify_reasons")).disqualify_reasons as Array<Json>).at(-1)!

      const moved = yield* sdkWrite("ats_move_application", { interview_stage_id: String(target) }, id)
      expect({ status: moved.status, issues: moved.issues, data: moved.body.data }).toEqual({ status: 200, issues: [], data: { id, remote_id: String(placement.id) } })
      expect(yield* placementOf(sandbox, placement)).toMatchObject({ stage_id: target, disqualified: false })

      const rejected = yield* sdkWrite("ats_reject_application", { rejected_reason_id: String(reason.id) }, id)
      expect({ status: rejected.status, issues: rejected.issues, data: rejected.body.data }).toEqual({ status: 200, issues: [], data: { id, remote_id: String(placement.id) } })
      expect(yield* placementOf(sandbox, placement)).toMatchObject({ stage_id: target, disqualified: true, disqualify_reason: reason.name })
    }))

  it.effect("a 429 is retried after its Retry-After, a lasting 5xx answers BadGateway, bad credentials are refused", () =>
    Effect.gen(function*() {
      const { client, info, rpc, sandbox } = yield* setup
      const path = candidatesPath(sandbox)
      sandbox.faults.add({ match: { path }, fault: "rate_limit", retryAfter: 1, times: 1 })
      const page = yield* rpc({ action: "ats_list_candidates", query: { page_size: 5 } })
      expect(page.data as Array<Json>).toHaveLength(5)
      const attempts = sandbox.requests("recruitee").filter((request) => request.path === path)
      expect(attempts).toHaveLength(2)
      expect(attempts[0]!.faults).toEqual([expect.stringMatching(/^rate_limit:1/)])
      sandbox.faults.clear()
      sandbox.clearRequests()

      sandbox.faults.add({ match: { path }, fault: "status", status: 503, times: 10 })
      expect(yield* errorTag(rpc({ action: "ats_list_candidates" }))).toBe("BadGateway")
      expect(sandbox.requests("recruitee").filter((request) => request.path === path).length).toBeGreaterThan(1)
      sandbox.faults.clear()

      const wrong = yield* client.accounts.create_account({
        payload: accountBody({
          connector_key: "recruitee",
          credentials: { companyId: info.credentials["companyId"]!, apiToken: "not-the-token" },
          settings: { base_url: info.baseUrl }
        })
      })
      sandbox.clearRequests()
      expect(yield* providerStatus(rpc({ action: "ats_list_jobs" }, wrong.id))).toEqual({ tag: "BadRequest", status: 401 })
      // the token went out as Recruitee's Bearer header, and was refused (no retry of a 401)
      expect(sandbox.requests("recruitee")).toHaveLength(1)
    }))
})
