import { type HttpApiEndpoint, HttpClientRequest } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { UnifiedAtsGroup, UnifiedHrisGroup, UnifiedLmsGroup } from "@switchyard/api"
import type { FaultPlan, Sandbox } from "@switchyard/sandbox"
import { Context, Effect, Either, Layer, Option, Schema } from "effect"
import { accountBody, freshProject, keyFor, otherProject, recordingClientFor } from "./support/Fixtures.js"
import { connectorYaml } from "./support/ConnectorYaml.js"
import { applicationWithNote, direct, type Json, SandboxLive, SandboxProviders } from "./support/SandboxLayer.js"
import { exampleValue } from "../src/app/contractCheck/exampleValue.js"
import { TestServer } from "./support/TestServer.js"
import { expectErrorBody, send, withKey, type WireResponse } from "./support/Wire.js"

/*
 * The unified contract, operation by operation: every endpoint of the ATS, HRIS and LMS groups
 * answers each documented error (400, 401, 403, 404, 412, 501 and the provider failures the
 * connectors map), and every read operation honours `fields`, `raw` (credentials redacted),
 * `proxy[...]` and each of its filter keys. One table row per operation; the cases are loops.
 */

/**
 * One retry and a short deadline keep the provider-failure cases quick. The per-attempt
 * timeout is as long as the deadline, so a busy machine never turns a slow answer into a
 * 408; only the server for the hanging-provider cases, where no answer ever comes, has a
 * short one.
 */
const serverWith = (attemptTimeoutMs: number) =>
  Layer.merge(
    TestServer({
      SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1",
      SWITCHYARD_PROVIDER_TIMEOUT_MS: String(attemptTimeoutMs),
      SWITCHYARD_PROVIDER_DEADLINE_MS: "3000",
      SWITCHYARD_PROVIDER_MAX_ATTEMPTS: "2"
    }),
    SandboxLive(17)
  )

type Provider = "ats" | "hris" | "lms"
type Group = "unified_ats" | "unified_hris" | "unified_lms"
type Kind = "list" | "get" | "write" | "download"

/** Ids of seeded sandbox records the operations address. */
interface Seed {
  readonly applicationId: string
  readonly candidateId: string
  readonly jobId: string
  readonly offer: { readonly applicationId: string; readonly id: string }
  readonly scorecard: { readonly applicationId: string; readonly id: string }
  readonly interview: { readonly applicationId: string; readonly id: string }
  readonly note: { readonly applicationId: string; readonly id: string }
  readonly document: { readonly applicationId: string; readonly id: string }
  readonly changesApplicationId: string
  readonly employeeId: string
  readonly categoryId: string
  readonly lmsUserId: string
}

/** A filter key: what it means for a unified record, and a value that narrows the seeded data. */
interface Filter {
  readonly holds: (record: Json, value: string) => boolean
  readonly pick: (records: ReadonlyArray<Json>) => string
  /** The provider query parameter it becomes; absent when the connector filters itself. */
  readonly sentAs?: string
}

interface Operation {
  readonly provider: Provider
  readonly kind: Kind
  readonly path?: (seed: Seed) => Readonly<Record<string, string>>
  /** A valid body (writes). */
  readonly body?: (seed: Seed) => unknown
  /** A request refused with 400 before anything runs (a query, body or account id), and what its message names. */
  readonly invalid: { readonly query?: string; readonly body?: unknown; readonly accountId?: string; readonly says: RegExp }
  /** What a provider 404 becomes by the connector's rules; absent when no built-in connector has the action. */
  readonly providerNotFound?: { readonly status: number; readonly says: RegExp }
  /** Two fields every record of the seeded data has, its identifier not among them (reads). */
  readonly fields?: readonly [string, string]
  readonly filters?: Readonly<Record<string, Filter>>
}

/** Records whose `field` is at or after the median value of the unfiltered records. */
const after = (field: string, sentAs?: string): Filter => ({
  holds: (record, value) => typeof record[field] === "string" && Date.parse(record[field]) >= Date.parse(value),
  pick: (records) => {
    const values = [...new Set(records.map((record) => record[field]).filter((value) => typeof value === "string"))].sort()
    if (values.length < 2) throw new Error(`the seeded records need two distinct ${field} values`)
    return values[Math.floor(values.length / 2)] as string
  },
  ...(sentAs === undefined ? {} : { sentAs })
})

/** Records whose `read(record)` equals the value of the first record that differs from another. */
const equals = (read: (record: Json) => unknown, sentAs?: string): Filter => ({
  holds: (record, value) => String(read(record)).toLowerCase() === value.toLowerCase(),
  pick: (records) => {
    const values = [...new Set(records.map((record) => read(record)).filter((value) => value !== null && value !== undefined))]
    if (values.length < 2) throw new Error("the seeded records need two distinct values for this filter")
    return String(values[0])
  },
  ...(sentAs === undefined ? {} : { sentAs })
})

const atsWrite = (row: Omit<Operation, "provider" | "kind">): Operation => ({ provider: "ats", kind: "write", ...row })

