import { HttpApi, HttpApiBuilder, HttpServer, OpenApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer, ParseResult, Schema } from "effect"
import { Api } from "../src/Api.js"
import { Authentication } from "../src/Authentication.js"
import {
  AtsApplication,
  AtsApplicationChange,
  AtsApplicationResult,
  AtsApplicationsList,
  AtsCandidate,
  AtsCreateApplicationRequest,
  AtsCreateCandidateRequest,
  AtsDocument,
  AtsGetApplicationParams,
  AtsListApplicationChangesParams,
  AtsListApplicationsParams,
  AtsListCandidatesParams,
  AtsListDocumentsParams,
  AtsMoveApplicationRequest,
  AtsNote,
  AtsOffer,
  AtsRejectApplicationRequest,
  AtsScheduledInterview,
  AtsScorecard,
  AtsUpdateApplicationRequest,
  AtsUpdateAssessmentResultRequest,
  AtsUpdateNoteRequest,
  AtsUploadDocumentRequest,
  UnifiedAtsGroup
} from "../src/Unified/Ats.js"
import {
  CreateResponse,
  documentOpenUnifiedRequestBodies,
  UNIFIED_MAX_PAGE_SIZE,
  UnifiedHeaders,
  WriteResponse,
  WriteResult
} from "../src/Unified/Common.js"
import {
  HrisEmployeeDocumentCategory,
  HrisGetEmployeeDocumentCategoryParams,
  HrisUpdateEmployeeRequest,
  UnifiedHrisGroup
} from "../src/Unified/Hris.js"
import { LmsAssignment, LmsAssignmentsList, LmsListUserAssignmentsParams, UnifiedLmsGroup } from "../src/Unified/Lms.js"

const decode = <A, I>(schema: Schema.Schema<A, I>) => Schema.decodeUnknownSync(schema)
const decodeEither = <A, I>(schema: Schema.Schema<A, I>) => Schema.decodeUnknownEither(schema)

/** The parse issues of a failed decode, as the server turns them into a 400 message. */
const issues = <A, I>(schema: Schema.Schema<A, I>, input: unknown) => {
  const result = Schema.decodeUnknownEither(schema)(input)
  if (Either.isRight(result)) throw new Error(`expected a decode failure, got ${JSON.stringify(result.right)}`)
  return ParseResult.ArrayFormatter.formatErrorSync(result.left).map(({ message, path }) => ({
    path: path.map(String).join("."),
    message
  }))
}

const T = "2024-05-06T07:08:09.010Z"

describe("unified query parameters", () => {
  it("decode comma-separated and repeated lists", () => {
    const query = decode(AtsListApplicationsParams)({
      fields: ["id,remote_id", "candidate_id"],
      expand: "documents",
      include: "attachments,custom_fields"
    })
    expect(query.fields).toEqual(["id", "remote_id", "candidate_id"])
    expect(query.expand).toEqual(["documents"])
    expect(query.include).toEqual(["attachments", "custom_fields"])
    expect(decode(AtsListApplicationsParams)({ fields: "" }).fields).toEqual([])
  })

  it("decode raw from true/false only", () => {
    expect(decode(AtsGetApplicationParams)({ raw: "true" }).raw).toBe(true)
    expect(decode(AtsGetApplicationParams)({ raw: "false" }).raw).toBe(false)
    expect(issues(AtsGetApplicationParams, { raw: "yes" }))
      .toContainEqual({ path: "raw", message: "raw must be true or false" })
    expect(Schema.encodeSync(AtsGetApplicationParams)({ raw: true })).toEqual({ raw: "true" })
  })

  it("nest bracketed filter keys and proxy keys", () => {
    const query = decode(AtsListApplicationsParams)({
      "filter[updated_after]": T,
      "filter[created_after]": "2020-01-01T00:00:00Z",
      "filter[job_id]": "job-1",
      "filter[stage]": "screen",
      "filter[application_stage_id]": "st-1",
      "proxy[custom]": "x",
      "proxy[tags]": ["a", "b"],
      next: "cursor-1",
      page_size: "50",
      job_id: "deprecated-job"
    })
    expect(query).toEqual({
      filter: {
        updated_after: T,
        created_after: "2020-01-01T00:00:00Z",
        job_id: "job-1",
        stage: "screen",
        application_stage_id: "st-1"
      },
      proxy: { custom: "x", tags: ["a", "b"] },
      next: "cursor-1",
      page_size: 50,
      job_id: "deprecated-job"
    })
  })

  it("leave filter and proxy out when none is given, and ignore unknown bare keys", () => {
    expect(decode(AtsListApplicationsParams)({ page: "2", sync_token: T, something: "else" })).toEqual({
      page: "2",
      sync_token: T
    })
  })

  it("reject a sync_token that is not the time of the previous sync", () => {
    expect(issues(AtsListApplicationsParams, { sync_token: "s" })[0]!.path).toBe("sync_token")
  })

  it("reject a filter key the operation does not list, naming it", () => {
    expect(issues(AtsListApplicationsParams, { "filter[email]": "a@b.c" })).toEqual([{
      path: "filter[email]",
      message:
        "unsupported filter key; this operation accepts filter[updated_after], filter[created_after], filter[job_id], filter[stage], filter[application_stage_id]"
    }])
    expect(issues(AtsListCandidatesParams, { "filter[job_id]": "j" })[0]!.path).toBe("filter[job_id]")
    expect(decode(AtsListCandidatesParams)({ "filter[email]": "a@b.c" }).filter).toEqual({ email: "a@b.c" })
    expect(issues(AtsListDocumentsParams, { "filter[type]": "resume", "filter[created_after]": T })[0]!.path)
      .toBe("filter[created_after]")
    expect(issues(AtsGetApplicationParams, { "filter[updated_after]": T })).toEqual([{
      path: "filter[updated_after]",
      message: "this operation accepts no filter"
    }])
    expect(issues(HrisGetEmployeeDocumentCategoryParams, { "filter[x]": "1" })[0]!.path).toBe("filter[x]")
  })

  it("validate filter values", () => {
    expect(issues(AtsListApplicationsParams, { "filter[updated_after]": "yesterday" })).toContainEqual({
      path: "filter[updated_after]",
      message: "must be an ISO 8601 date-time, e.g. 2020-01-01T00:00:00.000Z"
    })
    expect(issues(AtsListApplicationsParams, { updated_after: "2020-13-45T00:00:00Z" })[0]!.path).toBe("updated_after")
    expect(Either.isLeft(decodeEither(AtsListApplicationsParams)({ "filter[job_id]": ["a", "b"] }))).toBe(true)
    expect(decode(AtsListApplicationChangesParams)({ "filter[change_type]": "interview_stage" }).filter)
      .toEqual({ change_type: "interview_stage" })
    expect(issues(AtsListApplicationChangesParams, { "filter[change_type]": "moved" })[0]!.path)
      .toBe("filter[change_type]")
    expect(issues(AtsListApplicationChangesParams, { "filter[updated_after]": T })[0]!.path)
      .toBe("filter[updated_after]")
  })

  it("bound page_size to 1..UNIFIED_MAX_PAGE_SIZE", () => {
    expect(UNIFIED_MAX_PAGE_SIZE).toBe(200)
    expect(decode(AtsListApplicationsParams)({ page_size: "1" }).page_size).toBe(1)
    expect(decode(AtsListApplicationsParams)({ page_size: "200" }).page_size).toBe(200)
    for (const bad of ["0", "201", "-5", "2.5", "ten", ""]) {
      const found = issues(AtsListApplicationsParams, { page_size: bad })
      expect(found[0]!.path).toBe("page_size")
      expect(found.map(({ message }) => message).join(" ")).toMatch(/page_size|Expected|NumberFromString/)
    }
    expect(issues(AtsListApplicationsParams, { page_size: "500" })).toContainEqual({
      path: "page_size",
      message: "page_size must be an integer between 1 and 200"
    })
  })

  it("encode back to the flat wire form", () => {
    const wire = {
      raw: "true",
      fields: ["id", "remote_id"],
      page_size: "25",
      "filter[updated_after]": T,
      "proxy[custom]": "x"
    }
    const query = decode(AtsListApplicationsParams)(wire)
    expect(Schema.encodeSync(AtsListApplicationsParams)(query)).toEqual(wire)
    expect(Schema.encodeSync(AtsListApplicationsParams)({ filter: { job_id: "j" }, proxy: { a: ["1", "2"] } }))
      .toEqual({ "filter[job_id]": "j", "proxy[a]": ["1", "2"] })
  })

  describe("LMS user assignments", () => {
    it("accept filter keys bracketed or bare, and bare unknown keys as proxy", () => {
      const query = decode(LmsListUserAssignmentsParams)({
        status: "in_progress",
        user_id: "u1",
        remote_user_id: "r1",
        updated_after: T,
        page_size: "10",
        custom: "c",
        "proxy[other]": "o"
      })
      expect(query).toEqual({
        filter: { status: "in_progress" },
        user_id: "u1",
        remote_user_id: "r1",
        updated_after: T,
        page_size: 10,
        proxy: { custom: "c", other: "o" }
      })
    })

    it("prefer the bracketed filter key over the bare one", () => {
      expect(decode(LmsListUserAssignmentsParams)({ "filter[status]": "completed", status: "pending" }).filter)
        .toEqual({ status: "completed" })
      expect(decode(LmsListUserAssignmentsParams)({ status: "pending", "filter[status]": "completed" }).filter)
        .toEqual({ status: "completed" })
    })

    it("validate filter values and reject unknown bracketed filter keys", () => {
      expect(Either.isLeft(decodeEither(LmsListUserAssignmentsParams)({ status: "done" }))).toBe(true)
      expect(Either.isLeft(decodeEither(LmsListUserAssignmentsParams)({ "filter[status]": "done" }))).toBe(true)
      expect(issues(LmsListUserAssignmentsParams, { "filter[user_id]": "u" })[0]!.path).toBe("filter[user_id]")
      expect(decode(LmsListUserAssignmentsParams)({ "filter[updated_after]": T }).filter).toEqual({ updated_after: T })
    })
  })

  it("headers: x-account-id required, prefer optional", () => {
    expect(decode(UnifiedHeaders)({ "x-account-id": "acc", prefer: "heartbeat" })).toEqual({
      "x-account-id": "acc",
      prefer: "heartbeat"
    })
    expect(decode(UnifiedHeaders)({ "x-account-id": "acc" })).toEqual({ "x-account-id": "acc" })
    expect(Either.isLeft(decodeEither(UnifiedHeaders)({}))).toBe(true)
    expect(Either.isLeft(decodeEither(UnifiedHeaders)({ "x-account-id": "" }))).toBe(true)
  })
})

