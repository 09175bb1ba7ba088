import { HttpClientRequest, HttpServer, HttpServerResponse } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { builtinConnectorSources } from "@switchyard/connectors"
import type { Sandbox } from "@switchyard/sandbox"
import { Arbitrary, Effect, Either, FastCheck, Layer, Schema } from "effect"
import { RequestLog } from "../src/features/requestLogs/RequestLog.js"
import { type ListedRecords, pathFromLists } from "../src/app/contractCheck/pathFromLists.js"
import { compileEncoder, Mismatch } from "../src/edge/wire/compileEncoder.js"
import { jsonAnswer } from "../src/edge/wire/jsonAnswer.js"
import { freshProject } from "./support/Fixtures.js"
import {
  applicationWithNote,
  direct,
  type Json,
  SandboxLive,
  SandboxProviders,
  sandboxBambooAccount,
  sandboxGreenhouseAccount,
  sandboxTalentLmsAccount
} from "./support/SandboxLayer.js"
import { newestBuiltinActions } from "./support/newestBuiltinActions.js"
import { sdkIssuesBeyondSpec, stackOneSdkClient } from "./support/StackOneSdkClient.js"
import { TestServer } from "./support/TestServer.js"
import { readRank, unifiedReads } from "./support/unifiedReads.js"
import { expectErrorBody, json, send, withKey } from "./support/Wire.js"
import { mutate, schemaEncodedJson, seeded } from "./support/WireShape.js"

/*
 * Unified answers are checked and encoded by an encoder compiled once per endpoint from its
 * success schema (src/edge/wire), not by `Schema.encode` on every request (issue 13). The wire
 * shape is still the schema's: the compiled encoding of the shipped connectors' records is
 * the JSON `Schema.encode` gives, and a connector that maps a field to the wrong type still
 * answers 500 naming the field, never a malformed 200.
 */

const Server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive(11))


/**
 * The connector the sandbox simulates for each unified category, at the version its look-alike
 * follows: the newest, but BambooHR's 1.3.0 (1.4.0 lists employees through a custom report,
 * which the look-alike does not serve; its contract check covers it against BambooHR's document).
 */
const sandboxConnectors = { ats: ["greenhouse"], hris: ["bamboohr", "1.3.0"], lms: ["talentlms"] } as const
/** The unified reads the sandbox's connectors serve: each is compared on the sandbox's records. */
const sandboxReads = unifiedReads.filter(({ actionId, endpoint }) =>
  newestBuiltinActions(...(sandboxConnectors[endpoint.path.split("/")[2] as keyof typeof sandboxConnectors] as readonly [string, string?]))
    .has(actionId)
)

const endpointNamed = (name: string) => unifiedReads.find((read) => read.endpoint.name === name)!.endpoint

/** The newest shipped Greenhouse connector, renamed, with `edit` applied to its YAML. */
const greenhouseVariant = (key: string, edit: (yaml: string) => string) => {
  const sources = builtinConnectorSources().filter((source) => source.file.includes("/connectors/greenhouse/"))
  const newest = sources.map((source) => source.file).sort((a, b) => a.localeCompare(b, "en", { numeric: true })).at(-1)!
  const yaml = sources.find((source) => source.file === newest)!.yaml.replace("key: greenhouse\n", `key: ${key}\n`)
  const edited = edit(yaml)
  if (edited === yaml) throw new Error("the edit changed nothing: the shipped connector changed")
  return edited
}

/** `job_posting_id` left as the provider's number (the shipped mapping makes it a string). */
const WRONG_TYPE_EDIT = [
  "              - targetFieldKey: job_posting_id\n                expression: $.job_post_id\n                type: string\n",
  "              - targetFieldKey: job_posting_id\n                expression: $.job_post_id\n"
] as const

/** A record field the unified schema does not declare. */
const EXCESS_KEY_EDIT = [
  "              - targetFieldKey: id\n                expression: $.id\n                type: string\n",
  "              - targetFieldKey: id\n                expression: $.id\n                type: string\n              - targetFieldKey: internal_score\n                expression: $.id\n"
] as const

