import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import type { Sandbox } from "@switchyard/sandbox"
import { Effect, Layer } from "effect"
import { freshProject } from "./support/Fixtures.js"
import { type Json, SandboxLive, SandboxProviders, sandboxBambooAccount, sandboxGreenhouseAccount, applicationWithNote, direct } from "./support/SandboxLayer.js"
import { TestServer } from "./support/TestServer.js"
import { expectErrorBody, send, withKey } from "./support/Wire.js"

/*
 * Every unified operation the built-in greenhouse and bamboohr connectors implement, called
 * through the derived client: the documented response shapes (lists, gets, writes, creates),
 * the assessment result recorded as a candidate note, and a 400 for a filter the operation refuses.
 */

const Server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive(13))


const setup = Effect.gen(function*() {
  const sandbox = yield* SandboxProviders
  sandbox.reset()
  sandbox.clearRequests()
  const project = yield* freshProject
  const ats = yield* project.client.accounts.create_account({
    payload: sandboxGreenhouseAccount(sandbox)
  })
  const hris = yield* project.client.accounts.create_account({
    payload: sandboxBambooAccount(sandbox)
  })
  sandbox.faults.clear()
  const client = project.client
  const atsHeaders = { "x-account-id": ats.id }
  const hrisHeaders = { "x-account-id": hris.id }
  return { sandbox, project, client, ats, hris, atsHeaders, hrisHeaders }
})


const ids = (records: ReadonlyArray<Json>) => records.map((record) => record.id as string)

const expectList = (page: Json) => {
  expect(Array.isArray(page.data)).toBe(true)
  expect(page).toHaveProperty("next")
  expect(page.raw).toBeNull()
}

const expectGet = (result: Json, id: string) => {
  expect(result.data).toMatchObject({ id })
  expect(result.raw).toBeNull()
}

const expectWrite = (result: Json) => {
  expect(result).toEqual({ statusCode: 200, message: expect.any(String), timestamp: expect.any(String) })
  expect(Number.isNaN(Date.parse(result.timestamp))).toBe(false)
}

/** A move or reject answer: the write response plus the affected record's identifiers. */
const expectRecordWrite = (result: Json, id: string) => {
  expect(result).toEqual({ statusCode: 200, message: expect.any(String), timestamp: expect.any(String), data: { id, remote_id: id } })
  expect(Number.isNaN(Date.parse(result.timestamp))).toBe(false)
}

const expectCreate = (result: Json) => {
  expect(result).toMatchObject({ statusCode: 201, message: expect.any(String), timestamp: expect.any(String) })
  expect(Number.isNaN(Date.parse(result.timestamp))).toBe(false)
  expect(result.data).toEqual({ id: expect.any(String), remote_id: expect.any(String) })
}

/** An active, non-prospect application with a current stage, and another stage of its job. */
const activeApplication = (sandbox: Sandbox) =>
  Effect.gen(function*() {
    const raw = (yield* direct(sandbox, "ats", "/applications?per_page=500&status=active")) as Array<Json>
    const app = raw.find((candidate) => candidate.current_stage !== null && !candidate.prospect)!
    const stages = (yield* direct(sandbox, "ats", `/jobs/${app.jobs[0].id}/stages`)) as Array<Json>
    const target = String(stages.find((stage) => stage.id !== app.current_stage.id)!.id)
    return { app, appId: String(app.id), jobId: String(app.jobs[0].id), target }
  })

