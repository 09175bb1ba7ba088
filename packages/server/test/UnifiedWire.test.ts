import { expect, layer } from "@effect/vitest"
import { UnifiedAtsGroup, UnifiedHrisGroup, UnifiedLmsGroup } from "@switchyard/api"
import { Effect, Layer } from "effect"
import { greenhouseOverFetch } from "./support/FetchAccount.js"
import {
  applicationWithNote,
  direct,
  type Json,
  SandboxLive,
  sandboxBambooAccount,
  sandboxTalentLmsAccount
} from "./support/SandboxLayer.js"
import { newestBuiltinActions } from "./support/newestBuiltinActions.js"
import { TestServer } from "./support/TestServer.js"

/*
 * The unified wire as any HTTP client sees it: node's fetch against the server's real
 * port (not our derived client), bracketed query keys, comma lists, bodies and types.
 */

const Server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive(5))

/**
 * Success answers of the reference documents (../shared/reference/stackone-openapi,
 * components.schemas): the status, the required keys and the other keys allowed.
 */
const idsOnly = { required: ["data", "message", "statusCode", "timestamp"], optional: [] }
const referenceAnswers = {
  CreateResult: { status: 201, ...idsOnly },
  MoveApplicationResult: { status: 200, ...idsOnly },
  RejectApplicationResult: { status: 200, ...idsOnly },
  UpdateResult: { status: 200, required: ["message", "statusCode", "timestamp"], optional: [] },
  // the time-off update answers the create envelope, with 200
  CreateResultOnUpdate: { status: 200, ...idsOnly },
  DeleteResult: { status: 200, required: ["message", "statusCode", "timestamp"], optional: [] },
  InviteEmployeeResult: { status: 200, ...idsOnly },
  BatchResultApiModel: { status: 202, required: [], optional: ["errors", "message", "statusCode", "timestamp"] },
  UpsertResult: { status: 201, ...idsOnly },
  // an assessment or background check order: the order itself, without the write envelope
  CreateOrderResult: { status: 200, required: [], optional: ["id", "remote_id", "test_url"] },
  WriteResultApiModel: {
    status: 201,
    required: [],
    optional: ["message", "provider_errors", "statusCode", "timestamp", "unified_warnings"]
  }
} as const

/** Each write operation's success schema in the reference documents (by operationId). */
const referenceOf: Record<string, keyof typeof referenceAnswers> = {
  ats_create_application: "CreateResult",
  ats_update_application: "UpdateResult",
  ats_move_application: "MoveApplicationResult",
  ats_reject_application: "RejectApplicationResult",
  ats_update_application_note: "UpdateResult",
  ats_upload_application_document: "WriteResultApiModel",
  ats_create_candidate: "CreateResult",
  ats_update_assessments_result: "UpdateResult",
  ats_create_application_note: "CreateResult",
  ats_update_candidate: "CreateResultOnUpdate",
  ats_create_candidate_note: "CreateResult",
  ats_create_interview_note: "CreateResult",
  ats_update_interview_note: "UpdateResult",
  ats_create_job: "CreateResult",
  ats_update_job: "CreateResultOnUpdate",
  ats_create_offer: "CreateResult",
  ats_order_assessments_request: "CreateOrderResult",
  ats_create_background_check_package: "CreateResult",
  ats_update_background_check_package: "UpdateResult",
  ats_delete_background_check_package: "DeleteResult",
  ats_order_background_check_request: "CreateOrderResult",
  ats_update_background_check_result: "UpdateResult",
  hris_update_employee: "UpdateResult",
  hris_create_employee: "CreateResult",
  hris_invite_employee: "InviteEmployeeResult",
  hris_create_employee_time_off_request: "CreateResult",
  hris_update_employee_time_off_request: "CreateResultOnUpdate",
  hris_cancel_employee_time_off_request: "DeleteResult",
  hris_batch_upload_employee_document: "BatchResultApiModel",
  hris_upload_employee_document: "WriteResultApiModel",
  hris_create_employee_work_eligibility_request: "CreateResult",
  // the reference documents no answer body for this update: ours is the update answer
  hris_update_employee_work_eligibility_request: "UpdateResult",
  hris_create_employee_employment: "CreateResult",
  hris_update_employee_employment: "UpdateResult",
  hris_create_employee_skill: "CreateResult",
  hris_update_employee_task: "UpdateResult",
  lms_create_user_assignment: "CreateResult",
  lms_batch_upsert_content: "BatchResultApiModel",
  lms_upsert_content: "UpsertResult",
  lms_create_user_completion: "CreateResult",
  lms_delete_user_completion: "DeleteResult"
}