const badPageSize = { query: "page_size=0", says: /page_size must be an integer between 1 and 200/ }
const badRaw = { query: "raw=maybe", says: /raw must be true or false/ }
const applicationPath = (seed: Seed) => ({ id: seed.applicationId })
const applicationNotFound = { status: 404, says: /Application not found/ }

/** Listing an application's sub-resources and getting one of them (the seeded application and record). */
const subResource = (
  record: (seed: Seed) => { readonly applicationId: string; readonly id: string },
  options: { readonly notFound: RegExp; readonly fields: readonly [string, string]; readonly filters: Readonly<Record<string, Filter>> }
) => ({
  list: {
    provider: "ats",
    kind: "list",
    path: (seed) => ({ id: record(seed).applicationId }),
    invalid: badPageSize,
    providerNotFound: applicationNotFound,
    fields: options.fields,
    filters: options.filters
  } satisfies Operation,
  get: {
    provider: "ats",
    kind: "get",
    path: (seed) => ({ id: record(seed).applicationId, subResourceId: record(seed).id }),
    invalid: badRaw,
    providerNotFound: { status: 404, says: options.notFound },
    fields: options.fields
  } satisfies Operation
})

// A filter without `sentAs` is applied by the connector: Greenhouse cannot filter that list.
const offers = subResource((seed) => seed.offer, {
  notFound: /Offer not found/,
  fields: ["offer_status", "updated_at"],
  filters: { updated_after: after("updated_at") }
})
const scorecards = subResource((seed) => seed.scorecard, {
  notFound: /Scorecard not found/,
  fields: ["application_id", "updated_at"],
  filters: { updated_after: after("updated_at") }
})
const interviews = subResource((seed) => seed.interview, {
  notFound: /Scheduled interview not found/,
  fields: ["start_at", "end_at"],
  filters: { updated_after: after("updated_at", "updated_after") }
})
// Documents are read from their application: a provider 404 is the application's.
const documents = subResource((seed) => seed.document, {
  notFound: /Application not found/,
  fields: ["name", "type"],
  filters: { updated_after: after("updated_at"), type: equals((record) => record.type?.value) }
})