/** A project with an account of `connectorKey` on the sandbox (a custom connector's YAML registered first). */
const projectWith = (connectorKey: string, yaml?: string) =>
  Effect.gen(function*() {
    const sandbox = yield* SandboxProviders
    const project = yield* freshProject
    if (yaml !== undefined) {
      const registered = yield* send(HttpClientRequest.post("/v2/connectors").pipe(withKey(project.key), json({ yaml })))
      expect(registered.status, registered.text).toBe(201)
    }
    const body = connectorKey === "bamboohr"
      ? sandboxBambooAccount(sandbox, { connector_version: sandboxConnectors.hris[1] })
      : connectorKey === "talentlms"
      ? sandboxTalentLmsAccount(sandbox)
      : sandboxGreenhouseAccount(sandbox, { connector_key: connectorKey })
    const account = yield* project.client.accounts.create_account({ payload: body })
    const withAccount = (request: HttpClientRequest.HttpClientRequest) =>
      request.pipe(withKey(project.key), HttpClientRequest.setHeader("x-account-id", account.id))
    const get = (path: string, headers: Record<string, string> = {}) =>
      send(HttpClientRequest.get(path).pipe(withAccount, HttpClientRequest.setHeaders(headers)))
    const rpc = (action: string, parts: Record<string, unknown> = {}) =>
      send(HttpClientRequest.post("/actions/rpc").pipe(withAccount, json({ action, ...parts })))
    /** The same read through the real StackOne SDK, which validates the answer as it does for its users. */
    const sdk = (actionId: string, pathParams: Record<string, string>, query: Record<string, string>) =>
      Effect.flatMap(HttpServer.HttpServer, (server) => {
        const address = server.address as { readonly port: number }
        return stackOneSdkClient(`http://127.0.0.1:${address.port}`, project.key).call({
          operationId: actionId,
          method: "GET",
          path: "",
          pathParams,
          query,
          body: undefined,
          accountId: account.id
        })
      })
    return { get, rpc, sdk }
  })

/** Path parameters of each unified read that address seeded sandbox records (with sub-records where it has any). */
const sandboxPaths = (sandbox: Sandbox) =>
  Effect.gen(function*() {
    const read = (provider: "ats" | "hris" | "lms", path: string) => direct(sandbox, provider, path) as Effect.Effect<any>
    const applications: Array<Json> = yield* read("ats", "/applications?per_page=100")
    const firstOf = (records: Array<Json>) => ({ id: String(records[0]!.application_id), subResourceId: String(records[0]!.id) })
    const offer = firstOf(yield* read("ats", "/offers?per_page=100"))
    const scorecard = firstOf(yield* read("ats", "/scorecards?per_page=100"))
    const interview = firstOf(yield* read("ats", "/scheduled_interviews?per_page=100"))
    const withDocuments = applications.find((application) => application.attachments.length > 0)!
    const document = { id: String(withDocuments.id), subResourceId: String(withDocuments.attachments[0].filename) }
    let changed = String(applications[0]!.id)
    for (const application of applications.slice(0, 20)) {
      if (((yield* read("ats", `/applications/${application.id}/changes`)) as Array<Json>).length > 0) {
        changed = String(application.id)
        break
      }
    }
    const { applicationId, note } = yield* applicationWithNote(sandbox)
    const candidates: Array<Json> = yield* read("ats", "/candidates?per_page=5")
    // a candidate whose activity feed has notes, for the reads of a candidate's notes
    let noted = String(candidates[0]!.id)
    for (const candidate of (yield* read("ats", "/candidates?per_page=20")) as Array<Json>) {
      if ((((yield* read("ats", `/candidates/${candidate.id}/activity_feed`)) as Json).notes as Array<Json>).length > 0) {
        noted = String(candidate.id)
        break
      }
    }
    const files: { categories: Array<Json> } = yield* read("hris", "/employees/0/files/view")
    const employees: Array<Json> = ((yield* read("hris", "/employees/directory")) as Json).employees
    const users: Array<Json> = yield* read("lms", "/users")
    let learner = String(users[0]!.id)
    for (const user of users.slice(0, 20)) {
      if (((yield* read("lms", `/users/id:${user.id}`)) as Json).courses.length > 0) {
        learner = String(user.id)
        break
      }
    }
    // a learner with a completed course, for the reads of a user's completions
    let finisher = learner
    for (const user of users.slice(0, 40)) {
      const detail = (yield* read("lms", `/users/id:${user.id}`)) as Json
      if ((detail.courses as Array<Json>).some((course) => course.completion_status === "completed")) {
        finisher = String(user.id)
        break
      }
    }
    const application = { id: String(applications[0]!.id) }
    return {
      ats_list_applications: {},
      ats_get_application: application,
      ats_list_applications_offers: { id: offer.id },
      ats_get_application_offer: offer,
      ats_list_application_scorecards: { id: scorecard.id },
      ats_get_application_scorecard: scorecard,
      ats_list_application_changes: { id: changed },
      ats_get_application_note: { id: applicationId, subResourceId: String(note.id) },
      ats_list_applications_scheduled_interviews: { id: interview.id },
      ats_get_application_scheduled_interview: interview,
      ats_list_application_documents: { id: document.id },
      ats_get_application_document: document,
      ats_list_candidates: {},
      ats_get_candidate: { id: String(candidates[0]!.id) },
      ats_list_candidate_notes: { id: noted },
      hris_get_employee_document_category: { id: String(files.categories[0]!.id) },
      hris_list_employee_categories: {},
      hris_list_employees: {},
      hris_get_employee: { id: String(employees[0]!.id) },
      lms_list_user_assignments: { id: learner },
      lms_list_user_completions: { id: finisher }
    } as Record<string, Record<string, string> | undefined>
  })