const writeEndpoints = [UnifiedAtsGroup, UnifiedHrisGroup, UnifiedLmsGroup].flatMap((group) =>
  Object.values(group.endpoints as Record<string, { readonly name: string; readonly method: string }>)
    .filter((endpoint) => endpoint.method !== "GET")
)

/** A body against its reference schema: keys, types, and the record it names (when it names one). */
const expectReferenceAnswer = (
  operationId: string,
  answer: { readonly status: number; readonly body: Json },
  recordId?: string
) => {
  const reference = referenceAnswers[referenceOf[operationId]!]
  const keys = Object.keys(answer.body).sort()
  expect({ operationId, status: answer.status }, JSON.stringify(answer.body)).toEqual({ operationId, status: reference.status })
  expect({ operationId, missing: reference.required.filter((key) => !keys.includes(key)) }).toEqual({ operationId, missing: [] })
  const allowed: ReadonlyArray<string> = [...reference.required, ...reference.optional]
  expect({ operationId, extra: keys.filter((key) => !allowed.includes(key)) }).toEqual({ operationId, extra: [] })
  expect(answer.body.statusCode).toBe(answer.status)
  expect(answer.body.message).toBeTypeOf("string")
  expect(new Date(answer.body.timestamp).toISOString()).toBe(answer.body.timestamp)
  if (reference.required.includes("data" as never)) {
    expect(Object.keys(answer.body.data).sort()).toEqual(
      referenceOf[operationId] === "UpsertResult" ? ["external_reference", "id", "remote_id"] : ["id", "remote_id"]
    )
    expect(answer.body.data.id).toBeTypeOf("string")
    if (recordId !== undefined) expect(answer.body.data).toEqual({ id: recordId, remote_id: recordId })
  }
}