/** Every unified operation: ids of seeded records, a valid body, its filters and what a provider 404 becomes. */
const operations: Readonly<Record<string, Operation>> = {
  ats_list_applications: {
    provider: "ats",
    kind: "list",
    invalid: { query: "filter[created_after]=last-week", says: /ISO 8601/ },
    providerNotFound: { status: 400, says: /Provider rejected the request: 404/ },
    fields: ["candidate_id", "created_at"],
    filters: {
      updated_after: after("updated_at", "updated_after"),
      created_after: after("created_at", "created_after"),
      job_id: equals((record) => record.job_id, "job_id"),
      stage: equals((record) => record.application_stage_id),
      application_stage_id: equals((record) => record.application_stage_id)
    }
  },
  ats_create_application: atsWrite({
    body: (seed) => ({ candidate_id: seed.candidateId, job_id: seed.jobId }),
    invalid: { body: { candidate_id: 42 }, says: /candidate_id/ },
    providerNotFound: { status: 422, says: /Candidate not found/ }
  }),
  ats_get_application: {
    provider: "ats",
    kind: "get",
    path: applicationPath,
    invalid: badRaw,
    providerNotFound: applicationNotFound,
    fields: ["candidate_id", "status"]
  },
  ats_update_application: atsWrite({
    path: applicationPath,
    body: () => ({ source: { id: "3" } }),
    invalid: { body: { source: "referral" }, says: /source/ },
    providerNotFound: applicationNotFound
  }),
  ats_list_applications_offers: offers.list,
  ats_get_application_offer: offers.get,
  ats_move_application: atsWrite({
    path: applicationPath,
    body: () => ({ interview_stage_id: "1" }),
    invalid: { body: { interview_stage_id: 7 }, says: /interview_stage_id/ },
    providerNotFound: applicationNotFound
  }),
  ats_reject_application: atsWrite({
    path: applicationPath,
    body: () => ({ rejected_reason_id: "106" }),
    invalid: { body: { rejected_reason_id: 106 }, says: /rejected_reason_id/ },
    providerNotFound: applicationNotFound
  }),
  ats_list_application_scorecards: scorecards.list,
  ats_get_application_scorecard: scorecards.get,
  ats_list_application_changes: {
    provider: "ats",
    kind: "list",
    path: (seed) => ({ id: seed.changesApplicationId }),
    invalid: { query: "filter[change_type]=promotion", says: /change_type/ },
    providerNotFound: applicationNotFound,
    fields: ["change_type", "created_at"],
    filters: {
      created_after: after("created_at", "created_after"),
      change_type: equals((record) => record.change_type?.value)
    }
  },
  ats_get_application_note: {
    provider: "ats",
    kind: "get",
    path: (seed) => ({ id: seed.note.applicationId, subResourceId: seed.note.id }),
    invalid: badRaw,
    providerNotFound: { status: 404, says: /Note not found/ },
    fields: ["visibility", "content"]
  },
  ats_update_application_note: atsWrite({
    path: (seed) => ({ id: seed.note.applicationId, subResourceId: seed.note.id }),
    body: () => ({ content: [{ body: "Checked by the matrix" }] }),
    invalid: { body: { content: "plain text" }, says: /content/ },
    providerNotFound: { status: 404, says: /Note not found/ }
  }),
  ats_list_applications_scheduled_interviews: interviews.list,
  ats_get_application_scheduled_interview: interviews.get,
  ats_upload_application_document: atsWrite({
    path: applicationPath,
    body: () => ({ name: "matrix.txt", file_format: { value: "txt" }, content: new TextEncoder().encode("matrix") }),
    invalid: { body: { name: "matrix.txt", content: "%%% not base64 %%%" }, says: /content/ },
    providerNotFound: applicationNotFound
  }),
  ats_download_application_document: {
    provider: "ats",
    kind: "download",
    path: (seed) => ({ id: seed.document.applicationId, subResourceId: seed.document.id }),
    // its parameters are free-form: the invalid request is an over-long account id
    invalid: { accountId: "a".repeat(201), says: /x-account-id/ },
    providerNotFound: applicationNotFound
  },
  ats_list_application_documents: documents.list,
  ats_get_application_document: documents.get,
  ats_list_candidates: {
    provider: "ats",
    kind: "list",
    invalid: { query: "filter[updated_after]=soon", says: /ISO 8601/ },
    providerNotFound: { status: 400, says: /Provider rejected the request: 404/ },
    fields: ["email", "name"],
    filters: {
      updated_after: after("updated_at", "updated_after"),
      created_after: after("created_at", "created_after"),
      email: equals((record) => record.email, "email")
    }
  },
  ats_create_candidate: atsWrite({
    body: () => ({ first_name: "Matrix", last_name: "Case", email: "matrix@example.com" }),
    invalid: { body: { first_name: ["Matrix"] }, says: /first_name/ },
    providerNotFound: { status: 400, says: /Provider rejected the request: 404/ }
  }),
  ats_get_candidate: {
    provider: "ats",
    kind: "get",
    path: (seed) => ({ id: seed.candidateId }),
    invalid: badRaw,
    providerNotFound: { status: 404, says: /Candidate not found/ },
    fields: ["email", "name"]
  },
  // Greenhouse records the result as a note on the candidate: a provider 404 is the candidate's.
  ats_update_assessments_result: atsWrite({
    path: () => ({ id: "order-1" }),
    body: (seed) => ({ candidate: { id: seed.candidateId }, result: { value: "passed" }, summary: "All good" }),
    invalid: { body: { score: "high" }, says: /score/ },
    providerNotFound: { status: 404, says: /Candidate not found/ }
  }),
  hris_get_employee_document_category: {
    provider: "hris",
    kind: "get",
    path: (seed) => ({ id: seed.categoryId }),
    invalid: badRaw,
    providerNotFound: { status: 400, says: /Provider rejected the request: 404/ },
    fields: ["name", "active"]
  },
  hris_update_employee: {
    provider: "hris",
    kind: "write",
    path: (seed) => ({ id: seed.employeeId }),
    body: () => ({ first_name: "Grace" }),
    invalid: { body: { hire_date: "yesterday" }, says: /hire_date/ },
    providerNotFound: { status: 404, says: /Employee not found/ }
  },
  lms_list_user_assignments: {
    provider: "lms",
    kind: "list",
    path: (seed) => ({ id: seed.lmsUserId }),
    invalid: { query: "filter[status]=abandoned", says: /status/ },
    providerNotFound: { status: 404, says: /User not found/ },
    fields: ["status", "progress"],
    filters: {
      updated_after: after("updated_at"),
      status: equals((record) => record.status?.value)
    }
  }
}

const groups = { unified_ats: UnifiedAtsGroup, unified_hris: UnifiedHrisGroup, unified_lms: UnifiedLmsGroup } as const

/** The endpoints of the three groups, each with its table row. */
const allEndpoints = Object.entries(groups).flatMap(([group, definition]) =>
  Object.values(definition.endpoints as unknown as Record<string, HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>).map((endpoint) => ({
    group: group as Group,
    name: endpoint.name,
    method: endpoint.method,
    path: endpoint.path as string,
    payloadSchema: endpoint.payloadSchema as Option.Option<Schema.Schema<any, any>>,
    op: operations[endpoint.name]!
  }))
)
/**
 * The operations of the table: every one the spec lists, each run against the sandbox's seeded
 * records. The reference's other HRIS and LMS operations, which no look-alike provider serves,
 * are checked for the refusals that need no provider (below the table's cases).
 */
const endpoints = allEndpoints.filter((endpoint) => operations[endpoint.name] !== undefined)
const referenceOnly = allEndpoints.filter((endpoint) => operations[endpoint.name] === undefined)
type Endpoint = (typeof endpoints)[number]

const isRead = (endpoint: Endpoint) => endpoint.op.kind === "list" || endpoint.op.kind === "get"
const implemented = (endpoint: Endpoint) => endpoint.op.providerNotFound !== undefined

// ---------------------------------------------------------------------------
// Fixture: one project, its keys, and accounts in every state, built once for the file
// ---------------------------------------------------------------------------