layer(Server, { excludeTestServices: true })("unified wire shape", (it) => {
  it.effect("every unified read on the shipped connectors' records answers Schema.encode's JSON of them, and the StackOne SDK accepts it", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxProviders
      const paths = yield* sandboxPaths(sandbox)
      const projects = {
        ats: yield* projectWith("greenhouse"),
        hris: yield* projectWith("bamboohr"),
        lms: yield* projectWith("talentlms")
      }
      const compared: Array<string> = []
      // a read with no seeded path takes its ids from the lists answered before it, as the contract check does
      const listed = new Map<string, ListedRecords>()
      const inOrder = [...sandboxReads].sort((a, b) => readRank(a) - readRank(b))
      for (const { actionId, endpoint, kind } of inOrder) {
        const params = paths[endpoint.name] ?? pathFromLists(endpoint.path, (list) => listed.get(list))?.params
        expect(params, `no sandbox record for ${endpoint.name}`).toBeDefined()
        const { get, rpc, sdk } = projects[endpoint.path.split("/")[2] as "ats" | "hris" | "lms"]
        // the connector's records before any encoding: the same action over RPC
        const ran = yield* rpc(actionId, kind === "list" ? { path: params, query: { page_size: 100 } } : { path: params })
        expect(ran.status, `${actionId}: ${ran.text}`).toBe(200)
        const data = (ran.json as { data: unknown }).data
        const envelope = kind === "list" ? { data, next: null, raw: null } : { data, raw: null }
        const answer = jsonAnswer(endpoint)
        const expected = schemaEncodedJson(answer.schema!, envelope)
        expect(Either.isRight(expected), `${actionId}: ${JSON.stringify(expected)}`).toBe(true)
        const encoded = JSON.parse(Either.getOrThrow(expected))
        // the compiled encoder alone, then the server's answer over HTTP
        expect(JSON.parse(answer.json(envelope)!)).toEqual(encoded)
        const path = endpoint.path.replace(/:(\w+)/g, (_, name: string) => params![name]!)
        const served = yield* get(kind === "list" ? `${path}?page_size=100` : path)
        expect(served.status, `${actionId}: ${served.text}`).toBe(200)
        expect(served.headers["content-type"]).toBe("application/json")
        expect((served.json as { data: unknown }).data).toEqual(encoded.data)
        const bySdk = yield* sdk(actionId, params!, kind === "list" ? { page_size: "100" } : {})
        expect({ status: bySdk.status, issues: sdkIssuesBeyondSpec(actionId, bySdk.clientIssues) }, `${actionId} through the StackOne SDK`)
          .toEqual({ status: 200, issues: [] })
        expect((bySdk.body as { data: unknown }).data).toEqual(encoded.data)
        if (kind === "list") expect((encoded.data as ReadonlyArray<unknown>).length, actionId).toBeGreaterThan(0)
        if (kind === "list") {
          listed.set(actionId, {
            params: params!,
            ids: (encoded.data as ReadonlyArray<Record<string, unknown>>).map((record) => String(record.id))
          })
        }
        compared.push(endpoint.name)
      }
      expect(compared).toHaveLength(sandboxReads.length)
    }))

  it.effect("a record that does not fit the unified schema answers 502 naming the provider and the field (list and get), not a 500 or a malformed 200", () =>
    Effect.gen(function*() {
      const yaml = greenhouseVariant("greenhouse_wrong_type", (source) => source.replace(...WRONG_TYPE_EDIT))
      const { get, rpc } = yield* projectWith("greenhouse_wrong_type", yaml)
      const list = yield* get("/unified/ats/applications?page_size=5")
      const listError = expectErrorBody(list, 502)
      expect(listError.message).toMatch(/^greenhouse_wrong_type answered data that does not fit the unified schema: data\.\d+\.job_posting_id: Expected string/)
      const ran = (yield* rpc("ats_list_applications", { query: { page_size: 20 } })).json as { data: Array<Record<string, unknown>> }
      const misfit = ran.data.find((record) => typeof record.job_posting_id === "number")!
      const one = yield* get(`/unified/ats/applications/${misfit.id}`)
      const oneError = expectErrorBody(one, 502)
      expect(oneError.message).toMatch(/^greenhouse_wrong_type answered data that does not fit the unified schema: data\.job_posting_id: Expected string/)
      // the issues name paths and expectations, never the provider's values
      expect(oneError.message).not.toContain(String(misfit.job_posting_id))
      // and the request log says what the caller was answered (its buffer written first)
      yield* (yield* RequestLog).flush
      const logs = yield* get("/requests/logs?order_direction=desc&page_size=10")
      const unified = (logs.json as { data: Array<{ source_type: string; status: number; error_message: string | null }> }).data
        .filter((entry) => entry.status !== 200)
      expect(unified.map((entry) => [entry.status, entry.error_message?.split(":")[0]])).toEqual([
        [502, "greenhouse_wrong_type answered data that does not fit the unified schema"],
        [502, "greenhouse_wrong_type answered data that does not fit the unified schema"]
      ])
    }))

  it.effect("with Prefer: heartbeat the status is sent first, so the misfit is a 502 body naming the provider and the field", () =>
    Effect.gen(function*() {
      const yaml = greenhouseVariant("greenhouse_wrong_beat", (source) => source.replace(...WRONG_TYPE_EDIT))
      const { get } = yield* projectWith("greenhouse_wrong_beat", yaml)
      const answer = yield* get("/unified/ats/applications?page_size=5", { prefer: "heartbeat" })
      expect(answer.status).toBe(200)
      const body = JSON.parse(answer.text.trim()) as Record<string, unknown>
      expect(Object.keys(body).sort()).toEqual(["message", "statusCode", "timestamp"])
      expect(body.statusCode).toBe(502)
      expect(body.message).toMatch(/^greenhouse_wrong_beat answered data that does not fit the unified schema: data\.\d+\.job_posting_id: Expected string/)
    }))

  it.effect("keys the schema does not declare are dropped, as Schema.encode drops them, with or without fields=", () =>
    Effect.gen(function*() {
      const yaml = greenhouseVariant("greenhouse_excess", (source) => source.replace(...EXCESS_KEY_EDIT))
      const { get, rpc } = yield* projectWith("greenhouse_excess", yaml)
      const ran = yield* rpc("ats_list_applications", { query: { page_size: 3 } })
      const records = (ran.json as { data: Array<Record<string, unknown>> }).data
      expect(records[0]).toHaveProperty("internal_score")
      const list = yield* get("/unified/ats/applications?page_size=3")
      expect(list.status, list.text).toBe(200)
      const data = (list.json as { data: Array<Record<string, unknown>> }).data
      expect(data).toHaveLength(3)
      for (const record of data) expect(record).not.toHaveProperty("internal_score")
      const envelope = { data: records, next: null, raw: null }
      const expected = JSON.parse(Either.getOrThrow(schemaEncodedJson(jsonAnswer(endpointNamed("ats_list_applications")).schema!, envelope)))
      expect(data).toEqual(expected.data)
      const projected = yield* get("/unified/ats/applications?page_size=3&fields=status,internal_score")
      expect(projected.status, projected.text).toBe(200)
      for (const record of (projected.json as { data: Array<Record<string, unknown>> }).data) {
        expect(Object.keys(record).sort()).toEqual(["id", "status"])
      }
    }))
})

