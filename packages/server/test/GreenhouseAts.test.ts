import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { greenhouseOverFetch } from "./support/FetchAccount.js"
import { direct, type Json, SandboxLive } from "./support/SandboxLayer.js"
import { sdkCalls, stackOneSdkClient } from "./support/StackOneSdkClient.js"
import { TestServer } from "./support/TestServer.js"
import { walkPages } from "./support/walkPages.js"

/*
 * Greenhouse 1.4.0's unified ATS operations beyond applications and candidates, called through
 * the real StackOne SDK (which validates each answer against its own schemas) on the sandbox's
 * Greenhouse look-alike, and compared with what the look-alike itself holds: lists page by page,
 * gets by id and 404 for an id it does not have, writes seen by later reads.
 */

const Server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive(23))

/** A unified call through the SDK on a fresh Greenhouse account; a 2xx the SDK refuses fails the test. */
const sdkAccount = Effect.gen(function*() {
  const { account, origin, project, sandbox } = yield* greenhouseOverFetch
  const { call } = sdkCalls(stackOneSdkClient(origin, project.key), account.id)
  /** Every record of a list, page by page (`size` a page), each page's records counted. */
  const all = (operationId: string, size: number, path: Record<string, string> = {}) =>
    Effect.map(
      walkPages(
        (next) =>
          Effect.map(call(operationId, { path, query: next === undefined ? { page_size: String(size) } : { page_size: String(size), next } }), (answer) => {
            expect(answer.status, `${operationId}: ${JSON.stringify(answer.body)}`).toBe(200)
            expect(answer.body.data.length).toBeLessThanOrEqual(size)
            return answer.body
          }),
        { most: 50 }
      ),
      ({ records }) => records
    )
  const read = (path: string) => direct(sandbox, "ats", path) as Effect.Effect<any>
  return { call, all, read, sandbox }
})

const ids = (records: ReadonlyArray<Json>) => records.map((record) => String(record.id))

