import { HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import {
  AtsApplicationResult,
  AtsDocument,
  AtsInterviewStage,
  AtsJobPosting,
  AtsRejectedReason,
  AtsScorecard,
  AtsUser
} from "@switchyard/api"
import { Effect, Layer, Schema } from "effect"
import { leverAccount, leverAll, leverApi, leverConnector } from "./support/LeverAccount.js"
import { type Json, SandboxLive } from "./support/SandboxLayer.js"
import { sdkCalls, stackOneSdkClient } from "./support/StackOneSdkClient.js"
import { TestServer } from "./support/TestServer.js"
import { walkPages } from "./support/walkPages.js"

/*
 * lever@1.1.0 against the sandbox's Lever look-alike: every operation it adds, through the
 * derived client (`client.unified_ats.<operation>`) and, for the reads and the move, through the
 * real StackOne SDK too (whose response validation must accept each answer). Records are compared
 * with what the look-alike itself answers; writes are seen on later reads; missing ids answer 404.
 */

const Server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive(29))

const lever = leverConnector("1.1.0")

const MISSING = "00000000-0000-4000-8000-000000000000"

const iso = (ms: number) => new Date(ms).toISOString()
const ids = (records: ReadonlyArray<Json>) => records.map((record) => record.id as string)
const strict = <A, I>(schema: Schema.Schema<A, I>) => Schema.decodeUnknownSync(schema as Schema.Schema<A, I, never>, { onExcessProperty: "error" })
const errorTag = <A>(effect: Effect.Effect<A, { readonly _tag: string }>) => Effect.map(Effect.flip(effect), (error) => error._tag)

const setup = Effect.gen(function*() {
  const linked = yield* leverAccount(lever)
  const address = (yield* HttpServer.HttpServer).address
  const origin = address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : ""
  const sdk = stackOneSdkClient(origin, linked.project.key)
  const { call: viaSdk, write: sdkWrite } = sdkCalls(sdk, linked.account.id)
  const api = (path: string) => leverApi(linked.sandbox, linked.tokens.access_token, path)
  const all = (path: string) => leverAll(linked.sandbox, linked.tokens.access_token, path)
  return { ...linked, origin, viaSdk, sdkWrite, api, all }
})

