import { HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import {
  APPLICATION_STATUS_VALUES,
  AtsApplication,
  AtsApplicationsList,
  AtsCandidate,
  AtsCandidatesList,
  AtsDepartmentsList,
  AtsJobsList,
  AtsRejectedReasonsList,
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
 * The built-in smartrecruiters connector against the sandbox's SmartRecruiters look-alike (the
 * Customer API: an API key in X-SmartToken, cursor pages of candidates and users, offset pages
 * of jobs): an account linked with the look-alike's key, then every action through the unified
 * API, each write also through the real StackOne SDK, each compared with what the look-alike
 * itself answers.
 */

const Server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive(23))

const look = (sandbox: Sandbox) => sandbox.lookAlikes.smartrecruiters!

/** The look-alike read directly with its key, as SmartRecruiters answers. */
const srApi = (sandbox: Sandbox, path: string) =>
  Effect.promise(async () => {
    const response = await fetch(`${look(sandbox).baseUrl}${path}`, { headers: { "x-smarttoken": look(sandbox).credentials["apiKey"]! } })
    if (!response.ok) throw new Error(`look-alike ${path} answered ${response.status}`)
    return (await response.json()) as any
  })

/** Every candidate of GET /candidates, following nextPageId. */
const allCandidates = (sandbox: Sandbox, query = "") =>
  Effect.gen(function*() {
    const out: Array<Json> = []
    let pageId: string | undefined
    for (;;) {
      const page = yield* srApi(sandbox, `/candidates?limit=100${query}${pageId === undefined ? "" : `&pageId=${pageId}`}`)
      out.push(...page.content)
      if (page.nextPageId === undefined) return out
      pageId = page.nextPageId
    }
  })

/** The applications the candidate list holds, in its order: primary, then secondary assignments. */
const assignmentsOf = (candidates: ReadonlyArray<Json>) =>
  candidates.flatMap((c) => [
    ...(c.primaryAssignment ? [{ candidate: c, assignment: c.primaryAssignment }] : []),
    ...c.secondaryAssignments.map((assignment: Json) => ({ candidate: c, assignment }))
  ])

const setup = Effect.gen(function*() {
  const sandbox = yield* SandboxProviders
  sandbox.reset()
  sandbox.clearRequests()
  const { client, key } = yield* freshProject
  const account = yield* client.accounts.create_account({
    payload: accountBody({
      connector_key: "smartrecruiters",
      credentials: { apiKey: look(sandbox).credentials["apiKey"]! },
      settings: { base_url: look(sandbox).baseUrl }
    })
  })
  const headers = { "x-account-id": account.id }
  const address = (yield* HttpServer.HttpServer).address
  const sdk = stackOneSdkClient(address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : "", key)
  return { sandbox, client, headers, sdkWrite: sdkCalls(sdk, account.id).write, ats: client.unified_ats }
})

const ids = (records: ReadonlyArray<Json>) => records.map((record) => record.id as string)
const requestsTo = (sandbox: Sandbox, method: string, path: string) =>
  sandbox.requests("smartrecruiters").filter((r) => r.method === method && r.path === path)

const decodeApplication = Schema.decodeUnknownSync(AtsApplication, { onExcessProperty: "error" })
const decodeCandidate = Schema.decodeUnknownSync(AtsCandidate, { onExcessProperty: "error" })
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

const STATUS: Record<string, string> = {
  LEAD: "lead",
  NEW: "new",
  IN_REVIEW: "review",
  INTERVIEW: "interview",
  OFFERED: "offer",
  HIRED: "hired",
  REJECTED: "rejected",
  WITHDRAWN: "declined_by_candidate"
}

const errorTag = <A>(effect: Effect.Effect<A, { readonly _tag: string }>) => Effect.map(Effect.flip(effect), (error) => error._tag)