layer(Server, { excludeTestServices: true })("Greenhouse 1.4.0 through the StackOne SDK", (it) => {
  it.effect("jobs: every job once over pages, a job with its hiring team and stages, 404 for a missing one", () =>
    Effect.gen(function*() {
      const { all, call, read } = yield* sdkAccount
      const jobs = (yield* read("/jobs?per_page=500")) as Array<Json>
      const listed = yield* all("ats_list_jobs", 3)
      expect(ids(listed)).toEqual(ids(jobs))
      const first = jobs[0]!
      expect(listed[0]).toMatchObject({
        id: String(first.id),
        title: first.name,
        code: first.requisition_id,
        job_status: { value: first.status, source_value: first.status },
        department_ids: first.departments.map((department: Json) => String(department.id)),
        location_ids: first.offices.map((office: Json) => String(office.id)),
        confidential: String(first.confidential)
      })
      expect(listed[0]!.custom_fields).toEqual(Object.values(first.keyed_custom_fields).map((field: any) => ({ name: field.name, value: field.value })))

      const one = yield* call("ats_get_job", { path: { id: String(first.id) } })
      expect(one.status).toBe(200)
      const stages = (yield* read(`/jobs/${first.id}/stages`)) as Array<Json>
      expect(one.body.data.interview_stages).toEqual(stages.map((stage) => ({
        id: String(stage.id),
        remote_id: String(stage.id),
        name: stage.name,
        order: stage.priority,
        created_at: new Date(stage.created_at).toISOString(),
        updated_at: new Date(stage.updated_at).toISOString()
      })))
      const team = first.hiring_team
      expect(one.body.data.hiring_team.map((member: Json) => [member.user_id, member.role])).toEqual([
        ...team.hiring_managers.map((user: Json) => [String(user.id), "hiring_manager"]),
        ...team.recruiters.map((user: Json) => [String(user.id), "recruiter"])
      ])

      // a job's stages are its application stages; a stage of another job is not found under it
      const jobStages = yield* call("ats_list_job_application_stages", { path: { id: String(first.id) } })
      expect(ids(jobStages.body.data)).toEqual(ids(stages))
      const stage = yield* call("ats_get_job_application_stage", { path: { id: String(first.id), subResourceId: String(stages[1]!.id) } })
      expect(stage.body.data).toMatchObject({ id: String(stages[1]!.id), name: stages[1]!.name, order: 1 })
      const otherJobsStage = String(((yield* read(`/jobs/${jobs[1]!.id}/stages`)) as Array<Json>)[0]!.id)
      expect((yield* call("ats_get_job_application_stage", { path: { id: String(first.id), subResourceId: otherJobsStage } })).status).toBe(404)
      expect((yield* call("ats_get_job", { path: { id: "999999" } })).status).toBe(404)
    }))

  it.effect("a job created from a template and then updated: later reads (unified and the look-alike's) see both writes", () =>
    Effect.gen(function*() {
      const { call, read } = yield* sdkAccount
      const template = ((yield* read("/jobs?per_page=500")) as Array<Json>)[0]!
      const [department] = (yield* read("/departments")) as Array<Json>
      const offices = (yield* read("/offices")) as Array<Json>
      const created = yield* call("ats_create_job", {
        body: {
          title: "Staff Platform Engineer",
          code: "REQ-9001",
          department_ids: [String(department!.id)],
          location_ids: [String(offices[2]!.id)],
          passthrough: { template_job_id: template.id }
        }
      })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const id = created.body.data.id as string
      expect(created.body.data).toEqual({ id, remote_id: id })

      const stored = (yield* read(`/jobs/${id}`)) as Json
      expect(stored).toMatchObject({ name: "Staff Platform Engineer", requisition_id: "REQ-9001", copied_from_id: template.id })
      const fetched = yield* call("ats_get_job", { path: { id } })
      expect(fetched.body.data).toMatchObject({
        title: "Staff Platform Engineer",
        code: "REQ-9001",
        department_ids: [String(department!.id)],
        location_ids: [String(offices[2]!.id)]
      })
      // the template's stages, copied under ids of the new job
      const templateStages = (yield* read(`/jobs/${template.id}/stages`)) as Array<Json>
      expect(fetched.body.data.interview_stages.map((stage: Json) => stage.name)).toEqual(templateStages.map((stage) => stage.name))
      expect(fetched.body.data.interview_stages.map((stage: Json) => stage.id)).not.toEqual(ids(templateStages))

      // the job's select field by its definition's id and an option id, as Greenhouse takes them
      const definitions = yield* call("ats_list_job_custom_field_definitions")
      const timeType = definitions.body.data.find((definition: Json) => definition.type.value === "single_select")
      const definition = yield* call("ats_get_job_custom_field_definition", { path: { id: timeType.id } })
      const partTime = definition.body.data.options.find((option: Json) => option.value === "Part-time")
      const updated = yield* call("ats_update_job", {
        path: { id },
        body: { title: "Principal Platform Engineer", location_ids: [String(offices[0]!.id), String(offices[1]!.id)], custom_fields: [{ id: timeType.id, value: partTime.id }] }
      })
      expect(updated.status, JSON.stringify(updated.body)).toBe(200)
      const after = (yield* read(`/jobs/${id}`)) as Json
      expect(after.name).toBe("Principal Platform Engineer")
      expect(after.offices.map((office: Json) => office.id)).toEqual([offices[0]!.id, offices[1]!.id])
      expect(after.keyed_custom_fields.employment_type.value).toBe("Part-time")
      const reread = yield* call("ats_get_job", { path: { id } })
      expect(reread.body.data.title).toBe("Principal Platform Engineer")
      expect(reread.body.data.custom_fields).toContainEqual({ name: timeType.name, value: "Part-time" })
      expect((yield* call("ats_update_job", { path: { id: "999999" }, body: { title: "x" } })).status).toBe(404)
    }))

  it.effect("candidate update and notes: the write is on the candidate, the new note in the feed, a note of another candidate is not found", () =>
    Effect.gen(function*() {
      const { call, read } = yield* sdkAccount
      const [candidate, other] = (yield* read("/candidates?per_page=2")) as Array<Json>
      const id = String(candidate!.id)
      const updated = yield* call("ats_update_candidate", { path: { id }, body: { first_name: "Ada", title: "Engineer", email: "ada.sdk@example.com" } })
      expect(updated.status, JSON.stringify(updated.body)).toBe(200)
      const stored = (yield* read(`/candidates/${id}`)) as Json
      expect({ first_name: stored.first_name, title: stored.title, emails: stored.email_addresses }).toEqual({
        first_name: "Ada",
        title: "Engineer",
        emails: [{ value: "ada.sdk@example.com", type: "personal" }]
      })
      expect((yield* call("ats_get_candidate", { path: { id } })).body.data).toMatchObject({ first_name: "Ada", email: "ada.sdk@example.com" })

      const note = yield* call("ats_create_candidate_note", {
        path: { id },
        body: { content: [{ body: "Met at the meetup." }, { body: "Follow up in May." }], visibility: { value: "public" } }
      })
      expect(note.status, JSON.stringify(note.body)).toBe(201)
      const noteId = note.body.data.id as string
      const feed = (yield* read(`/candidates/${id}/activity_feed`)) as Json
      expect(feed.notes[0]).toMatchObject({ id: Number(noteId), body: "Met at the meetup.\n\nFollow up in May.", visibility: "public" })
      const notes = yield* call("ats_list_candidate_notes", { path: { id } })
      expect(ids(notes.body.data)).toEqual(ids(feed.notes))
      const one = yield* call("ats_get_candidate_note", { path: { id, subResourceId: noteId } })
      expect(one.body.data).toMatchObject({
        id: noteId,
        content: [{ body: "Met at the meetup.\n\nFollow up in May." }],
        visibility: { value: "public", source_value: "public" }
      })
      expect((yield* call("ats_get_candidate_note", { path: { id: String(other!.id), subResourceId: noteId } })).status).toBe(404)
      expect((yield* call("ats_update_candidate", { path: { id: "1" }, body: { first_name: "x" } })).status).toBe(404)
    }))

  it.effect("the organization's records: each list is the look-alike's, each get its record, 404 for an id it lacks", () =>
    Effect.gen(function*() {
      const { all, call, read } = yield* sdkAccount
      const cases: ReadonlyArray<{ list: string; get: string; path: string; size: number; missing: string }> = [
        { list: "ats_list_users", get: "ats_get_user", path: "/users?per_page=500", size: 4, missing: "1" },
        { list: "ats_list_departments", get: "ats_get_department", path: "/departments?per_page=500", size: 3, missing: "1" },
        { list: "ats_list_locations", get: "ats_get_location", path: "/offices?per_page=500", size: 3, missing: "1" },
        { list: "ats_list_rejected_reasons", get: "ats_get_rejected_reason", path: "/rejection_reasons?per_page=500", size: 4, missing: "1" },
        { list: "ats_list_job_postings", get: "ats_get_job_posting", path: "/job_posts?per_page=500", size: 3, missing: "1" },
        { list: "ats_list_interview_stages", get: "ats_get_interview_stage", path: "/job_stages?per_page=500", size: 25, missing: "1" },
        { list: "ats_list_application_stages", get: "ats_get_application_stage", path: "/job_stages?per_page=500", size: 25, missing: "1" },
        { list: "ats_list_offers", get: "ats_get_offer", path: "/offers?per_page=500", size: 10, missing: "1" },
        { list: "ats_list_interviews", get: "ats_get_interview", path: "/scheduled_interviews?per_page=500", size: 50, missing: "1" }
      ]
      for (const { get, list, missing, path, size } of cases) {
        const held = (yield* read(path)) as Array<Json>
        const listed = yield* all(list, size)
        expect(ids(listed), list).toEqual(ids(held))
        const one = yield* call(get, { path: { id: String(held[1]!.id) } })
        expect(one.status, `${get}: ${JSON.stringify(one.body)}`).toBe(200)
        expect(one.body.data.id, get).toBe(String(held[1]!.id))
        expect((yield* call(get, { path: { id: missing } })).status, get).toBe(404)
      }

      const user = ((yield* read("/users?per_page=500")) as Array<Json>)[1]!
      expect((yield* call("ats_get_user", { path: { id: String(user.id) } })).body.data).toEqual({
        id: String(user.id),
        remote_id: String(user.id),
        email: user.primary_email_address,
        first_name: user.first_name,
        last_name: user.last_name,
        name: user.name
      })
      const reason = ((yield* read("/rejection_reasons")) as Array<Json>).find((candidate) => candidate.type.name === "They rejected us")!
      expect((yield* call("ats_get_rejected_reason", { path: { id: String(reason.id) } })).body.data).toMatchObject({
        label: reason.name,
        rejected_reason_type: { value: "rejected_by_candidate", source_value: "They rejected us" }
      })
      const interview = ((yield* read("/scheduled_interviews?per_page=500")) as Array<Json>)[0]!
      const unified = (yield* call("ats_get_interview", { path: { id: String(interview.id) } })).body.data
      expect(unified.interviewers).toEqual(interview.interviewers.map((person: Json) => ({ id: String(person.id), remote_id: String(person.id), name: person.name, email: person.email })))
      expect(unified.start_at).toBe(interview.start.date_time)
      const post = ((yield* read("/job_posts?per_page=500")) as Array<Json>)[0]!
      expect((yield* call("ats_get_job_posting", { path: { id: String(post.id) } })).body.data).toMatchObject({
        title: post.title,
        job_id: String(post.job_id),
        internal: String(post.internal),
        status: { value: post.live ? "live" : "closed" },
        content: { html: post.content },
        locations: [{ name: post.location.name }]
      })
    }))

  it.effect("custom field definitions of each type: the look-alike's, options on a get, and a field of another type not found", () =>
    Effect.gen(function*() {
      const { call, read } = yield* sdkAccount
      const byType: Record<string, string> = {}
      for (const type of ["application", "candidate", "job"] as const) {
        const held = (yield* read(`/custom_fields/${type}`)) as Array<Json>
        const listed = yield* call(`ats_list_${type}_custom_field_definitions`)
        expect(listed.status).toBe(200)
        expect(ids(listed.body.data), type).toEqual(ids(held))
        const select = held.find((field) => field.custom_field_options.length > 0) ?? held[0]!
        const one = yield* call(`ats_get_${type}_custom_field_definition`, { path: { id: String(select.id) } })
        expect(one.body.data).toMatchObject({ id: String(select.id), name: select.name })
        expect(one.body.data.options ?? []).toEqual(select.custom_field_options.map((option: Json) => ({ id: String(option.id), value: option.name })))
        byType[type] = String(select.id)
      }
      expect((yield* call("ats_get_candidate_custom_field_definition", { path: { id: byType.application! } })).status).toBe(404)
      expect((yield* call("ats_get_job_custom_field_definition", { path: { id: "1" } })).status).toBe(404)
    }))
})