describe("unified answers compiled", () => {
  it("every unified list and get endpoint compiles its success schema (none falls back to Schema.encode)", () => {
    const uncompiled = unifiedReads.flatMap(({ endpoint }) => {
      const reason = jsonAnswer(endpoint).uncompiled
      return reason === undefined ? [] : [`${endpoint.name}: ${reason}`]
    })
    expect(uncompiled).toEqual([])
    expect(unifiedReads.length).toBeGreaterThanOrEqual(16)
  })

  it("a conforming value answers as the platform would: its status, content type and JSON", () => {
    const answer = jsonAnswer(endpointNamed("ats_list_applications"))
    const value = { data: [{ id: "1", status: { value: "active", source_value: 3 }, extra: true }], next: null, raw: null }
    const response = answer.respond(Either.getOrThrow(answer.body(value)))
    const platform = Effect.runSync(HttpServerResponse.json({ data: [{ id: "1", status: { value: "active", source_value: 3 } }], next: null, raw: null }))
    expect(response.status).toBe(platform.status)
    expect(response.headers).toEqual(platform.headers)
    expect(response.body._tag).toBe("Uint8Array")
    expect(platform.body._tag).toBe("Uint8Array")
    const bodyOf = (response: HttpServerResponse.HttpServerResponse) => {
      const body = response.body as { readonly contentType: string; readonly body: Uint8Array }
      return { contentType: body.contentType, json: JSON.parse(new TextDecoder().decode(body.body)) }
    }
    expect(bodyOf(response)).toEqual(bodyOf(platform))
    // what does not conform is described by Schema.encode's issues: the path and the expectation
    const wrong = { data: [{ id: 1 }], next: null, raw: null }
    expect(answer.json(wrong)).toBeUndefined()
    expect(answer.body(wrong)).toEqual(Either.left("data.0.id: Expected string"))
    expect(Either.isLeft(schemaEncodedJson(answer.schema!, wrong))).toBe(true)
  })
})