/** Field names of the records, as the spec's table lists them (`fields` parameter). */
const specFields = {
  application:
    "id, remote_id, candidate_id, remote_candidate_id, job_id, remote_job_id, job_posting_id, remote_job_posting_id, interview_stage, interview_stage_id, remote_interview_stage_id, application_stage, application_stage_id, remote_application_stage_id, rejected_reason, rejected_reason_id, remote_rejected_reason_id, rejected_reason_ids, remote_rejected_reason_ids, rejected_reasons, rejected_at, location_id, remote_location_id, location_ids, remote_location_ids, status, application_status, questionnaires, attachments, result_links, source, created_at, updated_at, documents, custom_fields, candidate, unified_custom_fields",
  offer:
    "id, remote_id, application_id, remote_application_id, start_date, offer_status, salary, currency, created_at, updated_at, offer_history, unified_custom_fields",
  scorecard:
    "id, remote_id, sections, label, candidate_id, remote_candidate_id, application_id, remote_application_id, interview_id, remote_interview_id, author_id, remote_author_id, overall_recommendation, created_at, updated_at, unified_custom_fields",
  change: "event_id, remote_event_id, created_at, effective_at, change_type, actor, new_values, unified_custom_fields",
  interview:
    "id, remote_id, application_id, remote_application_id, interview_stage_id, remote_interview_stage_id, interview_stage, status, interview_status, interviewer_ids, remote_interviewer_ids, interview_parts, interviewers, start_at, end_at, meeting_url, created_at, updated_at, unified_custom_fields",
  document:
    "id, remote_id, name, type, category, category_id, remote_category_id, contents, created_at, updated_at, remote_url, file_format, unified_custom_fields",
  candidate:
    "id, remote_id, name, first_name, last_name, email, emails, social_links, phone, phone_numbers, company, country, title, application_ids, remote_application_ids, hired_at, custom_fields, tags, created_at, updated_at, unified_custom_fields",
  category: "id, remote_id, name, active, unified_custom_fields",
  assignment:
    "id, remote_id, external_reference, unified_custom_fields, learning_object_id, remote_learning_object_id, learning_object_external_reference, progress, updated_at, created_at, assigned_at, due_date, completed_at, status, learning_object_type, user_id, remote_user_id, certificate_url, result, course_id, remote_course_id"
}

const enumOf = (value: string | null, source_value: unknown = value) => ({ value, source_value })