layer(Server, { excludeTestServices: true })("unified wire", (it) => {
  it.effect("bracketed filters and proxy keys reach the provider; fields is a comma list; bodies are JSON", () =>
    Effect.gen(function*() {
      const { headers, origin, sandbox } = yield* greenhouseOverFetch
      const get = (query: string) =>
        Effect.promise(async () => {
          const response = await fetch(`${origin}/unified/ats/applications?${query}`, { headers })
          return { status: response.status, type: response.headers.get("content-type"), body: await response.json() as any }
        })

      sandbox.clearRequests()
      const ok = yield* get(
        "page_size=5&fields=id,candidate_id&filter[updated_after]=2024-03-01T00:00:00.000Z&filter[created_after]=2024-01-01T00:00:00.000Z&filter[job_id]=3001&proxy[skip_count]=true"
      )
      expect(ok.status).toBe(200)
      expect(ok.type).toContain("application/json")
      for (const record of ok.body.data) expect(Object.keys(record).sort()).toEqual(["candidate_id", "id"])
      const seen = sandbox.requests("ats").find((request) => request.path === "/v1/applications")!
      expect(seen.query).toMatchObject({
        per_page: "5",
        updated_after: expect.stringContaining("2024-03-01"),
        created_after: expect.stringContaining("2024-01-01"),
        job_id: "3001",
        skip_count: "true"
      })

      for (
        const [query, status] of [
          ["filter[nope]=1", 400],
          ["page_size=0", 400],
          ["page_size=abc", 400],
          ["raw=maybe", 400],
          ["filter[updated_after]=yesterday", 400],
          ["next=forged.cursor", 400]
        ] as const
      ) {
        const refused = yield* get(query)
        expect({ query, status: refused.status }).toEqual({ query, status })
        expect(refused.type).toContain("application/json")
        expect(Object.keys(refused.body).sort()).toEqual(["message", "statusCode", "timestamp"])
        expect(refused.body.statusCode).toBe(status)
      }
    }))

  it.effect("every write answer has the reference success shape, on the wire and in /openapi.json", () =>
    Effect.gen(function*() {
      const { headers, origin, project, sandbox } = yield* greenhouseOverFetch
      sandbox.reset()
      const call = (method: string, path: string, body: unknown, account = headers) =>
        Effect.promise(async () => {
          const response = await fetch(`${origin}${path}`, {
            method,
            headers: { ...account, "content-type": "application/json" },
            body: JSON.stringify(body)
          })
          return { status: response.status, body: await response.json() as Json }
        })
      const bamboo = yield* project.client.accounts.create_account({
        payload: sandboxBambooAccount(sandbox)
      })
      const applications = (yield* direct(sandbox, "ats", "/applications?per_page=500&status=active")) as Array<Json>
      const app = applications.find((candidate) => candidate.current_stage !== null && !candidate.prospect)!
      const appId = String(app.id)
      const stages = (yield* direct(sandbox, "ats", `/jobs/${app.jobs[0].id}/stages`)) as Array<Json>
      const target = String(stages.find((stage) => stage.id !== app.current_stage.id)!.id)
      const other = String(applications.find((candidate) => candidate.id !== app.id)!.id)
      const candidateId = String(app.candidate_id)
      const { applicationId: noted, note } = yield* applicationWithNote(sandbox)
      const employees = (yield* direct(sandbox, "hris", "/employees/directory")).employees as Array<Json>
      const timeOff = (yield* direct(sandbox, "hris", "/time_off/requests?start=1900-01-01&end=9999-12-31&status=requested")) as Array<Json>
      const talent = yield* project.client.accounts.create_account({ payload: sandboxTalentLmsAccount(sandbox) })
      const learners = (yield* direct(sandbox, "lms", "/users")) as Array<Json>
      const learner = (yield* direct(sandbox, "lms", `/users/id:${learners[0]!.id}`)) as Json
      const enrolled = new Set((learner.courses as Array<Json>).map((course) => String(course.id)))
      const course = ((yield* direct(sandbox, "lms", "/courses")) as Array<Json>).find((candidate) => !enrolled.has(String(candidate.id)))!

      // one call per write operation, in an order that leaves each one's record writable
      const calls: Record<string, { readonly path: string; readonly body: unknown; readonly record?: string; readonly account?: typeof headers }> = {
        ats_create_application: { path: "/unified/ats/applications", body: { candidate_id: candidateId, job_id: String(app.jobs[0].id) } },
        ats_update_application: { path: `/unified/ats/applications/${appId}`, body: { source: { id: "3" } } },
        ats_move_application: { path: `/unified/ats/applications/${appId}/move`, body: { interview_stage_id: target }, record: appId },
        ats_reject_application: { path: `/unified/ats/applications/${other}/reject`, body: { rejected_reason_id: "106" }, record: other },
        ats_update_application_note: {
          path: `/unified/ats/applications/${noted}/notes/${note.id}`,
          body: { content: [{ body: "Checked on the wire" }] }
        },
        ats_upload_application_document: {
          path: `/unified/ats/applications/${appId}/documents/upload`,
          body: { name: "wire.txt", file_format: { value: "txt" }, content: Buffer.from("wire").toString("base64") }
        },
        ats_create_candidate: {
          path: "/unified/ats/candidates",
          body: { first_name: "Wire", last_name: "Case", email: "wire@example.com", passthrough: { applications: [{ job_id: app.jobs[0].id }] } }
        },
        ats_update_candidate: { path: `/unified/ats/candidates/${candidateId}`, body: { title: "Wire engineer" }, record: candidateId },
        ats_create_candidate_note: { path: `/unified/ats/candidates/${candidateId}/notes`, body: { content: [{ body: "Checked on the wire" }] } },
        ats_create_job: { path: "/unified/ats/jobs", body: { title: "Wire job", passthrough: { template_job_id: app.jobs[0].id } } },
        ats_update_job: { path: `/unified/ats/jobs/${app.jobs[0].id}`, body: { title: "Wire job" }, record: String(app.jobs[0].id) },
        ats_update_assessments_result: {
          path: "/unified/ats/assessments/orders/order-1/result",
          body: { candidate: { id: candidateId }, result: { value: "passed" } }
        },
        hris_update_employee: {
          path: `/unified/hris/employees/${employees[0]!.id}`,
          body: { first_name: "Grace" },
          account: { ...headers, "x-account-id": bamboo.id }
        },
        hris_create_employee: {
          path: "/unified/hris/employees",
          body: { first_name: "Wire", last_name: "Case", work_email: "wire.case@example.com", hire_date: "2025-02-03T00:00:00.000Z" },
          account: { ...headers, "x-account-id": bamboo.id }
        },
        hris_create_employee_time_off_request: {
          path: `/unified/hris/employees/${employees[0]!.id}/time_off`,
          body: { reason: { id: "64" }, start_date: "2025-02-03", end_date: "2025-02-04", status: { value: "pending" } },
          account: { ...headers, "x-account-id": bamboo.id }
        },
        hris_cancel_employee_time_off_request: {
          path: `/unified/hris/employees/${timeOff[0]!.employeeId}/time_off/${timeOff[0]!.id}`,
          body: undefined,
          account: { ...headers, "x-account-id": bamboo.id }
        },
        lms_create_user_assignment: {
          path: `/unified/lms/users/${learner.id}/assignments`,
          body: { learning_object_external_reference: course.code, learning_object_id: String(course.id) },
          account: { ...headers, "x-account-id": talent.id }
        }
      }
      expect(writeEndpoints.map((endpoint) => endpoint.name).sort()).toEqual(Object.keys(referenceOf).sort())
      // every write the sandbox's connectors serve is called; the others are checked in /openapi.json only
      const served = new Set(["greenhouse", "bamboohr", "talentlms"].flatMap((key) => [...newestBuiltinActions(key)]))
      expect(Object.keys(calls).sort()).toEqual(writeEndpoints.map((endpoint) => endpoint.name).filter((name) => served.has(name)).sort())

      const document = yield* Effect.promise(async () => (await fetch(`${origin}/openapi.json`)).json() as Promise<Json>)
      const resolve = (schema: Json): Json =>
        schema.$ref === undefined ? schema : resolve(document.components.schemas[String(schema.$ref).split("/").pop()!])
      for (const endpoint of writeEndpoints) {
        const served = calls[endpoint.name]
        if (served !== undefined) {
          expectReferenceAnswer(endpoint.name, yield* call(endpoint.method, served.path, served.body, served.account), served.record)
        }

        const reference = referenceAnswers[referenceOf[endpoint.name]!]
        const operation = Object.values(document.paths as Record<string, Record<string, Json>>)
          .flatMap((item) => Object.values(item))
          .find((candidate) => candidate.operationId === endpoint.name)!
        const declared = resolve(operation.responses[String(reference.status)].content["application/json"].schema)
        // ours may require more than the reference (the upload answer always has its three keys), never less
        const required: ReadonlyArray<string> = declared.required ?? []
        expect({ name: endpoint.name, missing: reference.required.filter((key) => !required.includes(key)) })
          .toEqual({ name: endpoint.name, missing: [] })
        expect({ name: endpoint.name, properties: Object.keys(declared.properties).sort() })
          .toEqual({ name: endpoint.name, properties: [...reference.required, ...reference.optional].sort() })
      }
      // BambooHR's look-alike holds what the employee and time off writes did
      const directory = (yield* direct(sandbox, "hris", "/employees/directory")).employees as Array<Json>
      expect(directory.filter((employee) => employee.workEmail === "wire.case@example.com").map((employee) => [employee.firstName, employee.lastName]))
        .toEqual([["Wire", "Case"]])
      const [canceled] = (yield* direct(sandbox, "hris", `/time_off/requests?start=1900-01-01&end=9999-12-31&id=${timeOff[0]!.id}`)) as Array<Json>
      expect(canceled!.status.status).toBe("canceled")
      const created = (yield* direct(sandbox, "hris", `/time_off/requests?start=2025-02-03&end=2025-02-04&employeeId=${employees[0]!.id}`)) as Array<Json>
      expect(created.map((request) => [request.type.id, request.status.status, request.amount])).toEqual([[64, "requested", { unit: "days", amount: 2 }]])
    }))
})