/**
 * The compiled encoder and `Schema.encode` on the same value: both refuse it, or both give
 * the same JSON (key order aside).
 */
const expectAgreement = (schema: Schema.Schema.Any, value: unknown, label: string) => {
  const compiled = compileEncoder(schema)
  const fast = Either.isRight(compiled) ? compiled.right(value) : Mismatch
  let fastJson: string | undefined
  try {
    fastJson = fast === Mismatch ? undefined : JSON.stringify(fast)
  } catch {
    fastJson = undefined
  }
  const slow = schemaEncodedJson(schema, value)
  if (fastJson === undefined || Either.isLeft(slow)) {
    expect({ label, fast: fastJson === undefined, slow: Either.isLeft(slow) ? slow.left : "accepted" })
      .toEqual({ label, fast: Either.isLeft(slow), slow: Either.isLeft(slow) ? slow.left : "accepted" })
  } else {
    expect(JSON.parse(fastJson), label).toEqual(JSON.parse(slow.right))
  }
}

/** Arbitrary values of `schema` (fixed seed), each as generated and after 1 to 3 mutations. */
const expectAgreementOnSamples = (schema: Schema.Schema.Any, label: string, runs: number, seed: number) => {
  const values = FastCheck.sample(Arbitrary.make(schema as Schema.Schema<unknown, unknown, never>), { numRuns: runs, seed })
  const random = seeded(seed)
  values.forEach((value, i) => {
    expectAgreement(schema, value, `${label} #${i}`)
    expectAgreement(schema, mutate(value, random, 1 + (i % 3)), `${label} #${i} mutated`)
  })
}

class Point extends Schema.Class<Point>("Point")({ x: Schema.Number }) {}
interface Tree {
  readonly label: string
  readonly children: ReadonlyArray<Tree>
}
const Tree: Schema.Schema<Tree> = Schema.Struct({
  label: Schema.String,
  children: Schema.Array(Schema.suspend((): Schema.Schema<Tree> => Tree))
})
enum Colour {
  Red = "red",
  Green = 2
}