const samples = [
  {
    name: "application",
    schema: AtsApplication,
    fields: specFields.application,
    sample: {
      id: "app-1",
      remote_id: "r-app-1",
      candidate_id: "cand-1",
      remote_candidate_id: "r-cand-1",
      job_id: "job-1",
      job_posting_id: null,
      interview_stage: { id: "st-1", name: "Phone screen", order: 1, created_at: T },
      application_stage: { id: "ast-1", name: "Screen", order: 2 },
      rejected_reason: { id: "rr-1", label: "Too junior", rejected_reason_type: enumOf("rejected_by_organization") },
      rejected_reasons: [{ id: "rr-1", label: "Too junior" }],
      rejected_reason_ids: ["rr-1"],
      rejected_at: T,
      location_ids: ["loc-1"],
      status: enumOf("rejected", 42),
      application_status: enumOf("rejected", { raw: "REJ" }),
      questionnaires: [{ id: "q", answers: [{ id: "a", type: enumOf("short_text"), values: ["Yes"] }] }],
      attachments: [{ file_name: "cv.pdf", url: "https://x/cv.pdf", content_type: enumOf("pdf") }],
      result_links: [{ label: "Test", url: "https://x/t" }],
      source: { id: "s", name: "LinkedIn" },
      created_at: T,
      updated_at: T,
      documents: [{ id: "doc-1", name: "cv.pdf", file_format: enumOf("pdf", "application/pdf") }],
      custom_fields: [{ id: "cf", name: "Level", value: 3 }],
      candidate: { first_name: "Ada", emails: [{ type: "personal", value: "ada@example.com" }] },
      unified_custom_fields: { my_field: ["a", 1] }
    }
  },
  {
    name: "offer",
    schema: AtsOffer,
    fields: specFields.offer,
    sample: {
      id: "off-1",
      application_id: "app-1",
      start_date: T,
      offer_status: enumOf("accepted"),
      salary: 100000,
      currency: "EUR",
      offer_history: [{ start_date: T, salary: 95000, currency: "EUR" }]
    }
  },
  {
    name: "scorecard",
    schema: AtsScorecard,
    fields: specFields.scorecard,
    sample: {
      id: "sc-1",
      label: "Technical",
      sections: [{
        id: "sec",
        label: "Skills",
        fields: [{ id: "f", type: "score", values: ["1", "5"], required: "true" }]
      }],
      overall_recommendation: "strong_yes",
      interview_id: "int-1",
      unified_custom_fields: null
    }
  },
  {
    name: "application change",
    schema: AtsApplicationChange,
    fields: specFields.change,
    sample: {
      event_id: "ev-1",
      remote_event_id: "r-ev-1",
      created_at: T,
      effective_at: T,
      change_type: enumOf("application_status", "StatusChange"),
      actor: { id: "u-1", remote_id: "r-u-1" },
      new_values: { application_status: enumOf("hired"), rejected_reason_ids: [] }
    }
  },
  {
    name: "scheduled interview",
    schema: AtsScheduledInterview,
    fields: specFields.interview,
    sample: {
      id: "si-1",
      application_id: "app-1",
      interview_stage: { id: "st-1", name: "Onsite" },
      status: enumOf("scheduled"),
      interview_status: enumOf("scheduled"),
      interviewer_ids: ["u-1"],
      interview_parts: [{ id: "p-1", type: enumOf("video"), start_at: T, end_at: T, meeting_provider: "zoom" }],
      interviewers: [{ id: "u-1", name: "Grace", email: "grace@example.com" }],
      meeting_url: "https://meet/x"
    }
  },
  {
    name: "document",
    schema: AtsDocument,
    fields: specFields.document,
    sample: {
      id: "doc-1",
      name: "cv.pdf",
      type: enumOf("resume"),
      category: enumOf("resume"),
      category_id: "c-1",
      remote_category_id: "r-c-1",
      contents: [{ url: "https://x", unified_url: "https://y", file_format: enumOf("pdf") }],
      remote_url: "https://x",
      file_format: enumOf("pdf")
    }
  },
  {
    name: "candidate",
    schema: AtsCandidate,
    fields: specFields.candidate,
    sample: {
      id: "cand-1",
      name: "Ada Lovelace",
      emails: [{ type: "work", value: "ada@example.com" }],
      phone_numbers: [{ type: "mobile", phone: "+441234" }],
      social_links: [{ type: "linkedin", url: "https://linkedin/ada" }],
      application_ids: ["app-1"],
      hired_at: T,
      tags: [{ name: "senior" }],
      custom_fields: [{ name: "x", value: { nested: true } }]
    }
  },
  {
    name: "note",
    schema: AtsNote,
    fields: undefined,
    sample: {
      id: "n-1",
      content: [{ body: "Great call" }],
      author_id: "u-1",
      visibility: enumOf("private"),
      deleted_at: null
    }
  },
  {
    name: "employee document category",
    schema: HrisEmployeeDocumentCategory,
    fields: specFields.category,
    sample: { id: "cat-1", remote_id: "r-cat-1", name: "Contracts", active: true, unified_custom_fields: {} }
  },
  {
    name: "LMS assignment",
    schema: LmsAssignment,
    fields: specFields.assignment,
    sample: {
      id: "as-1",
      external_reference: "ext",
      learning_object_id: "lo-1",
      progress: "40",
      assigned_at: T,
      due_date: T,
      status: enumOf("in_progress", "IN_PROGRESS"),
      learning_object_type: { source_value: "course" },
      result: { source_value: "Pass" },
      user_id: "u-1",
      course_id: "c-1"
    }
  }
] as const