layer(Server, { excludeTestServices: true })("unified operations through the derived client", (it) => {
  it.effect("ats_list_applications_offers and ats_get_application_offer", () =>
    Effect.gen(function*() {
      const { atsHeaders, client, sandbox } = yield* setup
      const offers = (yield* direct(sandbox, "ats", "/offers?per_page=500")) as Array<Json>
      const appId = String(offers[0]!.application_id)
      const expected = offers.filter((offer) => String(offer.application_id) === appId).map((offer) => String(offer.id))
      const page: Json = yield* client.unified_ats.ats_list_applications_offers({
        headers: atsHeaders,
        path: { id: appId },
        urlParams: { page_size: 100 }
      })
      expectList(page)
      expect(page.next).toBeNull()
      expect(ids(page.data).sort()).toEqual(expected.sort())
      expect(page.data[0]).toMatchObject({ application_id: appId })
      const one: Json = yield* client.unified_ats.ats_get_application_offer({
        headers: atsHeaders,
        path: { id: appId, subResourceId: page.data[0].id },
        urlParams: {}
      })
      expectGet(one, page.data[0].id)
      expect(one.data).toEqual(page.data[0])
    }))

  it.effect("ats_list_application_scorecards and ats_get_application_scorecard", () =>
    Effect.gen(function*() {
      const { atsHeaders, client, sandbox } = yield* setup
      const scorecards = (yield* direct(sandbox, "ats", "/scorecards?per_page=500")) as Array<Json>
      const appId = String(scorecards[0]!.application_id)
      const page: Json = yield* client.unified_ats.ats_list_application_scorecards({
        headers: atsHeaders,
        path: { id: appId },
        urlParams: {}
      })
      expectList(page)
      expect(ids(page.data).sort()).toEqual(
        scorecards.filter((card) => String(card.application_id) === appId).map((card) => String(card.id)).sort()
      )
      const one: Json = yield* client.unified_ats.ats_get_application_scorecard({
        headers: atsHeaders,
        path: { id: appId, subResourceId: page.data[0].id },
        urlParams: {}
      })
      expectGet(one, page.data[0].id)
      expect(one.data).toEqual(page.data[0])
    }))

  it.effect("ats_list_application_changes, filtered by change_type", () =>
    Effect.gen(function*() {
      const { atsHeaders, client, sandbox } = yield* setup
      const interviews = (yield* direct(sandbox, "ats", "/scheduled_interviews?per_page=500")) as Array<Json>
      const appId = String(interviews[0]!.application_id)
      const rawChanges = (yield* direct(sandbox, "ats", `/applications/${appId}/changes?per_page=500`)) as Array<Json>
      const all: Json = yield* client.unified_ats.ats_list_application_changes({
        headers: atsHeaders,
        path: { id: appId },
        urlParams: { page_size: 100 }
      })
      expectList(all)
      expect(all.data.map((change: Json) => change.event_id)).toEqual(rawChanges.map((change) => String(change.id)))
      const stage: Json = yield* client.unified_ats.ats_list_application_changes({
        headers: atsHeaders,
        path: { id: appId },
        urlParams: { page_size: 100, filter: { change_type: "interview_stage" } }
      })
      expectList(stage)
      expect(stage.data.map((change: Json) => change.event_id)).toEqual(
        rawChanges.filter((change) => change.type === "stage_change").map((change) => String(change.id))
      )
      for (const change of stage.data) expect(change.change_type.value).toBe("interview_stage")
    }))

  it.effect("ats_get_application_note and ats_update_application_note", () =>
    Effect.gen(function*() {
      const { atsHeaders, client, sandbox } = yield* setup
      const { applicationId: noteApp, note: rawNote } = yield* applicationWithNote(sandbox)
      const noteId = String(rawNote.id)
      const note: Json = yield* client.unified_ats.ats_get_application_note({
        headers: atsHeaders,
        path: { id: noteApp, subResourceId: noteId },
        urlParams: {}
      })
      expectGet(note, noteId)
      expect(note.data).toMatchObject({ content: [{ body: rawNote.body }] })
      const written: Json = yield* client.unified_ats.ats_update_application_note({
        headers: atsHeaders,
        path: { id: noteApp, subResourceId: noteId },
        payload: { content: [{ body: "Edited through the unified API" }], visibility: { value: "public" } } as any
      })
      expectWrite(written)
      const edited: Json = yield* client.unified_ats.ats_get_application_note({
        headers: atsHeaders,
        path: { id: noteApp, subResourceId: noteId },
        urlParams: {}
      })
      expect(edited.data).toMatchObject({ content: [{ body: "Edited through the unified API" }], visibility: { value: "public" } })
    }))

  it.effect("ats_list_applications_scheduled_interviews and ats_get_application_scheduled_interview", () =>
    Effect.gen(function*() {
      const { atsHeaders, client, sandbox } = yield* setup
      const interviews = (yield* direct(sandbox, "ats", "/scheduled_interviews?per_page=500")) as Array<Json>
      const appId = String(interviews[0]!.application_id)
      const page: Json = yield* client.unified_ats.ats_list_applications_scheduled_interviews({
        headers: atsHeaders,
        path: { id: appId },
        urlParams: { page_size: 100 }
      })
      expectList(page)
      expect(ids(page.data).sort()).toEqual(
        interviews.filter((interview) => String(interview.application_id) === appId).map((interview) => String(interview.id)).sort()
      )
      const one: Json = yield* client.unified_ats.ats_get_application_scheduled_interview({
        headers: atsHeaders,
        path: { id: appId, subResourceId: page.data[0].id },
        urlParams: {}
      })
      expectGet(one, page.data[0].id)
      expect(one.data).toEqual(page.data[0])
    }))

  it.effect("ats_list_application_documents and ats_get_application_document", () =>
    Effect.gen(function*() {
      const { atsHeaders, client, sandbox } = yield* setup
      const raw = (yield* direct(sandbox, "ats", "/applications?per_page=500")) as Array<Json>
      const app = raw.find((candidate) => candidate.attachments.length >= 2)!
      const appId = String(app.id)
      const page: Json = yield* client.unified_ats.ats_list_application_documents({
        headers: atsHeaders,
        path: { id: appId },
        urlParams: {}
      })
      expectList(page)
      expect(ids(page.data)).toEqual(app.attachments.map((attachment: Json) => attachment.filename))
      const one: Json = yield* client.unified_ats.ats_get_application_document({
        headers: atsHeaders,
        path: { id: appId, subResourceId: page.data[0].id },
        urlParams: {}
      })
      expectGet(one, page.data[0].id)
      expect(one.data).toEqual(page.data[0])
    }))

  it.effect("ats_list_candidates (filter email), ats_get_candidate and ats_create_candidate", () =>
    Effect.gen(function*() {
      const { atsHeaders, client, sandbox } = yield* setup
      const page: Json = yield* client.unified_ats.ats_list_candidates({
        headers: atsHeaders,
        urlParams: { page_size: 5 }
      })
      expectList(page)
      expect(page.data).toHaveLength(5)
      expect(typeof page.next).toBe("string")
      const candidate = page.data[3]
      const byEmail: Json = yield* client.unified_ats.ats_list_candidates({
        headers: atsHeaders,
        urlParams: { filter: { email: candidate.email } }
      })
      expectList(byEmail)
      expect(ids(byEmail.data)).toEqual([candidate.id])
      const one: Json = yield* client.unified_ats.ats_get_candidate({
        headers: atsHeaders,
        path: { id: candidate.id },
        urlParams: {}
      })
      expectGet(one, candidate.id)
      expect(one.data).toEqual(candidate)

      const { jobId } = yield* activeApplication(sandbox)
      const created: Json = yield* client.unified_ats.ats_create_candidate({
        headers: atsHeaders,
        payload: {
          first_name: "Ada",
          last_name: "Lovelace",
          email: "ada.unified@example.com",
          company: "Analytical Engines",
          passthrough: { applications: [{ job_id: Number(jobId) }] }
        } as any
      })
      expectCreate(created)
      const got: Json = yield* client.unified_ats.ats_get_candidate({
        headers: atsHeaders,
        path: { id: created.data.id },
        urlParams: {}
      })
      expect(got.data).toMatchObject({ id: created.data.id, name: "Ada Lovelace", email: "ada.unified@example.com" })
    }))

  it.effect("ats_create_application", () =>
    Effect.gen(function*() {
      const { atsHeaders, client, sandbox } = yield* setup
      const { jobId } = yield* activeApplication(sandbox)
      const candidate: Json = yield* client.unified_ats.ats_create_candidate({
        headers: atsHeaders,
        payload: {
          first_name: "Grace",
          last_name: "Hopper",
          email: "grace.unified@example.com",
          passthrough: { applications: [{ job_id: Number(jobId) }] }
        } as any
      })
      const candidateId = candidate.data.id as string
      const otherJob = String(((yield* direct(sandbox, "ats", "/jobs")) as Array<Json>).find((job) => String(job.id) !== jobId)!.id)
      const created: Json = yield* client.unified_ats.ats_create_application({
        headers: atsHeaders,
        payload: { candidate_id: candidateId, job_id: otherJob, source: { id: "2" } } as any
      })
      expectCreate(created)
      const got: Json = yield* client.unified_ats.ats_get_application({
        headers: atsHeaders,
        path: { id: created.data.id },
        urlParams: {}
      })
      expect(got.data).toMatchObject({ id: created.data.id, candidate_id: candidateId, job_id: otherJob })
    }))

  it.effect("ats_update_application", () =>
    Effect.gen(function*() {
      const { atsHeaders, client, sandbox } = yield* setup
      const { appId } = yield* activeApplication(sandbox)
      const written: Json = yield* client.unified_ats.ats_update_application({
        headers: atsHeaders,
        path: { id: appId },
        payload: { source: { id: "3" } } as any
      })
      expectWrite(written)
      const got: Json = yield* client.unified_ats.ats_get_application({ headers: atsHeaders, path: { id: appId }, urlParams: {} })
      expect(got.data).toMatchObject({ source: { id: "3" } })
    }))

  it.effect("ats_move_application", () =>
    Effect.gen(function*() {
      const { atsHeaders, client, sandbox } = yield* setup
      const { appId, target } = yield* activeApplication(sandbox)
      const written: Json = yield* client.unified_ats.ats_move_application({
        headers: atsHeaders,
        path: { id: appId },
        payload: { interview_stage_id: target } as any
      })
      expectRecordWrite(written, appId)
      expect((yield* direct(sandbox, "ats", `/applications/${appId}`)).current_stage.id).toBe(Number(target))
      const got: Json = yield* client.unified_ats.ats_get_application({ headers: atsHeaders, path: { id: appId }, urlParams: {} })
      expect(got.data).toMatchObject({ interview_stage_id: target })
    }))

  it.effect("ats_reject_application", () =>
    Effect.gen(function*() {
      const { atsHeaders, client, sandbox } = yield* setup
      const { appId } = yield* activeApplication(sandbox)
      const written: Json = yield* client.unified_ats.ats_reject_application({
        headers: atsHeaders,
        path: { id: appId },
        payload: { rejected_reason_id: "106" } as any
      })
      expectRecordWrite(written, appId)
      expect((yield* direct(sandbox, "ats", `/applications/${appId}`)).status).toBe("rejected")
      const got: Json = yield* client.unified_ats.ats_get_application({ headers: atsHeaders, path: { id: appId }, urlParams: {} })
      expect(got.data).toMatchObject({ application_status: { value: "rejected" }, rejected_reason_ids: ["106"] })
    }))

  it.effect("hris_get_employee_document_category", () =>
    Effect.gen(function*() {
      const { client, hrisHeaders, sandbox } = yield* setup
      const categories = (yield* direct(sandbox, "hris", "/employees/0/files/view")).categories as Array<Json>
      expect(categories.length).toBeGreaterThan(0)
      const category = categories[0]!
      const one: Json = yield* client.unified_hris.hris_get_employee_document_category({
        headers: hrisHeaders,
        path: { id: String(category.id) },
        urlParams: {}
      })
      expectGet(one, String(category.id))
      expect(one.data).toMatchObject({ id: String(category.id), name: category.name })
    }))

  it.effect("ats_update_assessments_result records the result as a note on the candidate's activity feed", () =>
    Effect.gen(function*() {
      const { atsHeaders, client, sandbox } = yield* setup
      const candidateId = String(((yield* direct(sandbox, "ats", "/candidates?per_page=3")) as Array<Json>)[2]!.id)
      const written: Json = yield* client.unified_ats.ats_update_assessments_result({
        headers: atsHeaders,
        path: { id: "order-77" },
        payload: {
          candidate: { id: candidateId },
          result: { value: "passed", source_value: "PASS" },
          score: { label: "Overall", value: "87", min: "0", max: "100" },
          summary: "Strong on algorithms",
          result_url: "https://assess.example.com/orders/77",
          submission_date: "2026-03-04T10:00:00.000Z",
          attachments: [
            { url: "https://assess.example.com/77/report.pdf", content_type: { value: "application/pdf" } },
            { url: "https://assess.example.com/77/code.zip" }
          ]
        } as any
      })
      expectWrite(written)
      const notes = ((yield* direct(sandbox, "ats", `/candidates/${candidateId}/activity_feed`)).notes as Array<Json>)
        .filter((note) => note.body.includes("order-77"))
      expect(notes).toHaveLength(1)
      expect(notes[0]).toMatchObject({
        application_id: null,
        visibility: "admin_only",
        user: { id: sandbox.ats.onBehalfOf },
        body: [
          "Assessment result for order order-77",
          "Result: passed / PASS",
          "Score: Overall 87 (0–100)",
          "Summary: Strong on algorithms",
          "Result URL: https://assess.example.com/orders/77",
          "Submitted: 2026-03-04T10:00:00.000Z",
          "Attachments: https://assess.example.com/77/report.pdf, https://assess.example.com/77/code.zip"
        ].join("\n")
      })

      // only what is given is written
      yield* client.unified_ats.ats_update_assessments_result({
        headers: atsHeaders,
        path: { id: "order-78" },
        payload: { candidate: { id: candidateId }, result: { value: "failed" } } as any
      })
      const short = ((yield* direct(sandbox, "ats", `/candidates/${candidateId}/activity_feed`)).notes as Array<Json>)
        .filter((note) => note.body.includes("order-78"))
      expect(short.map((note) => note.body)).toEqual(["Assessment result for order order-78\nResult: failed"])
    }))

  it.effect("ats_update_assessments_result needs body.candidate.id: 400 before the provider is called", () =>
    Effect.gen(function*() {
      const { atsHeaders, client, sandbox } = yield* setup
      for (const payload of [{ result: { value: "passed" } }, { candidate: { profile_url: "https://x.example.com" } }]) {
        sandbox.clearRequests()
        const error = yield* client.unified_ats.ats_update_assessments_result({
          headers: atsHeaders,
          path: { id: "order-1" },
          payload: payload as any
        }).pipe(Effect.flip)
        expect(error).toMatchObject({ _tag: "BadRequest", statusCode: 400 })
        expect(error.message).toMatch(/body\.candidate(\.id)? is required/)
        expect(sandbox.requests("ats")).toEqual([])
      }
    }))

  it.effect("ats_update_assessments_result for an unknown candidate is a 404 naming the candidate", () =>
    Effect.gen(function*() {
      const { atsHeaders, client, sandbox } = yield* setup
      sandbox.clearRequests()
      const error = yield* client.unified_ats.ats_update_assessments_result({
        headers: atsHeaders,
        path: { id: "order-1" },
        payload: { candidate: { id: "999999999" }, result: { value: "passed" } } as any
      }).pipe(Effect.flip)
      expect(error).toMatchObject({ _tag: "NotFound", statusCode: 404, message: "Candidate not found" })
      expect(sandbox.requests("ats").map((request) => `${request.method} ${request.path}`)).toEqual([
        "POST /v1/candidates/999999999/activity_feed/notes"
      ])
    }))

  it.effect("a filter key the operation does not accept is a 400", () =>
    Effect.gen(function*() {
      const { ats, client, project, sandbox } = yield* setup
      const offers = (yield* direct(sandbox, "ats", "/offers?per_page=500")) as Array<Json>
      const appId = String(offers[0]!.application_id)
      // the typed client only sends declared filters; the raw request path can send any key
      const offersBad = yield* send(
        HttpClientRequest.get(`/unified/ats/applications/${appId}/offers?filter[change_type]=interview_stage`).pipe(
          HttpClientRequest.setHeader("x-account-id", ats.id),
          withKey(project.key)
        )
      )
      expectErrorBody(offersBad, 400)
      const candidatesBad = yield* send(
        HttpClientRequest.get("/unified/ats/candidates?filter[job_id]=1").pipe(
          HttpClientRequest.setHeader("x-account-id", ats.id),
          withKey(project.key)
        )
      )
      expectErrorBody(candidatesBad, 400)
      // the same operations accept their own filters
      const ok: Json = yield* client.unified_ats.ats_list_applications_offers({
        headers: { "x-account-id": ats.id },
        path: { id: appId },
        urlParams: { filter: { updated_after: "2000-01-01T00:00:00Z" } }
      })
      expectList(ok)
    }))
})