describe("compiled encoder against Schema.encode", () => {
  // One sample set per distinct success schema (operations answering the same envelope share one). The
  // reference's HRIS and LMS records are large, so their samples are fewer: the node kinds they are made
  // of are each sampled at length below.
  const distinctReads = unifiedReads.filter(({ endpoint }, i) =>
    unifiedReads.findIndex((read) => read.endpoint.successSchema === endpoint.successSchema) === i
  )
  it.each([["unified_ats", 60], ["unified_hris", 30], ["unified_lms", 60]] as const)(
    "agrees on arbitrary and mutated values of every %s read's success schema",
    (group, runs) => {
      const reads = distinctReads.filter((read) => read.group === group)
      expect(reads.length).toBeGreaterThan(0)
      reads.forEach(({ endpoint }, i) => {
        const schema = jsonAnswer(endpoint).schema!
        expectAgreementOnSamples(schema, endpoint.name, runs, 1000 + i)
      })
    }
  )

  it("agrees on the node kinds it compiles: unions, tuples, records beside fields, refinements, enums, templates, recursion", () => {
    const schemas: ReadonlyArray<readonly [string, Schema.Schema.Any]> = [
      ["union of structs in order", Schema.Union(Schema.Struct({ a: Schema.String }), Schema.Struct({ b: Schema.Number }), Schema.Unknown)],
      ["union of a struct and unknown", Schema.Union(Schema.Struct({ a: Schema.optional(Schema.String) }), Schema.Unknown)],
      ["tuple with optional element and rest", Schema.Tuple([Schema.String, Schema.optionalElement(Schema.Number)], Schema.Boolean)],
      ["tuple with elements after the rest", Schema.Tuple([Schema.String], Schema.Number, Schema.String)],
      ["exact tuple", Schema.Tuple(Schema.Struct({ a: Schema.String }), Schema.Literal(1, "one"))],
      [
        "record beside fields",
        Schema.Struct({ id: Schema.String, n: Schema.optional(Schema.Number) }, Schema.Record({ key: Schema.String, value: Schema.Union(Schema.String, Schema.Number) }))
      ],
      ["record of structs", Schema.Record({ key: Schema.String, value: Schema.Struct({ v: Schema.NullOr(Schema.Boolean) }) })],
      ["refinements", Schema.Struct({ name: Schema.String.pipe(Schema.minLength(2)), n: Schema.Number.pipe(Schema.int()) })],
      ["enums and templates", Schema.Struct({ colour: Schema.Enums(Colour), ref: Schema.TemplateLiteral("app-", Schema.Number) })],
      ["required unknown and undefined", Schema.Struct({ any: Schema.Unknown, gone: Schema.Undefined, maybe: Schema.UndefinedOr(Schema.String) })],
      ["empty struct", Schema.Struct({ inner: Schema.Struct({}) })],
      ["recursion", Tree]
    ]
    schemas.forEach(([label, schema], i) => {
      expect(Either.isRight(compileEncoder(schema)), label).toBe(true)
      expectAgreementOnSamples(schema, label, 150, 7 + i)
    })
  })

  it("refuses what it does not reproduce, so those answers keep Schema.encode", () => {
    const refused: ReadonlyArray<readonly [string, Schema.Schema.Any]> = [
      ["transformation", Schema.Struct({ at: Schema.DateFromString })],
      ["class (declaration)", Point],
      ["union tagged by a literal", Schema.Union(Schema.TaggedStruct("A", { a: Schema.String }), Schema.TaggedStruct("B", {}))],
      ["default on a field", Schema.Struct({ n: Schema.optionalWith(Schema.Number, { default: () => 1 }) })],
      ["own parse options", Schema.Struct({ a: Schema.String }).annotations({ parseOptions: { onExcessProperty: "error" } })],
      ["symbol keys", Schema.Record({ key: Schema.SymbolFromSelf, value: Schema.String })]
    ]
    for (const [label, schema] of refused) expect(Either.isLeft(compileEncoder(schema)), label).toBe(true)
  })
})