layer(Server, { excludeTestServices: true })("lever@1.1.0 over the sandbox's Lever look-alike", (it) => {
  it.effect("stages, users, rejected reasons, job postings and jobs: listed page by page, got by id, 404 for a missing id", () =>
    Effect.gen(function*() {
      const { client, headers, all, api, viaSdk } = yield* setup

      const stages = yield* all("/stages")
      for (const list of [client.unified_ats.ats_list_interview_stages, client.unified_ats.ats_list_application_stages]) {
        const { records, pages } = yield* walkPages((next) => list({ headers, urlParams: { page_size: 3, ...(next ? { next } : {}) } }))
        expect(pages).toBe(Math.ceil(stages.length / 3))
        expect(records).toEqual(stages.map((s) => ({ id: s.id, remote_id: s.id, name: s.text })))
        for (const record of records) strict(AtsInterviewStage)(record)
      }
      const offer = stages.find((s) => s.id === "offer")!
      expect((yield* client.unified_ats.ats_get_interview_stage({ headers, path: { id: offer.id }, urlParams: {} })).data).toEqual({ id: "offer", remote_id: "offer", name: offer.text })
      expect((yield* client.unified_ats.ats_get_application_stage({ headers, path: { id: offer.id }, urlParams: {} })).data).toMatchObject({ name: offer.text })
      expect(yield* errorTag(client.unified_ats.ats_get_interview_stage({ headers, path: { id: "no-such-stage" }, urlParams: {} }))).toBe("NotFound")

      const active = yield* all("/users")
      const everyone = yield* all("/users?includeDeactivated=true")
      expect(active.length).toBeLessThan(everyone.length)
      const users = yield* walkPages((next) => client.unified_ats.ats_list_users({ headers, urlParams: { page_size: 2, ...(next ? { next } : {}) } }))
      expect(ids(users.records)).toEqual(ids(active))
      const first = active[0]!
      expect(users.records[0]).toEqual({
        id: first.id,
        remote_id: first.id,
        name: first.name,
        first_name: first.name.split(" ")[0],
        last_name: first.name.split(" ").slice(1).join(" "),
        email: first.email
      })
      for (const record of users.records) strict(AtsUser)(record)
      const gone = everyone.find((u) => u.deactivatedAt !== null)!
      expect((yield* client.unified_ats.ats_get_user({ headers, path: { id: gone.id }, urlParams: {} })).data).toMatchObject({ id: gone.id, email: gone.email })
      expect(yield* errorTag(client.unified_ats.ats_get_user({ headers, path: { id: MISSING }, urlParams: {} }))).toBe("NotFound")

      const reasons = (yield* api("/archive_reasons")).data as Array<Json>
      const rejections = reasons.filter((r) => r.type === "non-hired")
      const rejected = yield* client.unified_ats.ats_list_rejected_reasons({ headers, urlParams: {} })
      expect(rejected.data).toEqual(rejections.map((r) => ({ id: r.id, remote_id: r.id, label: r.text, type: "non-hired" })))
      for (const record of rejected.data) strict(AtsRejectedReason)(record)
      expect((yield* client.unified_ats.ats_get_rejected_reason({ headers, path: { id: rejections[0]!.id }, urlParams: {} })).data).toEqual(rejected.data[0])
      const hired = reasons.find((r) => r.type === "hired")!
      expect(yield* errorTag(client.unified_ats.ats_get_rejected_reason({ headers, path: { id: hired.id }, urlParams: {} }))).toBe("NotFound")
      expect(yield* errorTag(client.unified_ats.ats_get_rejected_reason({ headers, path: { id: MISSING }, urlParams: {} }))).toBe("NotFound")

      const postings = yield* all("/postings")
      const jobPostings = yield* walkPages((next) => client.unified_ats.ats_list_job_postings({ headers, urlParams: { page_size: 4, ...(next ? { next } : {}) } }))
      expect(jobPostings.pages).toBe(Math.ceil(postings.length / 4))
      expect(ids(jobPostings.records)).toEqual(ids(postings))
      for (const record of jobPostings.records) strict(AtsJobPosting)(record)
      const posting = postings[0]!
      const live = { published: "live", internal: "internal", closed: "closed" } as Record<string, string>
      expect(jobPostings.records[0]).toEqual({
        id: posting.id,
        remote_id: posting.id,
        title: posting.text,
        job_id: posting.id,
        remote_job_id: posting.id,
        status: { value: live[posting.state], source_value: posting.state },
        internal: posting.state === "internal" ? "true" : "false",
        locations: [{ name: posting.categories.location }],
        content: { plain: posting.content.description, html: posting.content.descriptionHtml },
        employment_contract_type: {
          value: ({ "Full-time": "full_time", "Part-time": "part_time" } as Record<string, string>)[posting.categories.commitment] ?? "unmapped_value",
          source_value: posting.categories.commitment
        },
        external_url: posting.urls.show,
        external_apply_url: posting.urls.apply,
        created_at: iso(posting.createdAt),
        updated_at: iso(posting.updatedAt)
      })
      expect((yield* client.unified_ats.ats_get_job_posting({ headers, path: { id: posting.id }, urlParams: {} })).data).toEqual(jobPostings.records[0])
      expect(yield* errorTag(client.unified_ats.ats_get_job_posting({ headers, path: { id: MISSING }, urlParams: {} }))).toBe("NotFound")

      // jobs have their unified endpoints now
      const jobs = yield* walkPages((next) => client.unified_ats.ats_list_jobs({ headers, urlParams: { page_size: 5, ...(next ? { next } : {}) } }))
      expect(ids(jobs.records)).toEqual(ids(postings))
      expect((yield* client.unified_ats.ats_get_job({ headers, path: { id: posting.id }, urlParams: {} })).data).toEqual(jobs.records[0])
      expect(yield* errorTag(client.unified_ats.ats_get_job({ headers, path: { id: MISSING }, urlParams: {} }))).toBe("NotFound")

      // the StackOne SDK accepts every one of these answers
      for (const [operationId, pathParams] of [
        ["ats_list_interview_stages", {}],
        ["ats_get_interview_stage", { id: offer.id }],
        ["ats_list_application_stages", {}],
        ["ats_get_application_stage", { id: offer.id }],
        ["ats_list_users", {}],
        ["ats_get_user", { id: first.id }],
        ["ats_list_rejected_reasons", {}],
        ["ats_get_rejected_reason", { id: rejections[0]!.id }],
        ["ats_list_job_postings", {}],
        ["ats_get_job_posting", { id: posting.id }],
        ["ats_list_jobs", {}],
        ["ats_get_job", { id: posting.id }]
      ] as const) {
        const answer = yield* viaSdk(operationId, { path: pathParams })
        expect(answer.status, operationId).toBe(200)
      }
      expect((yield* viaSdk("ats_get_user", { path: { id: MISSING } })).status).toBe(404)
    }))

  it.effect("ats_move_application and ats_reject_application write as the acting user; later reads see the stage and the rejection", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox, all, viaSdk, sdkWrite } = yield* setup
      const reasons = yield* all("/archive_reasons")
      const applied = (yield* all("/opportunities?expand=applications&archived=false")).filter((o) => o.applications.length === 1)
      const [moving, rejecting, bySdk] = applied
      const target = moving!.stage === "on-site-interview" ? "phone-screen" : "on-site-interview"

      sandbox.clearRequests()
      const moved = yield* client.unified_ats.ats_move_application({ headers, path: { id: moving!.id }, payload: { interview_stage_id: target } })
      expect(moved.data).toEqual({ id: moving!.id, remote_id: moving!.id })
      const put = sandbox.requests("oauth").find((r) => r.method === "PUT")!
      expect(put.path).toBe(`/v1/opportunities/${moving!.id}/stage`)
      expect(put.query).toEqual({ perform_as: sandbox.oauth.performAs })
      expect(JSON.parse(put.body!)).toEqual({ stage: target })
      const after = yield* client.unified_ats.ats_get_application({ headers, path: { id: moving!.id }, urlParams: {} })
      strict(AtsApplicationResult)(after)
      expect(after.data).toMatchObject({ interview_stage_id: target, application_stage: { id: target } })
      expect(yield* errorTag(client.unified_ats.ats_move_application({ headers, path: { id: MISSING }, payload: { interview_stage_id: target } }))).toBe("NotFound")

      const reason = reasons.find((r) => r.type === "non-hired" && r.status === "active")!
      const rejected = yield* client.unified_ats.ats_reject_application({ headers, path: { id: rejecting!.id }, payload: { rejected_reason_id: reason.id } })
      expect(rejected.data).toEqual({ id: rejecting!.id, remote_id: rejecting!.id })
      const archived = sandbox.requests("oauth").filter((r) => r.method === "PUT").at(-1)!
      expect(archived.path).toBe(`/v1/opportunities/${rejecting!.id}/archived`)
      expect(archived.query).toEqual({ perform_as: sandbox.oauth.performAs })
      expect(JSON.parse(archived.body!)).toEqual({ reason: reason.id })
      const seen = yield* client.unified_ats.ats_get_application({ headers, path: { id: rejecting!.id }, urlParams: {} })
      expect(seen.data).toMatchObject({ status: { value: "rejected" }, rejected_reason_id: reason.id, rejected_reason: reason.text })

      // a hired reason is not a rejection: refused before Lever is asked to archive
      const hired = reasons.find((r) => r.type === "hired")!
      const puts = sandbox.requests("oauth").filter((r) => r.method === "PUT").length
      const refused = yield* Effect.flip(client.unified_ats.ats_reject_application({ headers, path: { id: bySdk!.id }, payload: { rejected_reason_id: hired.id } }))
      expect(refused).toMatchObject({ _tag: "BadRequest", statusCode: 400 })
      expect(sandbox.requests("oauth").filter((r) => r.method === "PUT")).toHaveLength(puts)
      expect(yield* errorTag(client.unified_ats.ats_reject_application({ headers, path: { id: MISSING }, payload: { rejected_reason_id: reason.id } }))).toBe("NotFound")

      // through the StackOne SDK: the move resolves with the application's ids
      const sdkMove = yield* sdkWrite("ats_move_application", { interview_stage_id: "offer" }, bySdk!.id)
      expect(sdkMove.issues).toEqual([])
      expect(sdkMove).toMatchObject({ status: 200, body: { data: { id: bySdk!.id, remote_id: bySdk!.id } } })
      expect((yield* viaSdk("ats_get_application", { path: { id: bySdk!.id } })).body.data.interview_stage_id).toBe("offer")
    }))

  it.effect("notes: application and candidate notes are the opportunity's; listed, got, created as the acting user and listed first", () =>
    Effect.gen(function*() {
      const { client, headers, sandbox, all, api, viaSdk } = yield* setup
      const opportunities = yield* all("/opportunities")
      let withNotes: Json | undefined
      let notes: Array<Json> = []
      for (const o of opportunities) {
        notes = yield* all(`/opportunities/${o.id}/notes`)
        if (notes.length >= 2) {
          withNotes = o
          break
        }
      }
      expect(withNotes).toBeDefined()
      const id = withNotes!.id as string
      const expected = notes.map((n) => ({
        id: n.id,
        remote_id: n.id,
        content: [{ body: n.fields[0].value }],
        author_id: n.user,
        remote_author_id: n.user,
        visibility: { value: n.secret ? "private" : "public", source_value: n.secret },
        created_at: iso(n.createdAt),
        deleted_at: n.deletedAt === null ? null : iso(n.deletedAt)
      }))
      const paged = yield* walkPages((next) => client.unified_ats.ats_list_application_notes({ headers, path: { id }, urlParams: { page_size: 1, ...(next ? { next } : {}) } }))
      expect(paged.pages).toBe(notes.length)
      expect(paged.records).toEqual(expected)
      expect((yield* client.unified_ats.ats_list_candidate_notes({ headers, path: { id }, urlParams: {} })).data).toEqual(expected)
      expect((yield* client.unified_ats.ats_get_application_note({ headers, path: { id, subResourceId: notes[0]!.id }, urlParams: {} })).data).toEqual(expected[0])
      expect((yield* client.unified_ats.ats_get_candidate_note({ headers, path: { id, subResourceId: notes[1]!.id }, urlParams: {} })).data).toEqual(expected[1])
      expect(yield* errorTag(client.unified_ats.ats_get_application_note({ headers, path: { id, subResourceId: MISSING }, urlParams: {} }))).toBe("NotFound")
      expect(yield* errorTag(client.unified_ats.ats_list_application_notes({ headers, path: { id: MISSING }, urlParams: {} }))).toBe("NotFound")

      const created = yield* client.unified_ats.ats_create_application_note({
        headers,
        path: { id },
        payload: { content: [{ body: "Second interview went well." }, { body: "Move to offer." }], visibility: { value: "private" } }
      })
      expect(created.statusCode).toBe(201)
      const noteId = created.data!.id as string
      const post = sandbox.requests("oauth").find((r) => r.method === "POST" && r.path === `/v1/opportunities/${id}/notes`)!
      expect(post.query).toEqual({ perform_as: sandbox.oauth.performAs })
      expect(JSON.parse(post.body!)).toEqual({ value: "Second interview went well.\n\nMove to offer.", secret: true })
      const listed = yield* client.unified_ats.ats_list_candidate_notes({ headers, path: { id }, urlParams: {} })
      expect(listed.data[0]).toMatchObject({
        id: noteId,
        content: [{ body: "Second interview went well.\n\nMove to offer." }],
        author_id: sandbox.oauth.performAs,
        visibility: { value: "private" }
      })
      expect(ids(listed.data as ReadonlyArray<Json>)).toEqual([noteId, ...ids(expected)])

      const author = (yield* all("/users"))[1]!.id as string
      const byCandidate = yield* client.unified_ats.ats_create_candidate_note({ headers, path: { id }, payload: { content: [{ body: "Called back." }], author_id: author } })
      const raw = (yield* api(`/opportunities/${id}/notes/${byCandidate.data!.id}`)).data
      expect(raw).toMatchObject({ user: author, secret: false, fields: [{ value: "Called back." }] })
      expect(yield* errorTag(client.unified_ats.ats_create_candidate_note({ headers, path: { id: MISSING }, payload: { content: [{ body: "x" }] } }))).toBe("NotFound")

      expect((yield* viaSdk("ats_list_application_notes", { path: { id } })).status).toBe(200)
      expect((yield* viaSdk("ats_get_candidate_note", { path: { id, subResourceId: noteId } })).status).toBe(200)
    }))

  it.effect("offers, scheduled interviews, scorecards and documents of an opportunity: listed, got, downloaded; 404 for a missing id", () =>
    Effect.gen(function*() {
      const { client, headers, all, viaSdk, origin, project, account } = yield* setup
      const opportunities = yield* all("/opportunities")
      const find = (path: string, enough: (records: Array<Json>) => boolean) =>
        Effect.gen(function*() {
          for (const o of opportunities) {
            const records = yield* all(`/opportunities/${o.id}/${path}`)
            if (enough(records)) return { id: o.id as string, records }
          }
          throw new Error(`no opportunity has ${path}`)
        })

      const offers = yield* find("offers", (records) => records.length > 0)
      const offer = offers.records[0]!
      const field = (identifier: string) => offer.fields.find((f: Json) => f.identifier === identifier)?.value
      const offerList = yield* client.unified_ats.ats_list_applications_offers({ headers, path: { id: offers.id }, urlParams: {} })
      expect(offerList.data[0]).toEqual({
        id: offer.id,
        remote_id: offer.id,
        application_id: offers.id,
        remote_application_id: offers.id,
        start_date: iso(field("anticipated_start_date")),
        salary: field("salary_amount"),
        currency: field("compensation_currency"),
        offer_status: {
          value: ({ draft: "created", "approval-sent": "created", approved: "approved", sent: "pending", opened: "pending", denied: "rejected", signed: "accepted" } as Record<string, string>)[offer.status],
          source_value: offer.status
        },
        created_at: iso(offer.createdAt)
      })
      expect((yield* client.unified_ats.ats_get_application_offer({ headers, path: { id: offers.id, subResourceId: offer.id }, urlParams: {} })).data).toEqual(offerList.data[0])
      expect(yield* errorTag(client.unified_ats.ats_get_application_offer({ headers, path: { id: offers.id, subResourceId: MISSING }, urlParams: {} }))).toBe("NotFound")
      expect(yield* errorTag(client.unified_ats.ats_list_applications_offers({ headers, path: { id: MISSING }, urlParams: {} }))).toBe("NotFound")

      const interviews = yield* find("interviews", (records) => records.length >= 2 && records.some((i) => i.feedbackForms.length > 0))
      const listed = yield* walkPages((next) => client.unified_ats.ats_list_applications_scheduled_interviews({ headers, path: { id: interviews.id }, urlParams: { page_size: 1, ...(next ? { next } : {}) } }))
      expect(ids(listed.records)).toEqual(ids(interviews.records))
      const now = Date.now()
      for (const [i, interview] of interviews.records.entries()) {
        expect(listed.records[i]).toEqual({
          id: interview.id,
          remote_id: interview.id,
          application_id: interviews.id,
          remote_application_id: interviews.id,
          interview_stage_id: interview.stage,
          remote_interview_stage_id: interview.stage,
          interview_status: expect.objectContaining({
            value: interview.canceledAt !== null ? "cancelled" : interview.date > now ? "scheduled" : interview.feedbackForms.length > 0 ? "completed" : "pending_feedback"
          }),
          interviewer_ids: interview.interviewers.map((u: Json) => u.id),
          remote_interviewer_ids: interview.interviewers.map((u: Json) => u.id),
          start_at: iso(interview.date),
          end_at: iso(interview.date + interview.duration * 60_000),
          created_at: iso(interview.createdAt)
        })
      }
      const oneInterview = yield* client.unified_ats.ats_get_application_scheduled_interview({ headers, path: { id: interviews.id, subResourceId: interviews.records[0]!.id }, urlParams: {} })
      expect(oneInterview.data).toEqual(listed.records[0])
      expect(yield* errorTag(client.unified_ats.ats_get_application_scheduled_interview({ headers, path: { id: interviews.id, subResourceId: MISSING }, urlParams: {} }))).toBe("NotFound")

      const feedback = yield* all(`/opportunities/${interviews.id}/feedback`)
      expect(feedback.length).toBeGreaterThan(0)
      const scorecards = yield* client.unified_ats.ats_list_application_scorecards({ headers, path: { id: interviews.id }, urlParams: {} })
      expect(ids(scorecards.data as ReadonlyArray<Json>)).toEqual(ids(feedback))
      const form = feedback[0]!
      expect(scorecards.data[0]).toEqual({
        id: form.id,
        remote_id: form.id,
        label: form.text,
        candidate_id: interviews.id,
        remote_candidate_id: interviews.id,
        application_id: interviews.id,
        remote_application_id: interviews.id,
        interview_id: form.interview,
        remote_interview_id: form.interview,
        author_id: form.user,
        remote_author_id: form.user,
        sections: [{
          label: form.text,
          fields: form.fields.map((f: Json) => ({
            label: f.text,
            type: ({ "score-system": "score", textarea: "long_text", "yes-no": "boolean", text: "short_text" } as Record<string, string>)[f.type],
            values: [String(f.value)],
            required: f.required
          }))
        }],
        created_at: iso(form.createdAt),
        updated_at: iso(form.updatedAt)
      })
      for (const record of scorecards.data) strict(AtsScorecard)(record)
      expect((yield* client.unified_ats.ats_get_application_scorecard({ headers, path: { id: interviews.id, subResourceId: form.id }, urlParams: {} })).data).toEqual(scorecards.data[0])
      expect(yield* errorTag(client.unified_ats.ats_get_application_scorecard({ headers, path: { id: interviews.id, subResourceId: MISSING }, urlParams: {} }))).toBe("NotFound")

      const files = yield* find("files", (records) => records.length > 0)
      const file = files.records[0]!
      const documents = yield* client.unified_ats.ats_list_application_documents({ headers, path: { id: files.id }, urlParams: {} })
      expect(documents.data).toEqual([{
        id: file.id,
        remote_id: file.id,
        name: file.name,
        file_format: { value: file.ext, source_value: file.ext },
        remote_url: file.downloadUrl,
        contents: [{ url: file.downloadUrl }],
        created_at: iso(file.uploadedAt),
        updated_at: iso(file.uploadedAt)
      }])
      for (const record of documents.data) strict(AtsDocument)(record)
      expect((yield* client.unified_ats.ats_get_application_document({ headers, path: { id: files.id, subResourceId: file.id }, urlParams: {} })).data).toEqual(documents.data[0])
      expect(yield* errorTag(client.unified_ats.ats_get_application_document({ headers, path: { id: files.id, subResourceId: MISSING }, urlParams: {} }))).toBe("NotFound")
      const download = (subResourceId: string) =>
        Effect.promise(() =>
          fetch(`${origin}/unified/ats/applications/${files.id}/documents/${subResourceId}/download`, {
            headers: { authorization: `Basic ${Buffer.from(`${project.key}:`).toString("base64")}`, "x-account-id": account.id }
          })
        )
      const bytes = yield* download(file.id)
      expect(bytes.status).toBe(200)
      expect(bytes.headers.get("content-type")).toContain("text/plain")
      const text = yield* Effect.promise(() => bytes.text())
      expect(text).toContain((opportunities.find((o) => o.id === files.id)!.name as string))
      expect(Buffer.byteLength(text)).toBe(file.size)
      expect((yield* download(MISSING)).status).toBe(404)

      for (const [operationId, pathParams] of [
        ["ats_list_applications_offers", { id: offers.id }],
        ["ats_get_application_offer", { id: offers.id, subResourceId: offer.id }],
        ["ats_list_applications_scheduled_interviews", { id: interviews.id }],
        ["ats_get_application_scheduled_interview", { id: interviews.id, subResourceId: interviews.records[0]!.id }],
        ["ats_list_application_scorecards", { id: interviews.id }],
        ["ats_get_application_scorecard", { id: interviews.id, subResourceId: form.id }],
        ["ats_list_application_documents", { id: files.id }],
        ["ats_get_application_document", { id: files.id, subResourceId: file.id }]
      ] as const) {
        const answer = yield* viaSdk(operationId, { path: pathParams })
        expect(answer.status, operationId).toBe(200)
      }
    }))
})