describe("unified records", () => {
  describe.each(samples)("$name", ({ fields, sample, schema }) => {
    const codec = schema as unknown as Schema.Schema<unknown, unknown>

    it("round-trips a sample through JSON", () => {
      const decoded = Schema.decodeUnknownSync(codec)(sample)
      const wire = JSON.parse(JSON.stringify(Schema.encodeSync(codec)(decoded)))
      expect(wire).toEqual(sample)
      expect(Schema.decodeUnknownSync(codec)(wire)).toEqual(decoded)
    })

    it("needs only its identifier; every other field may be absent or null", () => {
      const idKey = "event_id" in (schema as any).fields ? "event_id" : "id"
      expect(Schema.decodeUnknownSync(codec)({ [idKey]: "x" })).toEqual({ [idKey]: "x" })
      expect(Either.isLeft(Schema.decodeUnknownEither(codec)({}))).toBe(true)
      const allNull = Object.fromEntries(Object.keys((schema as any).fields).map((key) => [key, null]))
      expect(Schema.decodeUnknownSync(codec)({ ...allNull, [idKey]: "x" })).toEqual({ ...allNull, [idKey]: "x" })
    })

    it("has exactly the spec's field names", () => {
      if (fields === undefined) return
      expect(Object.keys((schema as any).fields)).toEqual(fields.split(", "))
    })
  })

  it("drops fields outside the contract when encoding (source_value-only objects stay so)", () => {
    const encoded = Schema.encodeSync(LmsAssignment)({
      id: "a",
      result: { source_value: "Pass", value: "pass" } as any,
      extra: 1
    } as any)
    expect(encoded).toEqual({ id: "a", result: { source_value: "Pass" } })
  })

  it("wrap records in list and get envelopes", () => {
    const list = {
      data: [samples[0].sample],
      next: "cursor",
      raw: [{
        method: "GET",
        url: "https://provider/apps",
        body: null,
        response: { status: 200, headers: {}, body: [] }
      }]
    }
    expect(JSON.parse(JSON.stringify(Schema.encodeSync(AtsApplicationsList)(decode(AtsApplicationsList)(list)))))
      .toEqual(list)
    expect(decode(AtsApplicationResult)({ data: samples[0].sample, raw: null }).raw).toBeNull()
    expect(Either.isLeft(decodeEither(AtsApplicationsList)({ data: [] }))).toBe(true)
    expect(decode(LmsAssignmentsList)({ data: [], next: null, raw: null })).toEqual({ data: [], next: null, raw: null })
  })

  it("write, create and write-result responses", () => {
    const write = { statusCode: 200, message: "Record updated successfully.", timestamp: T }
    expect(Schema.encodeSync(WriteResponse)(decode(WriteResponse)(write))).toEqual(write)
    expect(Schema.encodeSync(WriteResponse)({ ...write, data: { id: "x" } } as any)).toEqual(write)
    const created = { ...write, statusCode: 201, data: { id: "new", remote_id: "r-new" } }
    expect(Schema.encodeSync(CreateResponse)(decode(CreateResponse)(created))).toEqual(created)
    const result = { ...write, statusCode: 201, unified_warnings: [{ message: "renamed file" }] }
    expect(Schema.encodeSync(WriteResult)(decode(WriteResult)(result))).toEqual(result)
  })
})

describe("unified request bodies", () => {
  it("create application: nested candidate, questionnaires and documents", () => {
    const body = decode(AtsCreateApplicationRequest)({
      job_id: "job-1",
      application_status: { value: "new" },
      questionnaires: [{ id: "q", answers: [{ id: "a", type: { value: "boolean" }, values: ["true"] }] }],
      source: { name: "Careers page" },
      candidate: { first_name: "Ada", email: "ada@example.com", hired_at: null, phone_numbers: [{ phone: "+1" }] },
      documents: [{ name: "cv.pdf", content: "aGVsbG8=", category: { value: "resume" } }],
      passthrough: { anything: [1, 2] },
      unknown_key: "accepted"
    })
    expect(body.documents?.[0]?.content).toEqual(new TextEncoder().encode("hello"))
    expect(body.candidate?.first_name).toBe("Ada")
    expect("unknown_key" in body).toBe(false)
  })

  it("upload document: base64 content decoded, malformed content rejected", () => {
    const body = decode(AtsUploadDocumentRequest)({
      name: "cv.pdf",
      file_format: { value: "pdf" },
      content: "JVBERi0=",
      confidential: { value: "false" },
      category: { value: "resume", source_value: "CV" }
    })
    expect(body.content).toEqual(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]))
    expect(Schema.encodeSync(AtsUploadDocumentRequest)(body).content).toBe("JVBERi0=")
    expect(Either.isLeft(decodeEither(AtsUploadDocumentRequest)({ content: "not base64!!" }))).toBe(true)
  })

  it("update, move, reject and note bodies", () => {
    expect(decode(AtsUpdateApplicationRequest)({ application_status: { value: "hired", source_value: "H" } }))
      .toEqual({ application_status: { value: "hired", source_value: "H" } })
    expect(decode(AtsMoveApplicationRequest)({ interview_stage_id: "st-2" })).toEqual({ interview_stage_id: "st-2" })
    expect(decode(AtsRejectApplicationRequest)({ rejected_reason_id: "rr", passthrough: { note: "x" } }))
      .toEqual({ rejected_reason_id: "rr", passthrough: { note: "x" } })
    expect(decode(AtsUpdateNoteRequest)({ content: [{ body: "Updated" }], visibility: { value: "public" } }))
      .toEqual({ content: [{ body: "Updated" }], visibility: { value: "public" } })
    expect(Either.isLeft(decodeEither(AtsMoveApplicationRequest)({ interview_stage_id: 3 }))).toBe(true)
    expect(decode(AtsCreateCandidateRequest)({})).toEqual({})
  })

  it("assessment result: score strings, nullable dates, no null score", () => {
    const body = {
      score: { label: "Score", value: "80", min: "0", max: "100" },
      start_date: T,
      submission_date: null,
      summary: null,
      result: { value: "passed", source_value: "PASS" },
      result_url: "https://x/result",
      attachments: [{ url: "https://x/a.pdf", content_type: { value: "pdf" } }],
      candidate: { id: "c", profile_url: "https://x/c" },
      passthrough: {}
    }
    expect(decode(AtsUpdateAssessmentResultRequest)(body)).toEqual(body)
    expect(Either.isLeft(decodeEither(AtsUpdateAssessmentResultRequest)({ score: { value: 80 } }))).toBe(true)
    expect(Either.isLeft(decodeEither(AtsUpdateAssessmentResultRequest)({ score: null }))).toBe(true)
    expect(Either.isLeft(decodeEither(AtsUpdateAssessmentResultRequest)({ start_date: "soon" }))).toBe(true)
  })

  it("update employee: every group of the spec table", () => {
    const body = {
      first_name: "Ada",
      job_title: "Engineer",
      date_of_birth: "1990-01-01T00:00:00.000Z",
      termination_date: null,
      gender: { value: "female", source_value: "F" },
      avatar: { value: "https://x/avatar.png", source_value: null },
      citizenships: [{ value: "GB", source_value: "United Kingdom" }],
      employment: {
        job_title: "Engineer",
        pay_rate: "100000",
        pay_period: { value: "year" },
        grade: { id: "g", name: "L5" },
        type: { id: "t", label: "Permanent", type: { value: "permanent" } },
        contract_type: { label: "Full time", contract_type: { value: "full_time" } },
        work_time: { duration: "P0Y0M0DT8H0M0S", period: { value: "day" } },
        effective_date: null
      },
      custom_fields: [{ id: "cf", name: "Shirt", value: "M" }],
      benefits: [{ id: "b", name: "Pension", benefit_type: { source_value: "401k" }, created_at: T }],
      national_identity_number: { value: "AB123", type: { value: "nin" }, country: { value: "GB" } },
      national_identity_numbers: [{ value: "AB123", type: { value: "nin" }, country: { value: "GB" } }],
      home_location: { street_1: "1 Road", city: "London", country: { value: "GB" }, state: { value: "GB-LND" } },
      work_location: null,
      passthrough: null
    }
    expect(decode(HrisUpdateEmployeeRequest)(body)).toEqual(body)
    expect(decode(HrisUpdateEmployeeRequest)({})).toEqual({})
    expect(Either.isLeft(decodeEither(HrisUpdateEmployeeRequest)({ hire_date: "01/02/2020" }))).toBe(true)
    expect(Either.isLeft(decodeEither(HrisUpdateEmployeeRequest)({ employment: { pay_rate: 100 } }))).toBe(true)
  })
})