/** Adds an attachment to an application in the sandbox directly (the provider's own API). */
const addAttachment = (sandbox: Sandbox, applicationId: string) =>
  Effect.promise(async () => {
    const response = await fetch(`${sandbox.ats.baseUrl}/applications/${applicationId}/attachments`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${sandbox.ats.apiKey}:`).toString("base64")}`,
        "content-type": "application/json",
        "on-behalf-of": String(sandbox.ats.onBehalfOf)
      },
      body: JSON.stringify({ filename: "later.txt", type: "other", content_type: "text/plain", content: Buffer.from("later").toString("base64") })
    })
    if (response.status !== 201) throw new Error(`sandbox refused the attachment: ${response.status}`)
  })

const seedOf = (sandbox: Sandbox) =>
  Effect.gen(function*() {
    const read = (provider: Provider, path: string) => direct(sandbox, provider, path) as Effect.Effect<any>
    const applications: Array<Json> = yield* read("ats", "/applications?per_page=500")
    /** The application whose records have the most distinct update times, and its first record. */
    const richest = (records: Array<Json>) => {
      const times = new Map<string, Set<string>>()
      for (const record of records) {
        const key = String(record.application_id)
        times.set(key, (times.get(key) ?? new Set()).add(record.updated_at))
      }
      const applicationId = [...times.entries()].sort((a, b) => b[1].size - a[1].size)[0]![0]
      return { applicationId, id: String(records.find((record) => String(record.application_id) === applicationId)!.id) }
    }
    const withDocuments = [...applications].sort((a, b) => b.attachments.length - a.attachments.length)[0]!
    // Seeded attachments of an application share one date: a later one makes updated_after narrow.
    yield* addAttachment(sandbox, String(withDocuments.id))
    let changesApplicationId = String(applications[0]!.id)
    let mostChanges = 0
    for (const application of applications.slice(0, 40)) {
      const changes: Array<Json> = yield* read("ats", `/applications/${application.id}/changes?per_page=500`)
      if (changes.length > mostChanges) [changesApplicationId, mostChanges] = [String(application.id), changes.length]
    }
    const { applicationId: noteApplication, note } = yield* applicationWithNote(sandbox)
    const candidates: Array<Json> = yield* read("ats", "/candidates?per_page=5")
    const employees: { employees: Array<Json> } = yield* read("hris", "/employees/directory")
    const files: { categories: Array<Json> } = yield* read("hris", "/employees/0/files/view")
    let lmsUserId = ""
    let mostCourses = 0
    for (const user of (yield* read("lms", "/users")) as Array<Json>) {
      const detail: Json = yield* read("lms", `/users/id:${user.id}`)
      const statuses = new Set(detail.courses.map((course: Json) => course.completion_status)).size
      if (statuses >= 2 && detail.courses.length > mostCourses) [lmsUserId, mostCourses] = [String(user.id), detail.courses.length]
    }
    return {
      applicationId: String(applications[0]!.id),
      candidateId: String(candidates[0]!.id),
      jobId: String(applications[0]!.jobs[0].id),
      offer: richest(yield* read("ats", "/offers?per_page=500")),
      scorecard: richest(yield* read("ats", "/scorecards?per_page=500")),
      interview: richest(yield* read("ats", "/scheduled_interviews?per_page=500")),
      note: { applicationId: noteApplication, id: String(note.id) },
      document: { applicationId: String(withDocuments.id), id: String(withDocuments.attachments[0].filename) },
      changesApplicationId,
      employeeId: String(employees.employees[0]!.id),
      categoryId: String(files.categories[0]!.id),
      lmsUserId
    } satisfies Seed
  })

const connectorOf: Record<Provider, string> = { ats: "greenhouse", hris: "bamboohr", lms: "talentlms" }

