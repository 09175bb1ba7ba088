import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { accountBody, freshProject } from "./support/Fixtures.js"
import { type Json, SandboxLive, SandboxProviders, sandboxBambooAccount, sandboxGreenhouseAccount, applicationWithNote, direct } from "./support/SandboxLayer.js"
import { referenceSchemaOf } from "../src/app/contractCheck/referenceSchemas.js"
import { TestServer } from "./support/TestServer.js"

/*
 * The shipped connector versions greenhouse@1.2.0, bamboohr@1.1.0, talentlms@1.1.0 and talentlms@1.3.0,
 * run through the action RPC over real sockets against the sandbox providers. What the
 * connectors answer is checked against what the sandbox itself says, read directly.
 */

const Server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive(7))


interface RpcPayload {
  readonly action: string
  readonly query?: Record<string, unknown>
  readonly path?: Record<string, unknown>
  readonly body?: unknown
}

/** A fresh project with one account per sandbox provider, on the versions under test; sandbox data reset. */
const setup = Effect.gen(function*() {
  const sandbox = yield* SandboxProviders
  sandbox.reset()
  sandbox.clearRequests()
  const { client } = yield* freshProject
  const greenhouse = yield* client.accounts.create_account({
    payload: sandboxGreenhouseAccount(sandbox, { connector_version: "1.2.0" })
  })
  const bamboohr = yield* client.accounts.create_account({
    payload: sandboxBambooAccount(sandbox, { connector_version: "1.1.0" })
  })
  const talentlms = yield* client.accounts.create_account({
    payload: accountBody({
      connector_key: "talentlms",
      connector_version: "1.1.0",
      credentials: { apiKey: sandbox.lms.apiKey, domain: "sandbox" },
      settings: { base_url: sandbox.lms.baseUrl }
    })
  })
  const talentlms13 = yield* client.accounts.create_account({
    payload: accountBody({
      connector_key: "talentlms",
      connector_version: "1.3.0",
      credentials: { apiKey: sandbox.lms.apiKey, domain: "sandbox" },
      settings: { base_url: sandbox.lms.baseUrl }
    })
  })
  const rpc = (accountId: string, payload: RpcPayload) =>
    client.actions.rpc_action({ headers: { "x-account-id": accountId }, payload })
  /** Every record of a list action, following `next` until there is none. */
  const all = (accountId: string, action: string, query: Record<string, unknown> = {}, path?: Record<string, unknown>) =>
    Effect.gen(function*() {
      const records: Array<Json> = []
      const cursors: Array<unknown> = []
      let cursor: unknown = undefined
      for (;;) {
        const page = yield* rpc(accountId, {
          action,
          query: cursor === undefined ? query : { ...query, cursor },
          ...(path === undefined ? {} : { path })
        })
        records.push(...(page.data as Array<Json>))
        if (page.next === undefined || page.next === null) break
        expect(cursors).not.toContain(page.next)
        cursors.push(page.next)
        cursor = page.next
      }
      return { records, pages: cursors.length + 1 }
    })
  return { sandbox, greenhouse, bamboohr, talentlms, talentlms13, rpc, all }
})


const bytesAt = (url: string) =>
  Effect.promise(async () => {
    const response = await fetch(url)
    if (!response.ok) throw new Error(`${url} answered ${response.status}`)
    return Buffer.from(await response.arrayBuffer())
  })

const ids = (records: ReadonlyArray<Json>) => records.map((record) => record.id as string)

/** No issue against StackOne's reference shape of the action's answer (a list's as one page with no next). */
const fitsReference = (action: string, data: unknown) => {
  const reference = referenceSchemaOf(action)
  expect(reference, `StackOne defines ${action}`).toBeDefined()
  expect(reference!.issues(Array.isArray(data) ? { data, next: null } : { data })).toEqual([])
}

const errorTag = <A>(effect: Effect.Effect<A, { readonly _tag: string }>) => Effect.map(Effect.flip(effect), (error) => error._tag)