layer(Server, { excludeTestServices: true })("the smartrecruiters connector over the sandbox's SmartRecruiters look-alike", (it) => {
  it.effect("ats_list_candidates pages through every candidate once; ats_get_candidate; 404; filters", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox } = yield* setup
      const raw = yield* allCandidates(sandbox)
      expect(raw.length).toBeGreaterThan(40)
      sandbox.clearRequests()

      const { pages, records } = yield* walkPages(
        (next) => client.unified_ats.ats_list_candidates({ headers, urlParams: { page_size: 7, ...(next ? { next } : {}) } }),
        { schema: AtsCandidatesList }
      )
      expect(pages).toBe(Math.ceil(raw.length / 7))
      expect(ids(records)).toEqual(raw.map((c) => c.id))
      // the key in X-SmartToken, limit 7 and SmartRecruiters' own page ids
      const sent = requestsTo(sandbox, "GET", "/candidates")
      expect(sent).toHaveLength(pages)
      expect(sent.map((r) => r.query["limit"])).toEqual(sent.map(() => "7"))
      expect(sent.map((r) => r.query["pageId"] ?? null).slice(1)).toEqual(
        expect.arrayContaining([expect.any(String)])
      )
      expect(new Set(sent.map((r) => r.query["pageId"] ?? null)).size).toBe(pages)
      for (const record of records) {
        decodeCandidate(record)
        expect(record.created_at).toMatch(ISO)
        expect(record.updated_at).toMatch(ISO)
      }

      const rich = raw.find((c) => c.secondaryAssignments.length > 0 && c.tags.length > 0)!
      const byId = new Map(records.map((record) => [record.id as string, record]))
      expect(byId.get(rich.id)).toEqual({
        id: rich.id,
        remote_id: rich.id,
        name: `${rich.firstName} ${rich.lastName}`,
        first_name: rich.firstName,
        last_name: rich.lastName,
        email: rich.email,
        emails: [{ value: rich.email }],
        phone_numbers: [],
        social_links: [],
        ...(rich.location ? { country: rich.location.country } : {}),
        application_ids: [rich.primaryAssignment.job.id, ...rich.secondaryAssignments.map((a: Json) => a.job.id)].map((job) => `${rich.id}:${job}`),
        remote_application_ids: [rich.primaryAssignment.job.id, ...rich.secondaryAssignments.map((a: Json) => a.job.id)].map((job) => `${rich.id}:${job}`),
        tags: rich.tags.map((name: string) => ({ name })),
        created_at: rich.createdOn,
        updated_at: rich.updatedOn
      })

      // the details add the phone number and web profiles the list lacks
      const details = yield* srApi(sandbox, `/candidates/${rich.id}`)
      const one = yield* client.unified_ats.ats_get_candidate({ headers, path: { id: rich.id }, urlParams: {} })
      decodeCandidate(one.data)
      expect(one.data).toEqual({
        ...byId.get(rich.id),
        ...(details.phoneNumber ? { phone: details.phoneNumber, phone_numbers: [{ phone: details.phoneNumber }] } : {}),
        social_links: details.web.linkedIn ? [{ type: "linkedin", url: details.web.linkedIn }] : []
      })
      expect(yield* errorTag(client.unified_ats.ats_get_candidate({ headers, path: { id: "00000000-0000-4000-8000-000000000000" }, urlParams: {} }))).toBe("NotFound")

      const byEmail = yield* client.unified_ats.ats_list_candidates({ headers, urlParams: { filter: { email: rich.email.toUpperCase() } } })
      expect(ids(byEmail.data as ReadonlyArray<Json>)).toEqual([rich.id])
      const times = [...new Set(raw.map((c) => c.updatedOn as string))].sort()
      const median = times[Math.floor(times.length / 2)]!
      const newer = yield* client.unified_ats.ats_list_candidates({ headers, urlParams: { page_size: 100, filter: { updated_after: median } } })
      expect(ids(newer.data as ReadonlyArray<Json>)).toEqual(raw.filter((c) => c.updatedOn >= median).map((c) => c.id))
      expect(requestsTo(sandbox, "GET", "/candidates").at(-1)!.query["updatedAfter"]).toBe(median)
    }))

  it.effect("ats_list_applications pages through every candidate's applications; ats_get_application reads each; 404", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox } = yield* setup
      const raw = yield* allCandidates(sandbox)
      const expected = assignmentsOf(raw)
      expect(expected.length).toBeGreaterThan(raw.length)

      const { pages, records } = yield* walkPages(
        (next) => client.unified_ats.ats_list_applications({ headers, urlParams: { page_size: 9, ...(next ? { next } : {}) } }),
        { schema: AtsApplicationsList }
      )
      expect(pages).toBe(Math.ceil(raw.length / 9))
      expect(ids(records)).toEqual(expected.map(({ assignment, candidate }) => `${candidate.id}:${assignment.job.id}`))
      for (const record of records) {
        decodeApplication(record)
        if (record.interview_stage_id !== undefined) {
          expect(record.application_status).toEqual({ value: STATUS[record.interview_stage_id], source_value: record.interview_stage_id })
        }
      }

      const primary = expected.find(({ assignment }) => assignment.status === "INTERVIEW")!
      const id = `${primary.candidate.id}:${primary.assignment.job.id}`
      const listed = records.find((r) => r.id === id)!
      expect(listed).toEqual({
        id,
        remote_id: id,
        candidate_id: primary.candidate.id,
        remote_candidate_id: primary.candidate.id,
        job_id: primary.assignment.job.id,
        remote_job_id: primary.assignment.job.id,
        interview_stage: { id: "INTERVIEW", remote_id: "INTERVIEW", name: "INTERVIEW" },
        interview_stage_id: "INTERVIEW",
        remote_interview_stage_id: "INTERVIEW",
        application_stage: { id: "INTERVIEW", remote_id: "INTERVIEW", name: "INTERVIEW" },
        application_stage_id: "INTERVIEW",
        remote_application_stage_id: "INTERVIEW",
        application_status: { value: "interview", source_value: "INTERVIEW" },
        status: { value: "interview", source_value: "INTERVIEW" },
        rejected_reason_ids: [],
        remote_rejected_reason_ids: [],
        rejected_reasons: [],
        candidate: {
          name: `${primary.candidate.firstName} ${primary.candidate.lastName}`,
          first_name: primary.candidate.firstName,
          last_name: primary.candidate.lastName,
          email: primary.candidate.email
        }
      })
      // the candidate list gives a secondary application's job only
      const secondary = expected.find(({ candidate }) => candidate.secondaryAssignments.length > 0 && candidate.secondaryAssignments[0] !== undefined)!
      const secondaryJob = secondary.candidate.secondaryAssignments[0].job.id
      const secondaryId = `${secondary.candidate.id}:${secondaryJob}`
      expect(records.find((r) => r.id === secondaryId)!.interview_stage).toBeUndefined()

      // get reads the application itself: its status, source and, when rejected, the reason and time
      const reasons = (yield* srApi(sandbox, "/configuration/rejection-reasons")).content as Array<Json>
      for (const [candidateId, jobId] of [[primary.candidate.id, primary.assignment.job.id], [secondary.candidate.id, secondaryJob]] as const) {
        const application = yield* srApi(sandbox, `/candidates/${candidateId}/jobs/${jobId}`)
        const one = yield* client.unified_ats.ats_get_application({ headers, path: { id: `${candidateId}:${jobId}` }, urlParams: {} })
        decodeApplication(one.data)
        expect(one.data).toMatchObject({
          id: `${candidateId}:${jobId}`,
          candidate_id: candidateId,
          job_id: jobId,
          interview_stage_id: application.status,
          application_status: { source_value: application.status },
          source: { name: application.source }
        })
        expect(APPLICATION_STATUS_VALUES).toContain((one.data as Json).application_status.value)
      }
      const rejected = raw.find((c) => c.primaryAssignment?.status === "REJECTED")!
      const rejectedApp = yield* srApi(sandbox, `/candidates/${rejected.id}/jobs/${rejected.primaryAssignment.job.id}`)
      const gotRejected = yield* client.unified_ats.ats_get_application({ headers, path: { id: `${rejected.id}:${rejected.primaryAssignment.job.id}` }, urlParams: {} })
      expect(gotRejected.data).toMatchObject({
        application_status: { value: "rejected", source_value: "REJECTED" },
        rejected_reason_ids: [rejectedApp.reasonOfRejection.id],
        rejected_reasons: [{ id: rejectedApp.reasonOfRejection.id, label: reasons.find((r) => r.id === rejectedApp.reasonOfRejection.id)!.label }],
        rejected_at: rejectedApp.startsOn
      })

      expect(yield* errorTag(client.unified_ats.ats_get_application({ headers, path: { id: `${primary.candidate.id}:00000000-0000-4000-8000-000000000000` }, urlParams: {} }))).toBe("NotFound")
      expect(yield* errorTag(client.unified_ats.ats_get_application({ headers, path: { id: "nobody" }, urlParams: {} }))).toBe("NotFound")

      // filter_job_id: SmartRecruiters' jobId, then that job's applications only
      const job = primary.assignment.job.id
      const forJob = yield* client.unified_ats.ats_list_applications({ headers, urlParams: { page_size: 100, filter: { job_id: job } } })
      expect(ids(forJob.data as ReadonlyArray<Json>)).toEqual(expected.filter(({ assignment }) => assignment.job.id === job).map(({ candidate }) => `${candidate.id}:${job}`))
      expect(requestsTo(sandbox, "GET", "/candidates").at(-1)!.query["jobId"]).toBe(job)
    }))

  it.effect("ats_move_application and ats_reject_application change the status, seen on a later read", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox } = yield* setup
      const raw = yield* allCandidates(sandbox)
      const fresh = raw.find((c) => c.primaryAssignment?.status === "NEW")!
      const id = `${fresh.id}:${fresh.primaryAssignment.job.id}`
      const path = `/candidates/${fresh.id}/jobs/${fresh.primaryAssignment.job.id}/status`

      const moved = yield* client.unified_ats.ats_move_application({ headers, path: { id }, payload: { interview_stage_id: "INTERVIEW", passthrough: { subStatus: "Onsite interview" } } })
      expect(moved).toMatchObject({ data: { id, remote_id: id } })
      expect(JSON.parse(requestsTo(sandbox, "PUT", path).at(-1)!.body!)).toEqual({ status: "INTERVIEW", subStatus: "Onsite interview" })
      const afterMove = yield* srApi(sandbox, `/candidates/${fresh.id}/jobs/${fresh.primaryAssignment.job.id}`)
      expect(afterMove).toMatchObject({ status: "INTERVIEW", subStatus: "Onsite interview" })
      const got = yield* client.unified_ats.ats_get_application({ headers, path: { id }, urlParams: {} })
      expect(got.data).toMatchObject({ interview_stage_id: "INTERVIEW", application_status: { value: "interview" } })

      // a stage SmartRecruiters does not have: its 400 comes back
      const wrong = yield* Effect.flip(client.unified_ats.ats_move_application({ headers, path: { id }, payload: { interview_stage_id: "PHONE_SCREEN" } }))
      expect(wrong).toMatchObject({ _tag: "BadRequest", statusCode: 400 })

      const reasons = yield* client.unified_ats.ats_list_rejected_reasons({ headers, urlParams: {} })
      Schema.decodeUnknownSync(AtsRejectedReasonsList, { onExcessProperty: "error" })(reasons)
      const raws = (yield* srApi(sandbox, "/configuration/rejection-reasons")).content as Array<Json>
      expect(reasons.data).toEqual(raws.map((r) => ({ id: r.id, remote_id: r.id, label: r.label })))
      const reason = (reasons.data as ReadonlyArray<Json>)[1]!
      yield* client.unified_ats.ats_reject_application({ headers, path: { id }, payload: { rejected_reason_id: reason.id } })
      expect(JSON.parse(requestsTo(sandbox, "PUT", path).at(-1)!.body!)).toEqual({ status: "REJECTED", reason: reason.id })
      const rejected = yield* client.unified_ats.ats_get_application({ headers, path: { id }, urlParams: {} })
      expect(rejected.data).toMatchObject({
        application_status: { value: "rejected", source_value: "REJECTED" },
        rejected_reason_ids: [reason.id],
        rejected_reasons: [{ id: reason.id, label: reason.label }],
        rejected_at: expect.stringMatching(ISO)
      })
      // the candidate's update time moved, so it leads an updated_after listing
      const listed = yield* client.unified_ats.ats_list_applications({ headers, urlParams: { page_size: 100, filter: { updated_after: rejected.data!.rejected_at as string } } })
      expect(ids(listed.data as ReadonlyArray<Json>)).toContain(id)
      expect(yield* errorTag(client.unified_ats.ats_reject_application({ headers, path: { id: `${fresh.id}:00000000-0000-4000-8000-000000000000` }, payload: {} }))).toBe("NotFound")
    }))

  it.effect("the StackOne SDK creates a candidate, moves and rejects an application: answers the SDK accepts, the look-alike's records changed", () =>
    Effect.gen(function*() {
      const { sandbox, sdkWrite } = yield* setup
      const jobs = (yield* srApi(sandbox, "/jobs?limit=100")).content as Array<Json>
      const created = yield* sdkWrite("ats_create_candidate", {
        first_name: "Grace",
        last_name: "Hopper",
        email: "grace.sdk.sr@example.com",
        phone_numbers: [{ phone: "+1 555 0100" }],
        passthrough: { jobId: jobs[1]!.id }
      })
      expect({ status: created.status, issues: created.issues }).toEqual({ status: 201, issues: [] })
      const graceId = created.body.data.id as string
      expect(created.body.data).toMatchObject({ id: graceId })
      expect(yield* srApi(sandbox, `/candidates/${graceId}`)).toMatchObject({ firstName: "Grace", lastName: "Hopper", email: "grace.sdk.sr@example.com", phoneNumber: "+1 555 0100" })
      expect(yield* srApi(sandbox, `/candidates/${graceId}/jobs/${jobs[1]!.id}`)).toMatchObject({ status: "NEW" })

      const id = `${graceId}:${jobs[1]!.id}`
      const moved = yield* sdkWrite("ats_move_application", { interview_stage_id: "IN_REVIEW" }, id)
      expect({ status: moved.status, issues: moved.issues, data: moved.body.data }).toEqual({ status: 200, issues: [], data: { id, remote_id: id } })
      expect(yield* srApi(sandbox, `/candidates/${graceId}/jobs/${jobs[1]!.id}`)).toMatchObject({ status: "IN_REVIEW" })

      const reason = ((yield* srApi(sandbox, "/configuration/rejection-reasons")).content as Array<Json>)[0]!
      const rejected = yield* sdkWrite("ats_reject_application", { rejected_reason_id: reason.id }, id)
      expect({ status: rejected.status, issues: rejected.issues, data: rejected.body.data }).toEqual({ status: 200, issues: [], data: { id, remote_id: id } })
      expect(yield* srApi(sandbox, `/candidates/${graceId}/jobs/${jobs[1]!.id}`)).toMatchObject({ status: "REJECTED", reasonOfRejection: { id: reason.id } })
    }))

  it.effect("ats_create_candidate creates in the talent pool, or on a job with passthrough.jobId; both read back", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox } = yield* setup
      const created = yield* client.unified_ats.ats_create_candidate({
        headers,
        payload: {
          name: "Ada King Lovelace",
          email: "ada.sr@example.com",
          phone_numbers: [{ type: "mobile", phone: "+44 20 7946 0001" }],
          social_links: [{ type: "linkedin", url: "https://www.linkedin.com/in/ada" }],
          country: "United Kingdom",
          company: "Analytical Engines"
        }
      })
      expect(created).toMatchObject({ statusCode: 201, data: { id: expect.any(String) } })
      const id = created.data!.id as string
      expect(JSON.parse(requestsTo(sandbox, "POST", "/candidates")[0]!.body!)).toEqual({
        firstName: "Ada",
        lastName: "King Lovelace",
        email: "ada.sr@example.com",
        phoneNumber: "+44 20 7946 0001",
        web: { linkedIn: "https://www.linkedin.com/in/ada" },
        location: { country: "United Kingdom" }
      })
      const got = yield* client.unified_ats.ats_get_candidate({ headers, path: { id }, urlParams: {} })
      expect(got.data).toMatchObject({
        id,
        name: "Ada King Lovelace",
        first_name: "Ada",
        last_name: "King Lovelace",
        email: "ada.sr@example.com",
        phone: "+44 20 7946 0001",
        social_links: [{ type: "linkedin", url: "https://www.linkedin.com/in/ada" }],
        country: "United Kingdom",
        application_ids: []
      })
      // a talent-pool candidate has no application: SmartRecruiters' search leaves it out
      const first = yield* client.unified_ats.ats_list_candidates({ headers, urlParams: { page_size: 3 } })
      expect(ids(first.data as ReadonlyArray<Json>)).not.toContain(id)

      const jobs = (yield* srApi(sandbox, "/jobs?limit=100")).content as Array<Json>
      const onJob = yield* client.unified_ats.ats_create_candidate({
        headers,
        payload: { first_name: "Grace", last_name: "Hopper", email: "grace.sr@example.com", passthrough: { jobId: jobs[2]!.id } }
      })
      const graceId = onJob.data!.id as string
      expect(requestsTo(sandbox, "POST", `/jobs/${jobs[2]!.id}/candidates`)).toHaveLength(1)
      const newest = yield* client.unified_ats.ats_list_candidates({ headers, urlParams: { page_size: 1 } })
      expect(ids(newest.data as ReadonlyArray<Json>)).toEqual([graceId])
      const application = yield* client.unified_ats.ats_get_application({ headers, path: { id: `${graceId}:${jobs[2]!.id}` }, urlParams: {} })
      expect(application.data).toMatchObject({ candidate_id: graceId, job_id: jobs[2]!.id, application_status: { value: "new" }, source: { name: "API" } })

      // SmartRecruiters requires an email: its 400 comes back
      const refused = yield* Effect.flip(client.unified_ats.ats_create_candidate({ headers, payload: { first_name: "No", last_name: "Email" } }))
      expect(refused).toMatchObject({ _tag: "BadRequest", statusCode: 400 })
      expect(JSON.stringify(refused)).toContain("email")
      expect(yield* errorTag(client.unified_ats.ats_create_candidate({ headers, payload: { first_name: "A", last_name: "B", email: "a@b.example", passthrough: { jobId: "no-such-job" } } }))).toBe("NotFound")
    }))

  it.effect("jobs, users and departments through the unified API: pages, gets, 404", () =>
    Effect.gen(function*() {
      const { ats, headers, sandbox } = yield* setup
      const rawJobs = (yield* srApi(sandbox, "/jobs?limit=100")).content as Array<Json>
      const { pages, records: jobs } = yield* walkPages(
        (next) => ats.ats_list_jobs({ headers, urlParams: { page_size: 3, ...(next ? { next } : {}) } }),
        { schema: AtsJobsList }
      )
      expect(pages).toBe(Math.ceil(rawJobs.length / 3))
      expect(ids(jobs)).toEqual(rawJobs.map((j) => j.id))
      expect(requestsTo(sandbox, "GET", "/jobs").slice(-pages).map((r) => r.query["offset"] ?? null)).toEqual(
        Array.from({ length: pages }, (_, i) => (i === 0 ? null : String(i * 3)))
      )
      const statusOf: Record<string, string> = { CREATED: "draft", SOURCING: "open", INTERVIEW: "open", OFFER: "open", FILLED: "closed", CANCELLED: "archived", ON_HOLD: "on_hold" }
      for (const [i, raw] of rawJobs.entries()) {
        expect(jobs[i]).toEqual({
          id: raw.id,
          remote_id: raw.id,
          code: raw.refNumber,
          title: raw.title,
          status: raw.status,
          job_status: { value: statusOf[raw.status], source_value: raw.status },
          department_ids: [raw.department.id],
          remote_department_ids: [raw.department.id],
          created_at: raw.createdOn,
          updated_at: raw.updatedOn
        })
      }
      const job = yield* ats.ats_get_job({ headers, path: { id: rawJobs[1]!.id }, urlParams: {} })
      expect(job.data).toEqual(jobs[1])
      expect(yield* errorTag(ats.ats_get_job({ headers, path: { id: "no-such-job" }, urlParams: {} }))).toBe("NotFound")

      const rawUsers: Array<Json> = []
      let pageId: string | undefined
      do {
        const page = yield* srApi(sandbox, `/user-api/v201804/users?limit=100${pageId ? `&pageId=${pageId}` : ""}`)
        rawUsers.push(...page.content)
        pageId = page.nextPageId
      } while (pageId)
      const users = yield* walkPages(
        (next) => ats.ats_list_users({ headers, urlParams: { page_size: 4, ...(next ? { next } : {}) } }),
        { schema: AtsUsersList }
      )
      expect(users.pages).toBe(Math.ceil(rawUsers.length / 4))
      expect(users.records).toEqual(rawUsers.map((u) => ({ id: u.id, remote_id: u.id, email: u.email, first_name: u.firstName, last_name: u.lastName, name: `${u.firstName} ${u.lastName}` })))
      const user = yield* ats.ats_get_user({ headers, path: { id: rawUsers[3]!.id }, urlParams: {} })
      expect(user.data).toEqual(users.records[3])
      expect(yield* errorTag(ats.ats_get_user({ headers, path: { id: "ffffffffffffffffffffffff" }, urlParams: {} }))).toBe("NotFound")

      const rawDepartments = (yield* srApi(sandbox, "/configuration/departments")).content as Array<Json>
      const departments = yield* ats.ats_list_departments({ headers, urlParams: {} })
      Schema.decodeUnknownSync(AtsDepartmentsList, { onExcessProperty: "error" })(departments)
      expect(departments.data).toEqual(rawDepartments.map((d) => ({ id: d.id, remote_id: d.id, name: d.label })))
      const department = yield* ats.ats_get_department({ headers, path: { id: rawDepartments[2]!.id }, urlParams: {} })
      expect(department.data).toEqual((departments.data as ReadonlyArray<Json>)[2])
      expect(yield* errorTag(ats.ats_get_department({ headers, path: { id: "0" }, urlParams: {} }))).toBe("NotFound")
    }))

  it.effect("SmartRecruiters' 429 and 5xx: retried, then answered; a wrong key is refused with the provider's 401", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox } = yield* setup
      const list = client.unified_ats.ats_list_candidates({ headers, urlParams: { page_size: 2 } })

      sandbox.faults.add({ match: { provider: "smartrecruiters", path: "/candidates" }, fault: "status", status: 503, times: 2 })
      yield* list
      expect(requestsTo(sandbox, "GET", "/candidates")).toHaveLength(3)

      // a 429 with Retry-After: tried again once that second has passed
      sandbox.clearRequests()
      sandbox.faults.add({ match: { provider: "smartrecruiters", path: "/candidates" }, fault: "rate_limit", retryAfter: 1, times: 1 })
      const page = yield* list
      expect(page.data).toHaveLength(2)
      expect(requestsTo(sandbox, "GET", "/candidates").map((r) => r.faults.length)).toEqual([1, 0])

      // 5xx on every try: three attempts, then the provider's failure as 502
      sandbox.clearRequests()
      sandbox.faults.add({ match: { provider: "smartrecruiters", path: "/candidates" }, fault: "status", status: 500, times: 10 })
      expect(yield* errorTag(list)).toBe("BadGateway")
      const tries = requestsTo(sandbox, "GET", "/candidates")
      expect(tries.length).toBeGreaterThan(1)
      expect(tries.every((r) => r.faults.length === 1)).toBe(true)
      sandbox.faults.clear()

      const { client: other } = yield* freshProject
      const wrong = yield* other.accounts.create_account({
        payload: accountBody({ connector_key: "smartrecruiters", credentials: { apiKey: "0123456789abcdef0123456789abcdef" }, settings: { base_url: look(sandbox).baseUrl } })
      })
      const refused = yield* Effect.flip(other.unified_ats.ats_list_candidates({ headers: { "x-account-id": wrong.id }, urlParams: {} }))
      expect(refused).toMatchObject({ provider_errors: [{ status: 401 }] })
      expect(JSON.stringify(refused)).not.toContain("0123456789abcdef0123456789abcdef")
    }))
})