const buildFixture = Effect.gen(function*() {
  const sandbox = yield* SandboxProviders
  sandbox.reset()
  sandbox.faults.clear()
  const project = yield* freshProject
  const admin = project.client
  const linkBody = (provider: Provider, extra: Record<string, string> = {}) =>
    accountBody({
      connector_key: connectorOf[provider],
      ...extra,
      ...(provider === "ats"
        ? { credentials: { apiKey: sandbox.ats.apiKey }, settings: { base_url: sandbox.ats.baseUrl, onBehalfOf: String(sandbox.ats.onBehalfOf) } }
        : provider === "hris"
        ? { credentials: { apiKey: sandbox.hris.apiKey, subdomain: sandbox.hris.companyDomain }, settings: { base_url: sandbox.hris.baseUrl } }
        : { credentials: { apiKey: sandbox.lms.apiKey, domain: "sandbox" }, settings: { base_url: sandbox.lms.baseUrl } })
    })
  const link = (provider: Provider, extra: Record<string, string> = {}) =>
    Effect.map(admin.accounts.create_account({ payload: linkBody(provider, extra) }), (account) => account.id)
  const linkWithStatus = (provider: Provider, status: "suspended" | "expired" | "disabled") =>
    Effect.tap(link(provider), (id) => admin.accounts.patch_account({ path: { id }, urlParams: {}, payload: { status } }))
  const linkThroughProfile = (provider: Provider, profile: { readonly active?: boolean; readonly enabled_actions?: Array<string> }) =>
    Effect.flatMap(
      admin.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: { connector_key: connectorOf[provider], label: `matrix ${JSON.stringify(profile)}`, ...profile }
      }),
      (created) => link(provider, { connector_profile_id: created.id })
    )
  const perProvider = <A>(make: (provider: Provider) => Effect.Effect<A, any>) =>
    Effect.map(
      Effect.forEach(["ats", "hris", "lms"] as const, (provider) => Effect.map(make(provider), (value) => [provider, value] as const)),
      (entries) => Object.fromEntries(entries) as Record<Provider, A>
    )

  yield* admin.connectors.create_connector({
    urlParams: {},
    payload: { yaml: connectorYaml({ key: "matrix_bare", version: "1.0.0", actions: ["list_things"] }) }
  })
  const bareAccount = (yield* admin.accounts.create_account({
    payload: accountBody({ connector_key: "matrix_bare", credentials: { token: "matrix-token" } })
  })).id
  // One account per operation: each has its own provider rate limit, so the cases never queue.
  const accountOf = Object.fromEntries(yield* Effect.forEach(endpoints, (endpoint) => Effect.map(link(endpoint.op.provider), (id) => [endpoint.name, id] as const)))
  const other = yield* otherProject
  return {
    sandbox,
    seed: yield* seedOf(sandbox),
    accountOf: accountOf as Record<string, string>,
    bareAccount,
    suspended: yield* perProvider((provider) => linkWithStatus(provider, "suspended")),
    expired: yield* perProvider((provider) => linkWithStatus(provider, "expired")),
    disabled: yield* perProvider((provider) => linkWithStatus(provider, "disabled")),
    inactiveProfile: yield* perProvider((provider) => linkThroughProfile(provider, { active: false })),
    nothingEnabled: yield* perProvider((provider) => linkThroughProfile(provider, { enabled_actions: [] })),
    clients: {
      full: yield* recordingClientFor(project.key),
      accountsScope: yield* recordingClientFor((yield* keyFor(project.projectId, "accounts")).key),
      readOnly: yield* recordingClientFor((yield* keyFor(project.projectId, "read_only")).key),
      otherProject: yield* recordingClientFor(other.key),
      wrongKey: yield* recordingClientFor("swy_not_a_key_of_this_server_0000000000")
    },
    key: project.key,
    /** The secret credential values of each provider's accounts (the BambooHR subdomain and TalentLMS domain are declared `secret: false`). */
    secrets: {
      ats: [sandbox.ats.apiKey],
      hris: [sandbox.hris.apiKey],
      lms: [sandbox.lms.apiKey]
    } satisfies Record<Provider, ReadonlyArray<string>>
  }
})

class Matrix extends Context.Tag("Test/UnifiedMatrix")<Matrix, Effect.Effect.Success<typeof buildFixture>>() {}

const envWith = (attemptTimeoutMs: number) => Layer.effect(Matrix, buildFixture).pipe(Layer.provideMerge(serverWith(attemptTimeoutMs)))

type Fixture = Context.Tag.Service<Matrix>
type Recording = Fixture["clients"]["full"]

// ---------------------------------------------------------------------------
// Calls
// ---------------------------------------------------------------------------

interface CallOptions {
  readonly accountId?: string
  readonly urlParams?: Record<string, unknown>
}

/** Calls the operation through the derived client: the outcome, and the response as the wire carried it. */
const call = (fixture: Fixture, endpoint: Endpoint, recording: Recording = fixture.clients.full, options: CallOptions = {}) =>
  Effect.gen(function*() {
    const { op } = endpoint
    const request = {
      headers: { "x-account-id": options.accountId ?? fixture.accountOf[endpoint.name]! },
      ...(op.path === undefined ? {} : { path: op.path(fixture.seed) }),
      ...(op.kind === "write" ? { payload: op.body!(fixture.seed) } : { urlParams: options.urlParams ?? {} })
    }
    const operation = (recording.client as any)[endpoint.group][endpoint.name] as (request: unknown) => Effect.Effect<any, any>
    const result = yield* Effect.either(operation(request))
    return { result, wire: recording.takeResponse() }
  })

/** The operation's URL with the seeded path ids, for requests the derived client cannot send. */
const urlOf = (fixture: Fixture, endpoint: Endpoint, query = "") => {
  const path = endpoint.op.path?.(fixture.seed) ?? {}
  const url = endpoint.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(path[name]!))
  return query === "" ? url : `${url}?${query}`
}

/** The operation as a plain request (a valid body encoded as the derived client would send it). */
const plainRequest = (fixture: Fixture, endpoint: Endpoint, query = "") => {
  const url = urlOf(fixture, endpoint, query)
  const request = Option.match(endpoint.payloadSchema, {
    onNone: () => HttpClientRequest.get(url),
    onSome: (schema) =>
      HttpClientRequest.make(endpoint.method as "POST" | "PATCH")(url).pipe(
        HttpClientRequest.bodyUnsafeJson(Schema.encodeUnknownSync(schema)(endpoint.op.body!(fixture.seed)))
      )
  })
  return withKey(fixture.key)(request)
}