const operations = {
  unified_ats: [
    ["ats_list_applications", "get", "/unified/ats/applications"],
    ["ats_create_application", "post", "/unified/ats/applications"],
    ["ats_get_application", "get", "/unified/ats/applications/{id}"],
    ["ats_update_application", "patch", "/unified/ats/applications/{id}"],
    ["ats_list_applications_offers", "get", "/unified/ats/applications/{id}/offers"],
    ["ats_move_application", "post", "/unified/ats/applications/{id}/move"],
    ["ats_reject_application", "post", "/unified/ats/applications/{id}/reject"],
    ["ats_get_application_offer", "get", "/unified/ats/applications/{id}/offers/{subResourceId}"],
    ["ats_list_application_scorecards", "get", "/unified/ats/applications/{id}/scorecards"],
    ["ats_get_application_scorecard", "get", "/unified/ats/applications/{id}/scorecards/{subResourceId}"],
    ["ats_list_application_changes", "get", "/unified/ats/applications/{id}/changes"],
    ["ats_list_application_notes", "get", "/unified/ats/applications/{id}/notes"],
    ["ats_create_application_note", "post", "/unified/ats/applications/{id}/notes"],
    ["ats_get_application_note", "get", "/unified/ats/applications/{id}/notes/{subResourceId}"],
    ["ats_update_application_note", "patch", "/unified/ats/applications/{id}/notes/{subResourceId}"],
    ["ats_list_applications_scheduled_interviews", "get", "/unified/ats/applications/{id}/scheduled_interviews"],
    ["ats_get_application_scheduled_interview", "get", "/unified/ats/applications/{id}/scheduled_interviews/{subResourceId}"],
    ["ats_upload_application_document", "post", "/unified/ats/applications/{id}/documents/upload"],
    ["ats_download_application_document", "get", "/unified/ats/applications/{id}/documents/{subResourceId}/download"],
    ["ats_list_application_documents", "get", "/unified/ats/applications/{id}/documents"],
    ["ats_get_application_document", "get", "/unified/ats/applications/{id}/documents/{subResourceId}"],
    ["ats_list_candidates", "get", "/unified/ats/candidates"],
    ["ats_create_candidate", "post", "/unified/ats/candidates"],
    ["ats_get_candidate", "get", "/unified/ats/candidates/{id}"],
    ["ats_update_candidate", "patch", "/unified/ats/candidates/{id}"],
    ["ats_list_candidate_notes", "get", "/unified/ats/candidates/{id}/notes"],
    ["ats_create_candidate_note", "post", "/unified/ats/candidates/{id}/notes"],
    ["ats_get_candidate_note", "get", "/unified/ats/candidates/{id}/notes/{subResourceId}"],
    ["ats_list_application_custom_field_definitions", "get", "/unified/ats/custom_field_definitions/applications"],
    ["ats_get_application_custom_field_definition", "get", "/unified/ats/custom_field_definitions/applications/{id}"],
    ["ats_list_candidate_custom_field_definitions", "get", "/unified/ats/custom_field_definitions/candidates"],
    ["ats_get_candidate_custom_field_definition", "get", "/unified/ats/custom_field_definitions/candidates/{id}"],
    ["ats_list_job_custom_field_definitions", "get", "/unified/ats/custom_field_definitions/jobs"],
    ["ats_get_job_custom_field_definition", "get", "/unified/ats/custom_field_definitions/jobs/{id}"],
    ["ats_list_departments", "get", "/unified/ats/departments"],
    ["ats_get_department", "get", "/unified/ats/departments/{id}"],
    ["ats_list_interview_stages", "get", "/unified/ats/interview_stages"],
    ["ats_get_interview_stage", "get", "/unified/ats/interview_stages/{id}"],
    ["ats_list_application_stages", "get", "/unified/ats/application_stages"],
    ["ats_get_application_stage", "get", "/unified/ats/application_stages/{id}"],
    ["ats_list_interviews", "get", "/unified/ats/interviews"],
    ["ats_get_interview", "get", "/unified/ats/interviews/{id}"],
    ["ats_create_interview_note", "post", "/unified/ats/interviews/{id}/notes"],
    ["ats_update_interview_note", "patch", "/unified/ats/interviews/{id}/notes/{subResourceId}"],
    ["ats_list_jobs", "get", "/unified/ats/jobs"],
    ["ats_create_job", "post", "/unified/ats/jobs"],
    ["ats_list_job_application_stages", "get", "/unified/ats/jobs/{id}/application_stages"],
    ["ats_get_job", "get", "/unified/ats/jobs/{id}"],
    ["ats_update_job", "patch", "/unified/ats/jobs/{id}"],
    ["ats_get_job_application_stage", "get", "/unified/ats/jobs/{id}/application_stages/{subResourceId}"],
    ["ats_list_lists", "get", "/unified/ats/lists"],
    ["ats_get_list", "get", "/unified/ats/lists/{id}"],
    ["ats_list_locations", "get", "/unified/ats/locations"],
    ["ats_get_location", "get", "/unified/ats/locations/{id}"],
    ["ats_list_rejected_reasons", "get", "/unified/ats/rejected_reasons"],
    ["ats_get_rejected_reason", "get", "/unified/ats/rejected_reasons/{id}"],
    ["ats_list_users", "get", "/unified/ats/users"],
    ["ats_get_user", "get", "/unified/ats/users/{id}"],
    ["ats_list_job_postings", "get", "/unified/ats/job_postings"],
    ["ats_get_job_posting", "get", "/unified/ats/job_postings/{id}"],
    ["ats_list_offers", "get", "/unified/ats/offers"],
    ["ats_create_offer", "post", "/unified/ats/offers"],
    ["ats_get_offer", "get", "/unified/ats/offers/{id}"],
    ["ats_list_assessments_packages", "get", "/unified/ats/assessments/packages"],
    ["ats_get_assessments_package", "get", "/unified/ats/assessments/packages/{id}"],
    ["ats_order_assessments_request", "post", "/unified/ats/assessments/orders"],
    ["ats_update_assessments_result", "patch", "/unified/ats/assessments/orders/{id}/result"],
    ["ats_list_background_check_packages", "get", "/unified/ats/background_checks/packages"],
    ["ats_create_background_check_package", "post", "/unified/ats/background_checks/packages"],
    ["ats_get_background_check_package", "get", "/unified/ats/background_checks/packages/{id}"],
    ["ats_update_background_check_package", "patch", "/unified/ats/background_checks/packages/{id}"],
    ["ats_delete_background_check_package", "delete", "/unified/ats/background_checks/packages/{id}"],
    ["ats_order_background_check_request", "post", "/unified/ats/background_checks/orders"],
    ["ats_update_background_check_result", "patch", "/unified/ats/background_checks/orders/{id}/result"],
    ["ats_list_application_document_categories", "get", "/unified/ats/documents/application_categories"],
    ["ats_get_application_document_category", "get", "/unified/ats/documents/application_categories/{id}"]
  ],
  // every operation of the reference documents (StackOne hris.json and lms.json)
  unified_hris: [
    ["hris_list_companies", "get", "/unified/hris/companies"],
    ["hris_get_company", "get", "/unified/hris/companies/{id}"],
    ["hris_list_employee_custom_field_definitions", "get", "/unified/hris/custom_field_definitions/employees"],
    ["hris_get_employee_custom_field_definition", "get", "/unified/hris/custom_field_definitions/employees/{id}"],
    ["hris_list_employees", "get", "/unified/hris/employees"],
    ["hris_create_employee", "post", "/unified/hris/employees"],
    ["hris_get_employee", "get", "/unified/hris/employees/{id}"],
    ["hris_update_employee", "patch", "/unified/hris/employees/{id}"],
    ["hris_invite_employee", "post", "/unified/hris/employees/{id}/invite"],
    ["hris_list_employee_shifts", "get", "/unified/hris/employees/{id}/shifts"],
    ["hris_get_employee_shift", "get", "/unified/hris/employees/{id}/shifts/{subResourceId}"],
    ["hris_list_employee_time_off_requests", "get", "/unified/hris/employees/{id}/time_off"],
    ["hris_create_employee_time_off_request", "post", "/unified/hris/employees/{id}/time_off"],
    ["hris_get_employees_time_off_request", "get", "/unified/hris/employees/{id}/time_off/{subResourceId}"],
    ["hris_update_employee_time_off_request", "patch", "/unified/hris/employees/{id}/time_off/{subResourceId}"],
    ["hris_cancel_employee_time_off_request", "delete", "/unified/hris/employees/{id}/time_off/{subResourceId}"],
    ["hris_batch_upload_employee_document", "post", "/unified/hris/employees/{id}/documents/upload/batch"],
    ["hris_upload_employee_document", "post", "/unified/hris/employees/{id}/documents/upload"],
    ["hris_download_employee_document", "get", "/unified/hris/employees/{id}/documents/{subResourceId}/download"],
    ["hris_list_employee_documents", "get", "/unified/hris/employees/{id}/documents"],
    ["hris_get_employee_document", "get", "/unified/hris/employees/{id}/documents/{subResourceId}"],
    ["hris_list_employee_categories", "get", "/unified/hris/documents/employee_categories"],
    ["hris_get_employee_document_category", "get", "/unified/hris/documents/employee_categories/{id}"],
    ["hris_list_employee_work_eligibility", "get", "/unified/hris/employees/{id}/work_eligibility"],
    ["hris_create_employee_work_eligibility_request", "post", "/unified/hris/employees/{id}/work_eligibility"],
    ["hris_get_employees_work_eligibility", "get", "/unified/hris/employees/{id}/work_eligibility/{subResourceId}"],
    ["hris_update_employee_work_eligibility_request", "patch", "/unified/hris/employees/{id}/work_eligibility/{subResourceId}"],
    ["hris_list_employee_time_off_balances", "get", "/unified/hris/employees/{id}/time_off_balances"],
    ["hris_get_employee_time_off_balance", "get", "/unified/hris/employees/{id}/time_off_balances/{subResourceId}"],
    ["hris_list_employments", "get", "/unified/hris/employments"],
    ["hris_get_employment", "get", "/unified/hris/employments/{id}"],
    ["hris_list_employee_employments", "get", "/unified/hris/employees/{id}/employments"],
    ["hris_create_employee_employment", "post", "/unified/hris/employees/{id}/employments"],
    ["hris_get_employee_employment", "get", "/unified/hris/employees/{id}/employments/{subResourceId}"],
    ["hris_update_employee_employment", "patch", "/unified/hris/employees/{id}/employments/{subResourceId}"],
    ["hris_list_groups", "get", "/unified/hris/groups"],
    ["hris_list_department_groups", "get", "/unified/hris/groups/departments"],
    ["hris_list_cost_center_groups", "get", "/unified/hris/groups/cost_centers"],
    ["hris_list_team_groups", "get", "/unified/hris/groups/teams"],
    ["hris_list_division_groups", "get", "/unified/hris/groups/divisions"],
    ["hris_list_companies_groups", "get", "/unified/hris/groups/companies"],
    ["hris_get_group", "get", "/unified/hris/groups/{id}"],
    ["hris_get_department_group", "get", "/unified/hris/groups/departments/{id}"],
    ["hris_get_cost_center_group", "get", "/unified/hris/groups/cost_centers/{id}"],
    ["hris_get_team_group", "get", "/unified/hris/groups/teams/{id}"],
    ["hris_get_division_group", "get", "/unified/hris/groups/divisions/{id}"],
    ["hris_get_company_group", "get", "/unified/hris/groups/companies/{id}"],
    ["hris_list_jobs", "get", "/unified/hris/jobs"],
    ["hris_get_job", "get", "/unified/hris/jobs/{id}"],
    ["hris_list_locations", "get", "/unified/hris/locations"],
    ["hris_get_location", "get", "/unified/hris/locations/{id}"],
    ["hris_list_positions", "get", "/unified/hris/positions"],
    ["hris_get_position", "get", "/unified/hris/positions/{id}"],
    ["hris_list_time_entries", "get", "/unified/hris/time_entries"],
    ["hris_get_time_entries", "get", "/unified/hris/time_entries/{id}"],
    ["hris_list_time_off_requests", "get", "/unified/hris/time_off"],
    ["hris_get_time_off_request", "get", "/unified/hris/time_off/{id}"],
    ["hris_list_shifts", "get", "/unified/hris/shifts"],
    ["hris_get_shift", "get", "/unified/hris/shifts/{id}"],
    ["hris_list_time_off_types", "get", "/unified/hris/time_off_types"],
    ["hris_get_time_off_type", "get", "/unified/hris/time_off_types/{id}"],
    ["hris_list_time_off_policies", "get", "/unified/hris/time_off_policies"],
    ["hris_get_time_off_policy", "get", "/unified/hris/time_off_policies/{id}"],
    ["hris_list_employee_time_off_policies", "get", "/unified/hris/employees/{id}/time_off_policies"],
    ["hris_list_benefits", "get", "/unified/hris/benefits"],
    ["hris_get_benefit", "get", "/unified/hris/benefits/{id}"],
    ["hris_list_employee_skills", "get", "/unified/hris/employees/{id}/skills"],
    ["hris_create_employee_skill", "post", "/unified/hris/employees/{id}/skills"],
    ["hris_get_employee_skill", "get", "/unified/hris/employees/{id}/skills/{subResourceId}"],
    ["hris_list_employee_tasks", "get", "/unified/hris/employees/{id}/tasks"],
    ["hris_get_employee_task", "get", "/unified/hris/employees/{id}/tasks/{subResourceId}"],
    ["hris_update_employee_task", "patch", "/unified/hris/employees/{id}/tasks/{subResourceId}"],
    ["hris_list_tasks", "get", "/unified/hris/tasks"],
    ["hris_get_task", "get", "/unified/hris/tasks/{id}"]
  ],
  unified_lms: [
    ["lms_list_courses", "get", "/unified/lms/courses"],
    ["lms_get_course", "get", "/unified/lms/courses/{id}"],
    ["lms_list_user_assignments", "get", "/unified/lms/users/{id}/assignments"],
    ["lms_create_user_assignment", "post", "/unified/lms/users/{id}/assignments"],
    ["lms_get_user_assignment", "get", "/unified/lms/users/{id}/assignments/{subResourceId}"],
    ["lms_batch_upsert_content", "post", "/unified/lms/content/batch"],
    ["lms_upsert_content", "put", "/unified/lms/content"],
    ["lms_list_content", "get", "/unified/lms/content"],
    ["lms_get_content", "get", "/unified/lms/content/{id}"],
    ["lms_list_user_completions", "get", "/unified/lms/users/{id}/completions"],
    ["lms_create_user_completion", "post", "/unified/lms/users/{id}/completions"],
    ["lms_get_user_completion", "get", "/unified/lms/users/{id}/completions/{subResourceId}"],
    ["lms_delete_user_completion", "delete", "/unified/lms/users/{id}/completions/{subResourceId}"],
    ["lms_list_completions", "get", "/unified/lms/completions"],
    ["lms_get_completion", "get", "/unified/lms/completions/{id}"],
    ["lms_get_category", "get", "/unified/lms/categories/{id}"],
    ["lms_list_categories", "get", "/unified/lms/categories"],
    ["lms_list_users", "get", "/unified/lms/users"],
    ["lms_get_user", "get", "/unified/lms/users/{id}"],
    ["lms_get_skill", "get", "/unified/lms/skills/{id}"],
    ["lms_list_skills", "get", "/unified/lms/skills"],
    ["lms_list_assignments", "get", "/unified/lms/assignments"],
    ["lms_get_assignment", "get", "/unified/lms/assignments/{id}"]
  ]
} as const