layer(Server, { excludeTestServices: true })("built-in connectors over the action RPC", (it) => {
  it.effect("greenhouse: lists applications and candidates page by page, each record once, and gets them", () =>
    Effect.gen(function*() {
      const { all, greenhouse, rpc, sandbox } = yield* setup
      const raw = (yield* direct(sandbox, "ats", "/applications?per_page=500")) as Array<Json>
      expect(raw).toHaveLength(sandbox.counts.applications)
      sandbox.clearRequests()

      const { pages, records } = yield* all(greenhouse.id, "ats_list_applications", { page_size: 40 })
      expect(pages).toBe(Math.ceil(sandbox.counts.applications / 40))
      expect(records).toHaveLength(sandbox.counts.applications)
      expect(new Set(ids(records)).size).toBe(records.length)
      expect(ids(records).sort()).toEqual(raw.map((app) => String(app.id)).sort())
      const pageRequests = sandbox.requests("ats").filter((request) => request.path === "/v1/applications")
      expect(pageRequests.map((request) => request.query)).toEqual(
        Array.from({ length: pages }, (_, index) => index === 0 ? { per_page: "40" } : { per_page: "40", page: String(index + 1) })
      )

      const byId = new Map(records.map((record) => [record.id as string, record]))
      const rejected = raw.find((app) => app.status === "rejected" && app.rejection_reason !== null)!
      expect(byId.get(String(rejected.id))).toMatchObject({
        id: String(rejected.id),
        remote_id: String(rejected.id),
        candidate_id: String(rejected.candidate_id),
        remote_candidate_id: String(rejected.candidate_id),
        job_id: String(rejected.jobs[0].id),
        application_status: { value: "rejected", source_value: "rejected" },
        rejected_reason_ids: [String(rejected.rejection_reason.id)],
        rejected_reasons: [{ id: String(rejected.rejection_reason.id), label: rejected.rejection_reason.name }],
        rejected_at: new Date(rejected.rejected_at).toISOString(),
        created_at: new Date(rejected.applied_at).toISOString(),
        updated_at: new Date(rejected.last_activity_at).toISOString()
      })
      const active = raw.find((app) => app.status === "active" && app.current_stage !== null)!
      expect(byId.get(String(active.id))).toMatchObject({
        application_status: { value: "active", source_value: "active" },
        interview_stage_id: String(active.current_stage.id),
        interview_stage: { id: String(active.current_stage.id), name: active.current_stage.name }
      })
      const one = yield* rpc(greenhouse.id, { action: "ats_get_application", path: { id: String(active.id) } })
      expect(one.data).toEqual(byId.get(String(active.id)))
      expect(yield* errorTag(rpc(greenhouse.id, { action: "ats_get_application", path: { id: "999999999" } }))).toBe("NotFound")

      const jobId = String(active.jobs[0].id)
      const forJob = yield* all(greenhouse.id, "ats_list_applications", { page_size: 10, filter_job_id: jobId })
      expect(forJob.records.length).toBe(raw.filter((app) => String(app.jobs[0]?.id) === jobId).length)
      expect(forJob.records.every((record) => record.job_id === jobId)).toBe(true)

      const candidates = yield* all(greenhouse.id, "ats_list_candidates", { page_size: 50 })
      expect(candidates.pages).toBe(Math.ceil(sandbox.counts.candidates / 50))
      expect(candidates.records).toHaveLength(sandbox.counts.candidates)
      expect(new Set(ids(candidates.records)).size).toBe(sandbox.counts.candidates)
      const candidate = candidates.records[3]!
      const rawCandidate = yield* direct(sandbox, "ats", `/candidates/${candidate.id}`)
      expect(candidate).toMatchObject({
        remote_id: String(rawCandidate.id),
        first_name: rawCandidate.first_name,
        last_name: rawCandidate.last_name,
        name: `${rawCandidate.first_name} ${rawCandidate.last_name}`,
        email: rawCandidate.email_addresses[0].value,
        application_ids: rawCandidate.application_ids.map(String)
      })
      const byEmail = yield* rpc(greenhouse.id, { action: "ats_list_candidates", query: { filter_email: candidate.email } })
      expect(ids(byEmail.data as Array<Json>)).toEqual([candidate.id])
      const got = yield* rpc(greenhouse.id, { action: "ats_get_candidate", path: { id: candidate.id } })
      expect(got.data).toEqual(candidate)
    }))

  it.effect("greenhouse: offers, scorecards, scheduled interviews, changes and notes of an application", () =>
    Effect.gen(function*() {
      const { all, greenhouse, rpc, sandbox } = yield* setup
      const offers = (yield* direct(sandbox, "ats", "/offers?per_page=500")) as Array<Json>
      const withTwo = offers.find((offer) => offers.filter((other) => other.application_id === offer.application_id).length > 1)!
      const appId = String(withTwo.application_id)
      const listed = yield* all(greenhouse.id, "ats_list_applications_offers", { page_size: 1 }, { id: appId })
      expect(listed.pages).toBe(2)
      expect(ids(listed.records).sort()).toEqual(offers.filter((offer) => String(offer.application_id) === appId).map((offer) => String(offer.id)).sort())
      for (const offer of listed.records) {
        const source = offers.find((candidate) => String(candidate.id) === offer.id)!
        expect(offer).toMatchObject({ application_id: appId, offer_status: { source_value: source.status } })
        const got = yield* rpc(greenhouse.id, { action: "ats_get_application_offer", path: { id: appId, subResourceId: offer.id } })
        expect(got.data).toEqual(offer)
      }
      expect(listed.records.map((offer) => offer.offer_status.value).sort()).toContain("accepted")
      const otherApp = String(offers.find((offer) => String(offer.application_id) !== appId)!.application_id)
      expect(yield* errorTag(rpc(greenhouse.id, {
        action: "ats_get_application_offer",
        path: { id: otherApp, subResourceId: listed.records[0]!.id }
      }))).toBe("NotFound")

      const scorecards = (yield* direct(sandbox, "ats", "/scorecards?per_page=500")) as Array<Json>
      const scored = String(scorecards[0]!.application_id)
      const cards = yield* rpc(greenhouse.id, { action: "ats_list_application_scorecards", path: { id: scored } })
      const cardRecords = cards.data as Array<Json>
      expect(ids(cardRecords).sort()).toEqual(scorecards.filter((card) => String(card.application_id) === scored).map((card) => String(card.id)).sort())
      expect(cardRecords[0]).toMatchObject({ application_id: scored, overall_recommendation: expect.stringMatching(/^(strong_yes|yes|no|strong_no|no_decision)$/) })
      const card = yield* rpc(greenhouse.id, { action: "ats_get_application_scorecard", path: { id: scored, subResourceId: cardRecords[0]!.id } })
      expect(card.data).toEqual(cardRecords[0])

      const interviews = (yield* direct(sandbox, "ats", "/scheduled_interviews?per_page=500")) as Array<Json>
      const interviewed = String(interviews[0]!.application_id)
      const scheduled = yield* all(greenhouse.id, "ats_list_applications_scheduled_interviews", { page_size: 2 }, { id: interviewed })
      expect(ids(scheduled.records).sort()).toEqual(
        interviews.filter((interview) => String(interview.application_id) === interviewed).map((interview) => String(interview.id)).sort()
      )
      const first = interviews.find((interview) => String(interview.id) === scheduled.records[0]!.id)!
      expect(scheduled.records[0]).toMatchObject({
        interview_status: { source_value: first.status },
        start_at: new Date(first.start.date_time).toISOString(),
        interviewer_ids: first.interviewers.map((interviewer: Json) => String(interviewer.id))
      })
      const interview = yield* rpc(greenhouse.id, {
        action: "ats_get_application_scheduled_interview",
        path: { id: interviewed, subResourceId: scheduled.records[0]!.id }
      })
      expect(interview.data).toEqual(scheduled.records[0])

      const changes = yield* all(greenhouse.id, "ats_list_application_changes", { page_size: 2 }, { id: interviewed })
      const rawChanges = (yield* direct(sandbox, "ats", `/applications/${interviewed}/changes?per_page=500`)) as Array<Json>
      expect(changes.records.map((change) => change.event_id)).toEqual(rawChanges.map((change) => String(change.id)))
      expect(changes.records[0]).toMatchObject({ change_type: { value: "application_status" }, new_values: { application_status: { value: "active" } } })
      const stageChanges = yield* rpc(greenhouse.id, {
        action: "ats_list_application_changes",
        path: { id: interviewed },
        query: { page_size: 100, filter_change_type: "interview_stage" }
      })
      expect((stageChanges.data as Array<Json>).map((change) => change.event_id)).toEqual(
        rawChanges.filter((change) => change.type === "stage_change").map((change) => String(change.id))
      )

      const { applicationId: noteApp, note: rawNote } = yield* applicationWithNote(sandbox)
      const note = yield* rpc(greenhouse.id, { action: "ats_get_application_note", path: { id: noteApp, subResourceId: String(rawNote.id) } })
      expect(note.data).toMatchObject({ id: String(rawNote.id), content: [{ body: rawNote.body }], author_id: String(rawNote.user.id) })
      yield* rpc(greenhouse.id, {
        action: "ats_update_application_note",
        path: { id: noteApp, subResourceId: String(rawNote.id) },
        body: { content: [{ body: "Edited through Switchyard" }], visibility: { value: "public" } }
      })
      const edited = yield* rpc(greenhouse.id, { action: "ats_get_application_note", path: { id: noteApp, subResourceId: String(rawNote.id) } })
      expect(edited.data).toMatchObject({ content: [{ body: "Edited through Switchyard" }], visibility: { value: "public", source_value: "public" } })
    }))

  it.effect("greenhouse: moves and rejects an application, creates a candidate and an application, visible on later reads", () =>
    Effect.gen(function*() {
      const { greenhouse, rpc, sandbox } = yield* setup
      const raw = (yield* direct(sandbox, "ats", "/applications?per_page=500&status=active")) as Array<Json>
      const app = raw.find((candidate) => candidate.current_stage !== null && !candidate.prospect)!
      const appId = String(app.id)
      const stages = (yield* direct(sandbox, "ats", `/jobs/${app.jobs[0].id}/stages`)) as Array<Json>
      const target = String(stages.find((stage) => stage.id !== app.current_stage.id)!.id)

      const moved = yield* rpc(greenhouse.id, { action: "ats_move_application", path: { id: appId }, body: { interview_stage_id: target } })
      expect(moved.data).toEqual({ id: appId, remote_id: appId })
      const move = sandbox.requests("ats").find((request) => request.path === `/v1/applications/${appId}/move`)!
      expect(move.headers["on-behalf-of"]).toBe(String(sandbox.ats.onBehalfOf))
      expect(JSON.parse(move.body!)).toEqual({ from_stage_id: app.current_stage.id, to_stage_id: Number(target) })
      expect((yield* direct(sandbox, "ats", `/applications/${appId}`)).current_stage.id).toBe(Number(target))
      const afterMove = yield* rpc(greenhouse.id, { action: "ats_get_application", path: { id: appId } })
      expect(afterMove.data).toMatchObject({ interview_stage_id: target, application_status: { value: "active" } })
      const stageChanges = yield* rpc(greenhouse.id, {
        action: "ats_list_application_changes",
        path: { id: appId },
        query: { page_size: 100, filter_change_type: "interview_stage" }
      })
      expect((stageChanges.data as Array<Json>).at(-1)).toMatchObject({
        change_type: { value: "interview_stage", source_value: "stage_change" },
        actor: { id: String(sandbox.ats.onBehalfOf) },
        new_values: { interview_stage_id: target }
      })

      yield* rpc(greenhouse.id, { action: "ats_reject_application", path: { id: appId }, body: { rejected_reason_id: "106" } })
      expect((yield* direct(sandbox, "ats", `/applications/${appId}`)).status).toBe("rejected")
      const afterReject = yield* rpc(greenhouse.id, { action: "ats_get_application", path: { id: appId } })
      expect(afterReject.data).toMatchObject({
        application_status: { value: "rejected", source_value: "rejected" },
        rejected_reason_ids: ["106"],
        rejected_reasons: [{ id: "106", rejected_reason_type: { value: "rejected_by_candidate", source_value: "They rejected us" } }],
        rejected_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
      })
      // a second rejection is refused by Greenhouse: the provider error comes back as 400
      expect(yield* errorTag(rpc(greenhouse.id, { action: "ats_reject_application", path: { id: appId }, body: {} }))).toBe("BadRequest")

      yield* rpc(greenhouse.id, { action: "ats_update_application", path: { id: appId }, body: { source: { id: "3" } } })
      expect((yield* rpc(greenhouse.id, { action: "ats_get_application", path: { id: appId } })).data).toMatchObject({ source: { id: "3" } })

      const jobId = String(app.jobs[0].id)
      const created = yield* rpc(greenhouse.id, {
        action: "ats_create_candidate",
        body: {
          first_name: "Ada",
          last_name: "Lovelace",
          email: "ada.lovelace@example.com",
          phone_number: "+44 20 7946 0000",
          company: "Analytical Engines",
          passthrough: { applications: [{ job_id: Number(jobId) }] }
        }
      })
      const candidateId = (created.data as Json).id as string
      const candidate = yield* rpc(greenhouse.id, { action: "ats_get_candidate", path: { id: candidateId } })
      expect(candidate.data).toMatchObject({
        id: candidateId,
        name: "Ada Lovelace",
        email: "ada.lovelace@example.com",
        phone: "+44 20 7946 0000",
        company: "Analytical Engines",
        application_ids: [expect.any(String)]
      })
      const otherJob = String(((yield* direct(sandbox, "ats", "/jobs")) as Array<Json>).find((job) => String(job.id) !== jobId)!.id)
      const application = yield* rpc(greenhouse.id, {
        action: "ats_create_application",
        body: { candidate_id: candidateId, job_id: otherJob, source: { id: "2" } }
      })
      const applicationId = (application.data as Json).id as string
      expect((yield* rpc(greenhouse.id, { action: "ats_get_application", path: { id: applicationId } })).data).toMatchObject({
        candidate_id: candidateId,
        job_id: otherJob,
        source: { id: "2" },
        application_status: { value: "active" }
      })
      expect(((yield* rpc(greenhouse.id, { action: "ats_get_candidate", path: { id: candidateId } })).data as Json).application_ids)
        .toContain(applicationId)
      const missing = yield* rpc(greenhouse.id, { action: "ats_create_application", body: { job_id: jobId } }).pipe(Effect.flip)
      expect(missing._tag).toBe("UnprocessableEntity")
    }))

  it.effect("greenhouse: lists, gets, downloads and uploads application documents byte for byte", () =>
    Effect.gen(function*() {
      const { greenhouse, rpc, sandbox } = yield* setup
      const raw = (yield* direct(sandbox, "ats", "/applications?per_page=500")) as Array<Json>
      const app = raw.find((candidate) => candidate.attachments.length >= 2)!
      const appId = String(app.id)
      const listed = (yield* rpc(greenhouse.id, { action: "ats_list_application_documents", path: { id: appId } })).data as Array<Json>
      expect(ids(listed)).toEqual(app.attachments.map((attachment: Json) => attachment.filename))
      for (const attachment of app.attachments as Array<Json>) {
        const document = listed.find((candidate) => candidate.id === attachment.filename)!
        expect(document).toMatchObject({ name: attachment.filename, type: { source_value: attachment.type }, remote_url: attachment.url })
        const got = yield* rpc(greenhouse.id, { action: "ats_get_application_document", path: { id: appId, subResourceId: document.id } })
        expect(got.data).toEqual(document)
        const downloaded = yield* rpc(greenhouse.id, { action: "ats_download_application_document", path: { id: appId, subResourceId: document.id } })
        const expected = yield* bytesAt(attachment.url)
        expect(expected.length).toBeGreaterThan(0)
        expect(Buffer.from(downloaded.data as string, "base64").equals(expected)).toBe(true)
      }
      const resumes = yield* rpc(greenhouse.id, { action: "ats_list_application_documents", path: { id: appId }, query: { filter_type: "resume" } })
      expect((resumes.data as Array<Json>).map((document) => document.type.value)).toEqual(["resume"])
      expect(yield* errorTag(rpc(greenhouse.id, {
        action: "ats_get_application_document",
        path: { id: appId, subResourceId: "no-such-file.pdf" }
      }))).toBe("NotFound")

      const content = Buffer.from(Array.from({ length: 300 }, (_, index) => (index * 37) % 256))
      const uploaded = yield* rpc(greenhouse.id, {
        action: "ats_upload_application_document",
        path: { id: appId },
        body: { name: "portfolio-notes", file_format: { value: "txt" }, category: { value: "take_home_test" }, content: content.toString("base64") }
      })
      expect(uploaded.data).toEqual({ id: "portfolio-notes.txt", remote_id: "portfolio-notes.txt" })
      const upload = sandbox.requests("ats").find((request) => request.path === `/v1/applications/${appId}/attachments`)!
      expect(upload.headers["on-behalf-of"]).toBe(String(sandbox.ats.onBehalfOf))
      expect(JSON.parse(upload.body!)).toMatchObject({ filename: "portfolio-notes.txt", type: "take_home_test", content_type: "text/plain" })
      const after = (yield* rpc(greenhouse.id, { action: "ats_list_application_documents", path: { id: appId } })).data as Array<Json>
      expect(after.find((document) => document.id === "portfolio-notes.txt")).toMatchObject({ type: { value: "take_home_test" } })
      const back = yield* rpc(greenhouse.id, { action: "ats_download_application_document", path: { id: appId, subResourceId: "portfolio-notes.txt" } })
      expect(Buffer.from(back.data as string, "base64").equals(content)).toBe(true)
    }))

  it.effect("bamboohr: lists and gets employees, updates name and job title on the current job information row", () =>
    Effect.gen(function*() {
      const { all, bamboohr, rpc, sandbox } = yield* setup
      const directory = (yield* direct(sandbox, "hris", "/employees/directory")).employees as Array<Json>
      const listed = yield* all(bamboohr.id, "hris_list_employees", { page_size: 7 })
      expect(listed.pages).toBe(Math.ceil(directory.length / 7))
      expect(ids(listed.records)).toEqual(directory.map((employee) => String(employee.id)))

      const employee = directory[2]!
      const employeeId = String(employee.id)
      const before = yield* rpc(bamboohr.id, { action: "hris_get_employee", path: { id: employeeId } })
      expect(before.data).toMatchObject({
        id: employeeId,
        first_name: employee.firstName,
        last_name: employee.lastName,
        job_title: employee.jobTitle,
        work_email: employee.workEmail,
        employment_status: { value: "active", source_value: "Active" }
      })
      const rowsBefore = (yield* direct(sandbox, "hris", `/employees/${employeeId}/tables/jobInfo`)) as Array<Json>
      const current = rowsBefore.at(-1)!

      const updated = yield* rpc(bamboohr.id, {
        action: "hris_update_employee",
        path: { id: employeeId },
        body: { first_name: "Grace", work_email: "grace@sandbox-company.example", job_title: "Principal Engineer" }
      })
      expect(updated.data).toEqual({ id: employeeId, remote_id: employeeId })
      const writes = sandbox.requests("hris").filter((request) => request.method === "POST")
      expect(writes.map((request) => [request.path.replace(/^.*\/v1/, ""), JSON.parse(request.body!)])).toEqual([
        [`/employees/${employeeId}`, { firstName: "Grace", workEmail: "grace@sandbox-company.example" }],
        [`/employees/${employeeId}/tables/jobInfo/${current.id}`, { jobTitle: "Principal Engineer" }]
      ])
      const rowsAfter = (yield* direct(sandbox, "hris", `/employees/${employeeId}/tables/jobInfo`)) as Array<Json>
      expect(rowsAfter).toHaveLength(rowsBefore.length)
      expect(rowsAfter.at(-1)).toEqual({ ...current, jobTitle: "Principal Engineer" })
      const fields = yield* direct(sandbox, "hris", `/employees/${employeeId}?fields=firstName,lastName,workEmail,jobTitle`)
      expect(fields).toEqual({
        id: employeeId,
        firstName: "Grace",
        lastName: employee.lastName,
        workEmail: "grace@sandbox-company.example",
        jobTitle: "Principal Engineer"
      })
      const after = yield* rpc(bamboohr.id, { action: "hris_get_employee", path: { id: employeeId } })
      expect(after.data).toMatchObject({ first_name: "Grace", name: `Grace ${employee.lastName}`, job_title: "Principal Engineer" })

      // only a job title: no employee write, just the job information row
      sandbox.clearRequests()
      yield* rpc(bamboohr.id, { action: "hris_update_employee", path: { id: employeeId }, body: { job_title: "Distinguished Engineer" } })
      expect(sandbox.requests("hris").filter((request) => request.method === "POST").map((request) => request.path.replace(/^.*\/v1/, "")))
        .toEqual([`/employees/${employeeId}/tables/jobInfo/${current.id}`])
      expect((yield* direct(sandbox, "hris", `/employees/${employeeId}?fields=jobTitle`)).jobTitle).toBe("Distinguished Engineer")
      expect(yield* errorTag(rpc(bamboohr.id, { action: "hris_get_employee", path: { id: "999999" } }))).toBe("NotFound")
    }))

  it.effect("bamboohr: gets an employee document category", () =>
    Effect.gen(function*() {
      const { bamboohr, rpc, sandbox } = yield* setup
      const categories = (yield* direct(sandbox, "hris", "/employees/0/files/view")).categories as Array<Json>
      expect(categories.length).toBeGreaterThan(1)
      for (const category of categories) {
        const got = yield* rpc(bamboohr.id, { action: "hris_get_employee_document_category", path: { id: String(category.id) } })
        expect(got.data).toEqual({ id: String(category.id), remote_id: String(category.id), name: category.name, active: true })
      }
      expect(yield* errorTag(rpc(bamboohr.id, { action: "hris_get_employee_document_category", path: { id: "424242" } }))).toBe("NotFound")
    }))

  it.effect("talentlms: lists a user's course assignments in pages, with unified statuses", () =>
    Effect.gen(function*() {
      const { all, rpc, sandbox, talentlms } = yield* setup
      const users = (yield* direct(sandbox, "lms", "/users")) as Array<Json>
      let user: Json | undefined
      for (const candidate of users) {
        const detail = yield* direct(sandbox, "lms", `/users/id:${candidate.id}`)
        if (detail.courses.length >= 5 && detail.courses.some((course: Json) => course.completion_status === "incomplete")) {
          user = detail
          break
        }
      }
      expect(user).toBeDefined()
      const courses = user!.courses as Array<Json>
      const listed = yield* all(talentlms.id, "lms_list_user_assignments", { page_size: 2 }, { id: user!.id })
      expect(listed.pages).toBe(Math.ceil(courses.length / 2))
      expect(listed.records).toHaveLength(courses.length)
      expect(new Set(ids(listed.records)).size).toBe(courses.length)
      const statuses = { not_attempted: "pending", incomplete: "in_progress", completed: "completed" } as Record<string, string>
      listed.records.forEach((assignment, index) => {
        const course = courses[index]!
        expect(assignment).toMatchObject({
          id: `${user!.id}-${course.id}`,
          remote_id: `${user!.id}-${course.id}`,
          course_id: String(course.id),
          learning_object_id: String(course.id),
          learning_object_type: { source_value: "course" },
          user_id: String(user!.id),
          remote_user_id: String(user!.id),
          progress: String(course.completion_percentage),
          status: { value: statuses[course.completion_status], source_value: course.completion_status },
          assigned_at: new Date(Number(course.enrolled_on_timestamp) * 1000).toISOString(),
          completed_at: course.completed_on_timestamp === "" ? null : new Date(Number(course.completed_on_timestamp) * 1000).toISOString()
        })
      })
      expect(listed.records.some((assignment) => assignment.status.value === "in_progress")).toBe(true)

      const inProgress = yield* rpc(talentlms.id, { action: "lms_list_user_assignments", path: { id: user!.id }, query: { filter_status: "in_progress" } })
      expect(ids(inProgress.data as Array<Json>)).toEqual(
        courses.filter((course) => course.completion_status === "incomplete").map((course) => `${user!.id}-${course.id}`)
      )
      const whole = yield* rpc(talentlms.id, { action: "lms_list_user_assignments", path: { id: user!.id } })
      expect(whole.data).toEqual(listed.records)
      expect(whole.next).toBeUndefined()
      expect(yield* errorTag(rpc(talentlms.id, { action: "lms_list_user_assignments", path: { id: "987654" } }))).toBe("NotFound")
    }))

  it.effect("talentlms 1.3.0: users, courses and categories in pages and by id, as the sandbox has them", () =>
    Effect.gen(function*() {
      const { all, rpc, sandbox, talentlms13 } = yield* setup
      const users = (yield* direct(sandbox, "lms", "/users")) as Array<Json>
      const listedUsers = yield* all(talentlms13.id, "lms_list_users", { page_size: 7 })
      expect(listedUsers.pages).toBe(Math.ceil(users.length / 7))
      expect(listedUsers.records).toEqual(users.map((user) => ({
        id: user.id,
        remote_id: user.id,
        name: `${user.first_name} ${user.last_name}`,
        email: user.email,
        active: user.status === "active",
        updated_at: new Date(Number(user.last_updated_timestamp) * 1000).toISOString()
      })))
      expect(listedUsers.records.some((user) => user.active === false)).toBe(true)
      fitsReference("lms_list_users", listedUsers.records)
      const second = yield* rpc(talentlms13.id, { action: "lms_list_users", query: { page_size: 7, page: 2 } })
      expect(second.data).toEqual(listedUsers.records.slice(7, 14))
      const user = yield* rpc(talentlms13.id, { action: "lms_get_user", path: { id: users[3]!.id } })
      expect(user.data).toEqual(listedUsers.records[3])
      fitsReference("lms_get_user", user.data)
      expect(yield* errorTag(rpc(talentlms13.id, { action: "lms_get_user", path: { id: "987654" } }))).toBe("NotFound")

      const courses = (yield* direct(sandbox, "lms", "/courses")) as Array<Json>
      const listedCourses = yield* all(talentlms13.id, "lms_list_courses", { page_size: 6 })
      expect(ids(listedCourses.records)).toEqual(courses.map((course) => course.id))
      listedCourses.records.forEach((record, index) => {
        const course = courses[index]!
        expect(record).toEqual({
          id: course.id,
          remote_id: course.id,
          external_reference: course.code,
          title: course.name,
          description: course.description,
          active: course.status === "active",
          cover_url: course.big_avatar,
          categories: [{ id: course.category_id, remote_id: course.category_id }]
        })
      })
      const detail = yield* direct(sandbox, "lms", `/courses/id:${courses[0]!.id}`)
      const course = yield* rpc(talentlms13.id, { action: "lms_get_course", path: { id: courses[0]!.id } })
      const units = (detail.units as Array<Json>).map((unit) => unit.id)
      expect(units.length).toBeGreaterThan(2)
      expect(course.data).toEqual({ ...listedCourses.records[0], content_ids: units, remote_content_ids: units })
      fitsReference("lms_list_courses", listedCourses.records)
      fitsReference("lms_get_course", course.data)
      expect(yield* errorTag(rpc(talentlms13.id, { action: "lms_get_course", path: { id: "987654" } }))).toBe("NotFound")

      const categories = (yield* direct(sandbox, "lms", "/categories")) as Array<Json>
      const listedCategories = yield* all(talentlms13.id, "lms_list_categories", { page_size: 2 })
      expect(listedCategories.records).toEqual(categories.map((category) => ({ id: category.id, remote_id: category.id, name: category.name })))
      const category = yield* rpc(talentlms13.id, { action: "lms_get_category", path: { id: categories[1]!.id } })
      expect(category.data).toEqual(listedCategories.records[1])
      fitsReference("lms_list_categories", listedCategories.records)
      fitsReference("lms_get_category", category.data)
      expect(yield* errorTag(rpc(talentlms13.id, { action: "lms_get_category", path: { id: "987654" } }))).toBe("NotFound")
    }))

  it.effect("talentlms 1.3.0: assignments and completions by id, a user's completions, and enrolling a user", () =>
    Effect.gen(function*() {
      const { all, rpc, sandbox, talentlms13 } = yield* setup
      const users = (yield* direct(sandbox, "lms", "/users")) as Array<Json>
      let user: Json | undefined
      for (const candidate of users) {
        const detail = yield* direct(sandbox, "lms", `/users/id:${candidate.id}`)
        const statuses = (detail.courses as Array<Json>).map((course) => course.completion_status)
        if (statuses.includes("completed") && statuses.includes("incomplete")) {
          user = detail
          break
        }
      }
      expect(user).toBeDefined()
      const courses = user!.courses as Array<Json>
      const done = courses.filter((course) => course.completion_status === "completed")
      const started = courses.find((course) => course.completion_status === "incomplete")!

      // an assignment by its id, and the same one among the user's
      const assignment = yield* rpc(talentlms13.id, { action: "lms_get_assignment", path: { id: `${user!.id}-${started.id}` } })
      expect(assignment.data).toMatchObject({
        id: `${user!.id}-${started.id}`,
        course_id: started.id,
        learning_object_id: started.id,
        learning_object_type: { value: "course", source_value: "course" },
        user_id: user!.id,
        progress: Number(started.completion_percentage),
        status: { value: "in_progress", source_value: "incomplete" },
        assigned_at: new Date(Number(started.enrolled_on_timestamp) * 1000).toISOString(),
        completed_at: null
      })
      fitsReference("lms_get_assignment", assignment.data)
      const listed = yield* rpc(talentlms13.id, { action: "lms_list_user_assignments", path: { id: user!.id } })
      const fromList = (listed.data as Array<Json>).find((record) => record.id === `${user!.id}-${started.id}`)!
      for (const subResourceId of [`${user!.id}-${started.id}`, started.id]) {
        const one = yield* rpc(talentlms13.id, { action: "lms_get_user_assignment", path: { id: user!.id, subResourceId } })
        expect(one.data).toEqual({
          ...fromList,
          learning_object_type: { value: "course", source_value: "course" },
          progress: Number(fromList.progress)
        })
        fitsReference("lms_get_user_assignment", one.data)
      }
      const other = courses.length === 20 ? undefined : ((yield* direct(sandbox, "lms", "/courses")) as Array<Json>)
        .find((course) => !courses.some((enrolled) => enrolled.id === course.id))
      expect(other).toBeDefined()
      expect(yield* errorTag(rpc(talentlms13.id, { action: "lms_get_assignment", path: { id: `${user!.id}-${other!.id}` } }))).toBe("NotFound")
      expect(yield* errorTag(rpc(talentlms13.id, { action: "lms_get_user_assignment", path: { id: user!.id, subResourceId: other!.id } })))
        .toBe("NotFound")

      // completions: the completed enrollments, with their certificates
      const completions = yield* all(talentlms13.id, "lms_list_user_completions", { page_size: 1 }, { id: user!.id })
      expect(ids(completions.records)).toEqual(done.map((course) => `${user!.id}-${course.id}`))
      const certificates = user!.certifications as Array<Json>
      completions.records.forEach((completion, index) => {
        const course = done[index]!
        expect(completion).toMatchObject({
          course_id: course.id,
          user_id: user!.id,
          learning_object_type: { value: "course" },
          completed_at: new Date(Number(course.completed_on_timestamp) * 1000).toISOString(),
          time_spent: `PT${course.total_time_seconds}S`,
          certificate_url: certificates.find((certificate) => certificate.course_id === course.id)?.download_url ?? null
        })
      })
      const completion = yield* rpc(talentlms13.id, { action: "lms_get_completion", path: { id: `${user!.id}-${done[0]!.id}` } })
      const { certificate_url: _certificate, ...withoutCertificate } = completions.records[0]!
      expect(completion.data).toEqual(withoutCertificate)
      fitsReference("lms_list_user_completions", completions.records)
      fitsReference("lms_get_completion", completion.data)
      expect(yield* errorTag(rpc(talentlms13.id, { action: "lms_get_completion", path: { id: `${user!.id}-${started.id}` } }))).toBe("NotFound")

      // enrolling: by course code, or by course id; twice is a conflict, an unknown code 422
      sandbox.clearRequests()
      const created = yield* rpc(talentlms13.id, {
        action: "lms_create_user_assignment",
        path: { id: user!.id },
        body: { learning_object_external_reference: other!.code }
      })
      expect(created.data).toEqual({ id: `${user!.id}-${other!.id}`, remote_id: `${user!.id}-${other!.id}` })
      const enroll = sandbox.requests("lms").find((request) => request.method === "POST")!
      expect(enroll.path).toBe("/api/v1/addusertocourse")
      expect(enroll.headers["content-type"]).toContain("application/x-www-form-urlencoded")
      expect(Object.fromEntries(new URLSearchParams(enroll.body!))).toEqual({ user_id: String(user!.id), course_id: String(other!.id) })
      const enrolled = yield* rpc(talentlms13.id, { action: "lms_get_assignment", path: { id: `${user!.id}-${other!.id}` } })
      expect(enrolled.data).toMatchObject({ status: { value: "pending", source_value: "not_attempted" }, progress: 0 })
      expect(yield* errorTag(rpc(talentlms13.id, {
        action: "lms_create_user_assignment",
        path: { id: user!.id },
        body: { learning_object_external_reference: "ignored", learning_object_id: other!.id }
      }))).toBe("Conflict")
      expect(yield* errorTag(rpc(talentlms13.id, {
        action: "lms_create_user_assignment",
        path: { id: user!.id },
        body: { learning_object_external_reference: "NO-SUCH-CODE" }
      }))).toBe("UnprocessableEntity")
      expect(yield* errorTag(rpc(talentlms13.id, { action: "lms_create_user_assignment", path: { id: user!.id }, body: {} }))).toBe("BadRequest")
    }))
})