/** A failed call: the documented body with `status`, a message saying `says`, and the same error decoded by the client. */
const expectFailure = (
  outcome: { readonly result: Either.Either<unknown, any>; readonly wire: WireResponse },
  status: number,
  says: RegExp,
  options: { readonly providerDetails?: boolean } = {}
) => {
  const body = expectErrorBody(outcome.wire, status, options)
  expect(body.message).toMatch(says)
  expect(Either.isLeft(outcome.result)).toBe(true)
  if (Either.isLeft(outcome.result)) expect(outcome.result.left).toMatchObject({ statusCode: status, message: body.message })
}

const expectNoSecret = (fixture: Fixture, provider: Provider, text: string) => {
  for (const secret of fixture.secrets[provider]) expect(text).not.toContain(secret)
}

/** Every page of a list operation, following `next`. */
const listAll = (fixture: Fixture, endpoint: Endpoint, urlParams: Record<string, unknown> = {}) =>
  Effect.gen(function*() {
    const records: Array<Json> = []
    let next: string | null = null
    let pages = 0
    do {
      const { result } = yield* call(fixture, endpoint, fixture.clients.full, {
        urlParams: { ...urlParams, page_size: 200, ...(next === null ? {} : { next }) }
      })
      const page = Either.getOrThrow(result) as { data: Array<Json>; next: string | null }
      records.push(...page.data)
      next = page.next
      pages++
    } while (next !== null && pages < 20)
    expect(next).toBeNull()
    return records
  })

/** Provider faults last for one case only. */
const withFault = <A, E, R>(fixture: Fixture, plan: FaultPlan, effect: Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => fixture.sandbox.faults.add(plan)),
    () => effect,
    () => Effect.sync(() => fixture.sandbox.faults.clear())
  )

type Outcome = Effect.Effect.Success<ReturnType<typeof call>>

/** Runs `effect` and checks that it reached no provider. */
const beforeProvider = <A, E, R>(fixture: Fixture, effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    fixture.sandbox.clearRequests()
    const result = yield* effect
    expect(fixture.sandbox.requests()).toEqual([])
    return result
  })

/** A refusal every operation gives before the provider is called. */
interface Refusal {
  readonly title: string
  readonly when?: (endpoint: Endpoint) => boolean
  readonly call: (fixture: Fixture, endpoint: Endpoint) => Effect.Effect<Outcome>
  readonly status: number
  readonly says: (endpoint: Endpoint, fixture: Fixture) => RegExp
}

const asAccount = (accountId: (fixture: Fixture, endpoint: Endpoint) => string) => (fixture: Fixture, endpoint: Endpoint) =>
  call(fixture, endpoint, fixture.clients.full, { accountId: accountId(fixture, endpoint) })