const allOperations = Object.values(operations).flat()

describe("unified OpenAPI", () => {
  const spec = OpenApi.fromApi(
    HttpApi.make("t").add(UnifiedAtsGroup).add(UnifiedHrisGroup).add(UnifiedLmsGroup)
  ) as any
  const operation = (path: string, method: string) => spec.paths[path]?.[method]
  const parameterNames = (path: string, method: string) =>
    (operation(path, method).parameters as Array<any>).map(({ in: where, name }) => `${where}:${name}`)

  it("generates every operation under its spec operation id, path and method", () => {
    const found = Object.entries(spec.paths).flatMap(([path, methods]: [string, any]) =>
      Object.entries(methods).map(([method, op]: [string, any]) => `${op.operationId} ${method} ${path}`)
    )
    expect(found.sort()).toEqual(allOperations.map(([id, method, path]) => `${id} ${method} ${path}`).sort())
    expect(allOperations).toHaveLength(76 + 74 + 23)
  })

  it("groups the endpoints by name (the client's method names)", () => {
    for (const [group, ops] of Object.entries(operations)) {
      const groupValue = { unified_ats: UnifiedAtsGroup, unified_hris: UnifiedHrisGroup, unified_lms: UnifiedLmsGroup }[
        group as keyof typeof operations
      ]
      expect(groupValue.identifier).toBe(group)
      expect(Object.keys(groupValue.endpoints).sort()).toEqual(ops.map(([id]) => id).sort())
    }
  })

  it("secures every operation with basic auth (or the dashboard's session), requires x-account-id and documents 412", () => {
    for (const [, method, path] of allOperations) {
      const op = operation(path, method)
      expect(op.security).toEqual([{ dashboardSession: [] }, { basic: [] }])
      const header = op.parameters.find((p: any) => p.in === "header" && p.name === "x-account-id")
      expect(header?.required).toBe(true)
      expect(op.parameters.find((p: any) => p.in === "header" && p.name === "prefer")?.required).toBe(false)
      expect(op.responses["412"]).toBeDefined()
      expect(op.responses["401"]).toBeDefined()
    }
  })

  it("documents success codes: 201 for creates, uploads and upserts, 202 for batches, 200 otherwise", () => {
    for (const [id, method, path] of allOperations) {
      const expected = /_batch_/.test(id)
        ? "202"
        : /_create_|_upload_|_upsert_/.test(id) && method !== "patch"
        ? "201"
        : "200"
      expect({ id, codes: Object.keys(operation(path, method).responses).filter((code) => code.startsWith("2")) })
        .toEqual({ id, codes: [expected] })
    }
  })

  it("lists the operation's filter keys literally, plus proxy as a deep object", () => {
    const names = parameterNames("/unified/ats/applications", "get")
    expect(names).toEqual(expect.arrayContaining([
      "query:raw",
      "query:fields",
      "query:filter[updated_after]",
      "query:filter[created_after]",
      "query:filter[job_id]",
      "query:filter[stage]",
      "query:filter[application_stage_id]",
      "query:page",
      "query:page_size",
      "query:next",
      "query:updated_after",
      "query:sync_token",
      "query:expand",
      "query:include",
      "query:job_id",
      "query:proxy"
    ]))
    const proxy = operation("/unified/ats/applications", "get").parameters.find((p: any) => p.name === "proxy")
    expect(proxy).toMatchObject({ style: "deepObject", explode: true, schema: { type: "object" } })
    const deprecated = operation("/unified/ats/applications", "get").parameters
      .filter((p: any) => p.deprecated === true)
      .map((p: any) => p.name)
    expect(deprecated.sort()).toEqual(["job_id", "page", "sync_token", "updated_after"])
    const pageSize = operation("/unified/ats/applications", "get").parameters.find((p: any) => p.name === "page_size")
    expect(pageSize.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 200, default: 25 })

    expect(parameterNames("/unified/ats/applications/{id}/changes", "get").filter((n) => n.includes("filter")))
      .toEqual(["query:filter[created_after]", "query:filter[change_type]"])
    expect(parameterNames("/unified/ats/candidates", "get").filter((n) => n.includes("filter")))
      .toEqual(["query:filter[updated_after]", "query:filter[created_after]", "query:filter[email]"])
    expect(parameterNames("/unified/ats/applications/{id}/documents", "get").filter((n) => n.includes("filter")))
      .toEqual(["query:filter[updated_after]", "query:filter[type]"])
    expect(parameterNames("/unified/lms/users/{id}/assignments", "get")).toEqual(expect.arrayContaining([
      "query:user_id",
      "query:remote_user_id",
      "query:filter[updated_after]",
      "query:filter[status]",
      "query:proxy"
    ]))
    expect(parameterNames("/unified/ats/candidates/{id}", "get").filter((n) => n.startsWith("query:")).sort())
      .toEqual(["query:fields", "query:include", "query:proxy", "query:raw"])
  })

  it("documents the download as binary in the document's own media types", () => {
    const op = operation("/unified/ats/applications/{id}/documents/{subResourceId}/download", "get")
    const content = op.responses["200"].content
    expect(Object.keys(content)).toEqual(expect.arrayContaining(["application/pdf", "image/png", "message/rfc822"]))
    expect(content["application/pdf"].schema).toEqual({ type: "string", format: "binary" })
    expect(op.description).toMatch(/document's own media type/)
    expect(parameterNames("/unified/ats/applications/{id}/documents/{subResourceId}/download", "get"))
      .toEqual(expect.arrayContaining(["query:format", "query:export_format"]))
  })

  it("can document unified request bodies as open to extra properties", () => {
    const open = OpenApi.fromApi(
      HttpApi.make("t").add(UnifiedAtsGroup).add(UnifiedHrisGroup).annotate(
        OpenApi.Transform,
        documentOpenUnifiedRequestBodies
      )
    ) as any
    const schemas = open.components.schemas
    expect(spec.components.schemas.AtsCreateApplicationRequest.additionalProperties).toBe(false)
    expect(schemas.AtsCreateApplicationRequest.additionalProperties).toBe(true)
    expect(schemas.AtsApplicationCandidateInput.additionalProperties).toBe(true)
    expect(schemas.AtsUploadDocumentRequest.additionalProperties).toBe(true)
    expect(schemas.HrisUpdateEmployeeRequest.additionalProperties).toBe(true)
    expect(schemas.HrisEmployeeLocationInput.additionalProperties).toBe(true)
    expect(schemas.AtsApplication.additionalProperties).toBe(false)
  })

  it("also generates when added to the platform Api", () => {
    const full = OpenApi.fromApi(Api.add(UnifiedAtsGroup).add(UnifiedHrisGroup).add(UnifiedLmsGroup)) as any
    const ids = Object.values(full.paths)
      .flatMap((methods: any) => Object.values(methods).map((op: any) => op.operationId))
    expect(ids).toEqual(expect.arrayContaining(allOperations.map(([id]) => id)))
    expect(full.components.schemas.HttpApiDecodeError).toBeUndefined()
  })
})

describe("served through HttpApiBuilder", () => {
  /** A test API echoing the decoded query of two operations (other endpoints are never called). */
  const TestApi = HttpApi.make("t").add(UnifiedAtsGroup).add(UnifiedLmsGroup)

  const dieAll = (handlers: any, group: { readonly endpoints: Record<string, unknown> }, served: Record<string, any>) =>
    Object.keys(group.endpoints).reduce(
      (acc, name) => acc.handle(name, served[name] ?? (() => Effect.die("not under test"))),
      handlers
    )

  const echo = (name: string) => ({ urlParams }: any) =>
    Effect.succeed({
      data: [],
      next: null,
      raw: [{ method: name, url: "", body: Schema.encodeSync(Schema.Unknown)(urlParams), response: null }]
    })

  const AtsLive = HttpApiBuilder.group(
    TestApi,
    "unified_ats",
    (handlers) => dieAll(handlers, UnifiedAtsGroup, { ats_list_applications: echo("ats") })
  )
  const LmsLive = HttpApiBuilder.group(
    TestApi,
    "unified_lms",
    (handlers) => dieAll(handlers, UnifiedLmsGroup, { lms_list_user_assignments: echo("lms") })
  )
  const caller = () => Effect.succeed({ organizationId: "o", projectId: "p", apiKeyId: "k", scope: "full_access" as const })
  const AuthLive = Layer.succeed(Authentication, Authentication.of({ dashboardSession: caller, basic: caller }))
  const { dispose, handler } = HttpApiBuilder.toWebHandler(
    Layer.mergeAll(
      HttpApiBuilder.api(TestApi).pipe(
        Layer.provide([AtsLive, LmsLive]),
        Layer.provide(AuthLive)
      ) as Layer.Layer<HttpApi.Api>,
      HttpServer.layerContext
    )
  )

  const call = async (path: string, headers: Record<string, string> = { "x-account-id": "acc" }) => {
    const response = await handler(
      new Request(`http://test${path}`, { headers: { authorization: `Basic ${btoa("key:")}`, ...headers } })
    )
    return { status: response.status, body: await response.json() as any }
  }

  it("decodes bracketed filter and proxy keys from a real query string", async () => {
    const { body, status } = await call(
      "/unified/ats/applications?filter%5Bupdated_after%5D=2020-01-01T00:00:00.000Z&filter[job_id]=j1&proxy[x]=1&proxy[x]=2&fields=id,remote_id&page_size=5&raw=false&stray=1"
    )
    expect(status).toBe(200)
    expect(body.raw[0].body).toEqual({
      filter: { updated_after: "2020-01-01T00:00:00.000Z", job_id: "j1" },
      proxy: { x: ["1", "2"] },
      fields: ["id", "remote_id"],
      page_size: 5,
      raw: false
    })
  })

  it("answers 400 for an unknown filter key, an out-of-range page_size or a missing x-account-id", async () => {
    expect((await call("/unified/ats/applications?filter[email]=a")).status).toBe(400)
    expect((await call("/unified/ats/applications?page_size=201")).status).toBe(400)
    expect((await call("/unified/ats/applications?page_size=0")).status).toBe(400)
    expect((await call("/unified/ats/applications", {})).status).toBe(400)
  })

  it("accepts the LMS filter and proxy keys bare", async () => {
    const { body, status } = await call(
      "/unified/lms/users/u1/assignments?status=in_progress&user_id=u1&custom=c&filter[updated_after]=2020-01-01"
    )
    expect(status).toBe(200)
    expect(body.raw[0].body).toEqual({
      filter: { status: "in_progress", updated_after: "2020-01-01" },
      user_id: "u1",
      proxy: { custom: "c" }
    })
    expect((await call("/unified/lms/users/u1/assignments?status=nope")).status).toBe(400)
    expect((await call("/unified/lms/users/u1/assignments?filter[user_id]=u")).status).toBe(400)
  })

  it("releases the handler", async () => {
    await dispose()
  })
})