const refusals: ReadonlyArray<Refusal> = [
  {
    title: "401 with a key the server does not know",
    call: (fixture, endpoint) => call(fixture, endpoint, fixture.clients.wrongKey),
    status: 401,
    says: () => /Invalid API key/
  },
  {
    title: "403 with a key of the Accounts scope",
    call: (fixture, endpoint) => call(fixture, endpoint, fixture.clients.accountsScope),
    status: 403,
    says: (endpoint) => new RegExp(`scope Accounts does not allow ${endpoint.method}`)
  },
  {
    title: "403 with a Read Only key",
    when: (endpoint) => endpoint.op.kind === "write",
    call: (fixture, endpoint) => call(fixture, endpoint, fixture.clients.readOnly),
    status: 403,
    says: (endpoint) => new RegExp(`scope Read Only does not allow ${endpoint.method}`)
  },
  {
    title: "403 when the account's connector profile does not enable it",
    when: implemented,
    call: asAccount((fixture, endpoint) => fixture.nothingEnabled[endpoint.op.provider]),
    status: 403,
    says: (endpoint) => new RegExp(`Action ${endpoint.name} is not enabled in connector profile`)
  },
  {
    title: "404 for an unknown account",
    call: asAccount(() => "no-such-account"),
    status: 404,
    says: () => /Account no-such-account not found/
  },
  {
    title: "404 for the account of another project",
    call: (fixture, endpoint) => call(fixture, endpoint, fixture.clients.otherProject),
    status: 404,
    says: (endpoint, fixture) => new RegExp(`Account ${fixture.accountOf[endpoint.name]} not found`)
  },
  ...(["suspended", "expired", "disabled"] as const).map((status): Refusal => ({
    title: `412 when the account is ${status}`,
    call: asAccount((fixture, endpoint) => fixture[status][endpoint.op.provider]),
    status: 412,
    says: () => new RegExp(`is ${status}`)
  })),
  {
    title: "412 when the account's connector profile is inactive",
    call: asAccount((fixture, endpoint) => fixture.inactiveProfile[endpoint.op.provider]),
    status: 412,
    says: () => /belongs to a disabled integration \(connector profile/
  },
  {
    title: "501 when the account's connector lacks the action",
    call: asAccount((fixture) => fixture.bareAccount),
    status: 501,
    says: (endpoint) => new RegExp(`Connector matrix_bare@1\\.0\\.0 has no action ${endpoint.name}`)
  }
]

/** The provider failures injected (on every request to the operation's provider) and what each becomes. */
const providerFailures = (notFound: NonNullable<Operation["providerNotFound"]>) => [
  { title: `provider 404 → ${notFound.status}`, plan: { fault: "status", status: 404 }, status: notFound.status, says: notFound.says },
  { title: "provider 429 that persists → 429 with Retry-After", plan: { fault: "rate_limit", retryAfter: 30 }, status: 429, says: /answered 429/ },
  { title: "provider 500 → 502", plan: { fault: "status", status: 500 }, status: 502, says: /500/ }
] satisfies ReadonlyArray<ProviderFailure>

const providerHangs: ReadonlyArray<ProviderFailure> = [
  { title: "provider timeout → 408 with Retry-After", plan: { fault: "timeout" }, status: 408, says: /did not answer within/ }
]

interface ProviderFailure {
  readonly plan: FaultPlan
  readonly title: string
  readonly status: number
  readonly says: RegExp
}

/** Each implemented operation meets each failure on every request to its provider. */
const providerFailureCases = (
  it: { readonly effect: (name: string, self: () => Effect.Effect<void, unknown, Matrix>) => void },
  failuresOf: (op: Operation) => ReadonlyArray<ProviderFailure>
) => {
  for (const endpoint of endpoints.filter(implemented)) {
    const { op } = endpoint
    const name = endpoint.name
    const provider = op.provider
    for (const { plan, says, status, title } of failuresOf(op)) {
      it.effect(`${name}: ${title}`, () =>
        Effect.gen(function*() {
          const fixture = yield* Matrix
          const outcome = yield* withFault(fixture, { ...plan, match: { provider } }, call(fixture, endpoint))
          expectFailure(outcome, status, says, { providerDetails: true })
          expectNoSecret(fixture, provider, outcome.wire.text)
          if (status === 429) expect(outcome.wire.headers["retry-after"]).toBe("30")
          if (status === 408) expect(Number(outcome.wire.headers["retry-after"])).toBeGreaterThan(0)
        }))
    }
  }
}

const identifierOf = (record: Json) => ("event_id" in record ? "event_id" : "id")
const idOf = (record: Json) => String(record[identifierOf(record)])

layer(envWith(3000), { excludeTestServices: true })("unified contract matrix", (it) => {
  it.effect("the reference's operations outside the table answer 400 without x-account-id and 501 on a connector lacking them", () =>
    Effect.gen(function*() {
      const fixture = yield* Matrix
      expect(referenceOnly.length).toBe(allEndpoints.length - 26)
      for (const endpoint of referenceOnly) {
        const url = endpoint.path.replace(/:(\w+)/g, "x")
        const withBody = (request: HttpClientRequest.HttpClientRequest) =>
          Option.match(endpoint.payloadSchema, {
            onNone: () => request,
            // a valid body, so that what answers is the missing action, not the body's schema
            onSome: (schema) => HttpClientRequest.bodyUnsafeJson(request, Schema.encodeUnknownSync(schema)(exampleValue(schema, "matrix")))
          })
        const request = withBody(HttpClientRequest.make(endpoint.method as "POST")(url)).pipe(withKey(fixture.key))
        const anonymous = yield* beforeProvider(fixture, send(request))
        expect({ name: endpoint.name, message: expectErrorBody(anonymous, 400).message }).toMatchObject({
          name: endpoint.name,
          message: expect.stringMatching(/x-account-id/)
        })
        const lacking = yield* beforeProvider(fixture, send(HttpClientRequest.setHeader(request, "x-account-id", fixture.bareAccount)))
        expect({ name: endpoint.name, message: expectErrorBody(lacking, 501).message }).toMatchObject({
          name: endpoint.name,
          message: expect.stringMatching(new RegExp(`Connector matrix_bare@1\\.0\\.0 has no action ${endpoint.name}`))
        })
      }
    }))

  it.effect("the table has one row for every endpoint of the unified groups, with its path ids", () =>
    Effect.gen(function*() {
      const { seed } = yield* Matrix
      expect(Object.keys(operations).sort()).toEqual(endpoints.map((endpoint) => endpoint.name).sort())
      for (const { name, op, path } of endpoints) {
        const params = [...path.matchAll(/:(\w+)/g)].map((match) => match[1])
        expect({ name, params: Object.keys(op.path?.(seed) ?? {}) }).toEqual({ name, params })
        expect({ name, body: op.body !== undefined }).toEqual({ name, body: op.kind === "write" })
      }
    }))

  describe("errors every operation answers before the provider is called", () => {
    for (const endpoint of endpoints) {
      const { op } = endpoint
      const name = endpoint.name

      it.effect(`${name}: 400 without x-account-id`, () =>
        Effect.gen(function*() {
          const fixture = yield* Matrix
          const response = yield* beforeProvider(fixture, send(plainRequest(fixture, endpoint)))
          expect(expectErrorBody(response, 400).message).toMatch(/x-account-id/)
        }))

      const invalidPart = op.invalid.body !== undefined ? "body" : op.invalid.query !== undefined ? "parameter" : "account id"
      it.effect(`${name}: 400 for an invalid ${invalidPart}`, () =>
        Effect.gen(function*() {
          const fixture = yield* Matrix
          let request = plainRequest(fixture, endpoint, op.invalid.query)
          if (op.invalid.body !== undefined) request = HttpClientRequest.bodyUnsafeJson(request, op.invalid.body)
          const accountId = op.invalid.accountId ?? fixture.accountOf[name]!
          const response = yield* beforeProvider(fixture, send(HttpClientRequest.setHeader(request, "x-account-id", accountId)))
          expect(expectErrorBody(response, 400).message).toMatch(op.invalid.says)
        }))

      for (const refusal of refusals.filter((candidate) => candidate.when?.(endpoint) ?? true)) {
        it.effect(`${name}: ${refusal.title}`, () =>
          Effect.gen(function*() {
            const fixture = yield* Matrix
            const outcome = yield* beforeProvider(fixture, refusal.call(fixture, endpoint))
            expectFailure(outcome, refusal.status, refusal.says(endpoint, fixture))
          }))
      }
    }
  })

  describe("provider failures, as the connectors map them", () => {
    providerFailureCases(it, (op) => providerFailures(op.providerNotFound!))
  })

  describe("read operations: fields, raw, proxy and filters", () => {
    for (const endpoint of endpoints.filter((candidate) => isRead(candidate) && implemented(candidate))) {
      const { op } = endpoint
      const name = endpoint.name
      const provider = op.provider
      const records = (answer: any): Array<Json> => (op.kind === "list" ? answer.data : [answer.data])

      it.effect(`${name}: fields=${op.fields!.join(",")} keeps those fields and the identifier`, () =>
        Effect.gen(function*() {
          const fixture = yield* Matrix
          const full = records(Either.getOrThrow((yield* call(fixture, endpoint)).result))
          const projected = records(Either.getOrThrow((yield* call(fixture, endpoint, fixture.clients.full, { urlParams: { fields: op.fields } })).result))
          const kept = [identifierOf(full[0]!), ...op.fields!]
          expect(full.length).toBeGreaterThan(0)
          for (const record of full) for (const field of kept) expect(record[field]).toBeDefined()
          expect(projected).toEqual(full.map((record) => Object.fromEntries(kept.map((field) => [field, record[field]]))))
        }))

      it.effect(`${name}: raw=true adds the provider calls, no credential anywhere`, () =>
        Effect.gen(function*() {
          const fixture = yield* Matrix
          const { result, wire } = yield* call(fixture, endpoint, fixture.clients.full, { urlParams: { raw: true } })
          const answer = Either.getOrThrow(result) as { raw: Array<Json> }
          expect(answer.raw.length).toBeGreaterThan(0)
          for (const providerCall of answer.raw) {
            expect(providerCall).toMatchObject({ method: "GET", url: expect.any(String), response: { status: 200 } })
          }
          expect(records(answer).length).toBeGreaterThan(0)
          expectNoSecret(fixture, provider, wire.text)
        }))

      it.effect(`${name}: proxy[...] reaches the provider's query`, () =>
        Effect.gen(function*() {
          const fixture = yield* Matrix
          fixture.sandbox.clearRequests()
          Either.getOrThrow((yield* call(fixture, endpoint, fixture.clients.full, { urlParams: { proxy: { matrix_probe: "on" } } })).result)
          const seen = fixture.sandbox.requests(provider)
          expect(seen.length).toBeGreaterThan(0)
          for (const request of seen) expect({ path: request.path, probe: request.query.matrix_probe }).toEqual({ path: request.path, probe: "on" })
        }))

      for (const [key, filter] of Object.entries(op.filters ?? {})) {
        it.effect(`${name}: filter[${key}] ${filter.sentAs === undefined ? "is applied by the connector" : `reaches the provider as ${filter.sentAs}`} and narrows the records`, () =>
          Effect.gen(function*() {
            const fixture = yield* Matrix
            const all = yield* listAll(fixture, endpoint)
            const value = filter.pick(all)
            fixture.sandbox.clearRequests()
            const narrowed = yield* listAll(fixture, endpoint, { filter: { [key]: value } })
            if (filter.sentAs !== undefined) {
              const sent = fixture.sandbox.requests(provider).map((request) => request.query[filter.sentAs!])
              expect(sent.length).toBeGreaterThan(0)
              for (const given of sent) {
                expect(typeof given).toBe("string")
                if (key.endsWith("_after")) expect(Date.parse(given as string)).toBe(Date.parse(value))
                else expect(given).toBe(value)
              }
            }
            const expected = all.filter((record) => filter.holds(record, value)).map(idOf)
            expect(expected.length).toBeGreaterThan(0)
            expect(expected.length).toBeLessThan(all.length)
            expect(narrowed.map(idOf)).toEqual(expected)
          }))
      }
    }
  })
})

// A provider that never answers: the only server here with a short per-attempt timeout.
layer(envWith(200), { excludeTestServices: true })("unified contract matrix, hanging providers", (it) => {
  providerFailureCases(it, () => providerHangs)
})
