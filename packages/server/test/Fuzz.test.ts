import { HttpClient, HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Runtime } from "effect"
import fc from "fast-check"
import { accountBody, freshProject, keyFor } from "./support/Fixtures.js"
import { connectorYaml } from "./support/ConnectorYaml.js"
import { applicationWithNote, direct, SandboxLive, SandboxProviders, sandboxGreenhouseAccount } from "./support/SandboxLayer.js"
import { TestServer } from "./support/TestServer.js"
import { base64, send, type WireResponse, withAuthorization } from "./support/Wire.js"

/*
 * Hostile clients, kept in the suite: requests built from the server's own OpenAPI document,
 * every operation in turn, with generated path, query, header and body values (wrong types,
 * NUL and control characters, unpaired surrogates, deep nesting, huge and unicode strings, bad
 * JSON and multipart bodies, wrong content types, bad credentials). Whatever comes in, the
 * server answers no 500 (no 5xx but the documented 501 and 502), every error in the error body,
 * and a refused write leaves the project's accounts, connectors and profiles as they were.
 * Bounded: a fixed seed and a fixed number of runs per operation.
 */

/** Fixed; FUZZ_SEED explores other cases by hand. */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_124)
const RUNS_PER_OPERATION = 10

const Server = Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), SandboxLive(21))

type Json = Record<string, any>

interface Operation {
  readonly method: string
  readonly path: string
  readonly query: ReadonlyArray<string>
  readonly headers: ReadonlyArray<string>
  /** Top-level body properties the document names (empty when it has no body). */
  readonly bodyProperties: ReadonlyArray<string>
  readonly hasBody: boolean
}

const schemaProperties = (document: Json, schema: Json | undefined): Array<string> => {
  if (schema === undefined) return []
  if (typeof schema.$ref === "string") {
    return schemaProperties(document, document.components.schemas[schema.$ref.replace("#/components/schemas/", "")])
  }
  const alternatives = (schema.anyOf ?? schema.oneOf) as Array<Json> | undefined
  if (alternatives !== undefined) return alternatives.flatMap((member) => schemaProperties(document, member))
  return Object.keys(schema.properties ?? {})
}

const operationsOf = (document: Json): Array<Operation> =>
  Object.entries(document.paths as Record<string, Json>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]: [string, Json]) => {
      const parameters = (operation.parameters ?? []) as Array<Json>
      const content = operation.requestBody?.content?.["application/json"]
      return {
        method: method.toUpperCase(),
        path,
        query: parameters.filter((p) => p.in === "query").map((p) => p.name as string),
        headers: parameters.filter((p) => p.in === "header").map((p) => p.name as string),
        bodyProperties: schemaProperties(document, content?.schema),
        hasBody: operation.requestBody !== undefined
      }
    })
  )

// ---------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------

/** Any UTF-16 code unit, so unpaired surrogates and control characters come up. */
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n))

const hostileText = fc.oneof(
  fc.constantFrom(
    "",
    "\u0000",
    "a\u0000b",
    "\ud800",
    "x\udc00y",
    "\u202e\u0000",
    "\u0007\u001b[31m\r\n",
    "../../etc/passwd",
    "%00",
    "' OR 1=1 --",
    "${{ $.credentials }}",
    "null",
    "-1",
    "1e309",
    "NaN",
    "\ud83d\ude00",
    "Ω≈ç√ ﷺ \u200b",
    "a".repeat(70_000),
    "é".repeat(5_000)
  ),
  fc.string({ unit: anyCodeUnit, maxLength: 12 }),
  fc.string({ unit: "grapheme", maxLength: 40 })
)

const hostileJson = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    hostileText,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(hostileText, tie("value"), { maxKeys: 3 })
  )
})).value

/** Percent-encoding that also writes unpaired surrogates, as their (invalid) UTF-8 bytes. */
const encodeRaw = (text: string) => {
  let out = ""
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    const next = text.charCodeAt(i + 1)
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(text.slice(i, i + 2))
      i++
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`).join("")
    } else {
      out += encodeURIComponent(text[i]!)
    }
  }
  return out
}

const pathSegment = (plausible: ReadonlyArray<string>) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...plausible).map(encodeURIComponent) },
    { weight: 3, arbitrary: hostileText.filter((text) => text.length < 3_000).map(encodeRaw) },
    { weight: 1, arbitrary: fc.constantFrom("%", "%zz", "%C0%AF", "%FF%FE", "..", "%2E%2E", ".", "%2F", "%E2%80", "x;search=%00", "x#%00") }
  )

const queryValue = fc.oneof(
  hostileText.filter((text) => text.length < 3_000).map(encodeRaw),
  fc.constantFrom("abc", "0", "-5", "101", "1.5", "true", "a,b,,c", "%", "%zz", "%FF", "updated_at,%00")
)

/** Header values Node's client can send: no control characters, latin-1 bytes allowed. */
const headerValue = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((n) => n !== 0x7f).map((n) => String.fromCharCode(n)), maxLength: 30 }),
  fc.constantFrom("", " ", "x".repeat(300), "heartbeat", "respond-async, heartbeat", "../x")
)

const hostileBodyText = fc.constantFrom(
  "{",
  "[1,",
  "nul",
  "{\"a\":1,}",
  "\"\\ud800\"",
  "{\"name\":\"\\u0000\"}",
  "[".repeat(5_000),
  "{\"a\":".repeat(200) + "1" + "}".repeat(200),
  "\u0000\u0001\u0002",
  "\ufeff{}",
  "1e999999",
  "{\"__proto__\":{\"polluted\":true}}"
)

const contentTypes = fc.constantFrom(
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "multipart/form-data; boundary=xyz",
  "application/xml",
  "application/vnd.api+json",
  "application/json; charset=latin1",
  "application/octet-stream",
  "garbage"
)

type BodyPlan =
  | { readonly kind: "none" }
  | { readonly kind: "json"; readonly value: unknown }
  | { readonly kind: "text"; readonly text: string; readonly contentType: string }
  | { readonly kind: "form" }

const bodyPlan = (operation: Operation, templates: ReadonlyArray<Json>): fc.Arbitrary<BodyPlan> => {
  const shaped = fc.record(
    Object.fromEntries(operation.bodyProperties.map((name) => [name, hostileJson])),
    { requiredKeys: [] }
  )
  const mutated = templates.length === 0
    ? shaped
    : fc.tuple(fc.constantFrom(...templates), fc.nat(), fc.boolean(), hostileJson, hostileText).map(
      ([template, at, keepType, value, text]) => {
        // a string field given another string passes decoding more often than not: storage sees it
        const keys = Object.keys(template)
        const key = keys[at % keys.length]!
        return { ...template, [key]: keepType && typeof template[key] === "string" ? text : value }
      }
    )
  const asJson = (value: fc.Arbitrary<unknown>) => value.map((value): BodyPlan => ({ kind: "json", value }))
  return fc.oneof(
    { weight: 3, arbitrary: asJson(mutated) },
    { weight: 2, arbitrary: asJson(shaped) },
    { weight: 1, arbitrary: asJson(hostileJson) },
    { weight: 2, arbitrary: fc.tuple(hostileBodyText, fc.constant("application/json")).map(([text, contentType]): BodyPlan => ({ kind: "text", text, contentType })) },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom(...templates, {}), contentTypes).map(([value, contentType]): BodyPlan => ({
        kind: "text",
        text: JSON.stringify(value),
        contentType
      }))
    },
    { weight: 1, arbitrary: fc.constant<BodyPlan>({ kind: "form" }) },
    { weight: 1, arbitrary: fc.constant<BodyPlan>({ kind: "none" }) }
  )
}

type Credential = "valid" | "none" | "garbage" | "bearer" | "password" | "read_only"

const credential = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Credential>("valid") },
  { weight: 1, arbitrary: fc.constantFrom<Credential>("none", "garbage", "bearer", "password", "read_only") }
)

// ---------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------

/** What is wrong with an answer (empty when nothing is). */
const answerProblems = (response: WireResponse, isMcp: boolean): Array<string> => {
  const problems: Array<string> = []
  if (response.status === 500 || (response.status >= 500 && ![501, 502].includes(response.status))) {
    problems.push(`status ${response.status}`)
  }
  if (response.status < 400) return problems
  const body = response.json as Json | undefined
  // the MCP protocol answers its own refusals as JSON-RPC errors
  if (isMcp && typeof body === "object" && body !== null && body.jsonrpc === "2.0") return problems
  if (!/^application\/json\b/.test(response.headers["content-type"] ?? "")) problems.push("error body is not JSON")
  if (typeof body !== "object" || body === null) return [...problems, "no error body"]
  const extra = response.status === 400 ? ["data", "provider_errors"] : []
  const keys = Object.keys(body).filter((key) => !extra.includes(key)).sort()
  if (keys.join(",") !== "message,statusCode,timestamp") problems.push(`error body keys ${keys.join(",")}`)
  if (body.statusCode !== response.status) problems.push(`statusCode ${body.statusCode}`)
  if (typeof body.message !== "string" || body.message.length === 0) problems.push("no message")
  if (typeof body.timestamp !== "string" || Number.isNaN(Date.parse(body.timestamp))) problems.push("bad timestamp")
  return problems
}

/** What the project has stored, as text: a refused write must leave it unchanged. */
const storedState = (projectId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const accounts = yield* sql`
      SELECT id, name, owner_id, owner_name, owner_username, connector_key, connector_version, connector_profile_id,
             status, status_reasons, settings, credentials_ciphertext, updated_at
      FROM accounts WHERE project_id = ${projectId} ORDER BY id`
    const connectors = yield* sql`
      SELECT id, key, version, content_hash FROM connector_versions WHERE owner_project_id = ${projectId} ORDER BY id`
    const profiles = yield* sql`
      SELECT id, connector_key, version_spec, label, active, enabled_actions, updated_at
      FROM connector_profiles WHERE project_id = ${projectId} ORDER BY id`
    return JSON.stringify({ accounts, connectors, profiles })
  }).pipe(Effect.orDie)

// ---------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------

const setup = Effect.gen(function*() {
  const sandbox = yield* SandboxProviders
  const project = yield* freshProject
  const linked = yield* project.client.accounts.create_account({ payload: sandboxGreenhouseAccount(sandbox) })
  // patched and deleted freely: the linked account stays usable for unified and action calls
  const victim = yield* project.client.accounts.create_account({ payload: accountBody({ name: "Victim" }) })
  const profile = yield* project.client.connector_profiles.create_connector_profile({
    urlParams: {},
    payload: { connector_key: "greenhouse", label: "Fuzzed" }
  })
  const readOnly = (yield* keyFor(project.projectId, "read_only")).key
  const document = (yield* send(HttpClientRequest.get("/openapi.json"))).json as Json
  const { applicationId, note } = yield* applicationWithNote(sandbox)
  const candidateId = String(((yield* direct(sandbox, "ats", "/candidates?per_page=1")) as Array<Json>)[0]!.id)
  const provider = { applicationId, noteId: String(note.id), candidateId }
  return { sandbox, project, linked, victim, profile, readOnly, document, provider }
})

type Setup = Effect.Effect.Success<typeof setup>

/** Plausible values per path parameter, so some requests reach past the lookups. */
const plausibleSegments = (context: Setup, operation: Operation, name: string): ReadonlyArray<string> => {
  if (operation.path.startsWith("/v2/accounts")) return [context.victim.id, "no-such-account"]
  if (operation.path.startsWith("/v2/connector_profiles")) return [context.profile.id, crypto.randomUUID()]
  if (operation.path.startsWith("/v2/connectors")) {
    return name === "id" ? ["greenhouse", "greenhouse@1.0.0", "greenhouse~builtin", "custom-fuzz@9.9.9"] : ["ats_list_applications", "x"]
  }
  const { applicationId, candidateId, noteId } = context.provider
  if (operation.path.startsWith("/unified/ats/applications")) {
    return name === "id" ? [applicationId, "1"] : [operation.path.includes("/notes/") ? noteId : "1", "ZZZ"]
  }
  if (operation.path.startsWith("/unified/ats/candidates")) return [candidateId, "1"]
  return ["1", "101", "ZZZ"]
}

/** Valid bodies of some writes, so mutating one field reaches past decoding. */
const templatesFor = (operation: Operation): ReadonlyArray<Json> => {
  const key = `${operation.method} ${operation.path}`
  switch (key) {
    case "POST /v2/accounts":
      return [{ ...accountBody() }]
    case "PATCH /v2/accounts/{id}":
      return [{ status: "active", status_reasons: [{ code: "c", description: "d" }] }]
    case "POST /v2/connectors":
      return [{ yaml: connectorYaml({ key: "custom-fuzz", version: "1.0.0" }) }]
    case "POST /v2/connector_profiles":
      return [{ connector_key: "greenhouse", label: "Fuzz profile", enabled_actions: ["ats_list_applications"] }]
    case "PATCH /v2/connector_profiles/{id}":
      return [{ label: "Renamed", active: true }]
    case "POST /actions/rpc":
      return [{ action: "ats_list_applications", query: { page_size: 1 } }]
    case "POST /unified/ats/candidates":
      return [{ first_name: "Ada", last_name: "Lovelace", emails: [{ type: "personal", value: "ada@example.com" }] }]
    case "PATCH /unified/ats/applications/{id}":
      return [{ source: { id: "3" } }]
    case "POST /unified/ats/applications/{id}/documents/upload":
      return [{ name: "notes", file_format: { value: "txt" }, content: base64("hello") }]
    case "POST /mcp":
      return [{ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "greenhouse_ats_list_applications", arguments: { page_size: 1 } } }]
    default:
      return []
  }
}

const requestFor = (context: Setup, operation: Operation) => {
  const segments = fc.record(
    Object.fromEntries(
      [...operation.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name!, pathSegment(plausibleSegments(context, operation, name!))])
    )
  )
  const queryNames = fc.constantFrom(...operation.query, "unknown", "filter[updated_after]", "proxy[x]", "\u0000")
  const query = fc.array(fc.tuple(queryNames, queryValue), { maxLength: 4 })
  const accountId = fc.oneof(
    { weight: 4, arbitrary: fc.constant(context.linked.id) },
    { weight: 1, arbitrary: headerValue }
  )
  const headers = fc.record({
    "x-account-id": fc.option(accountId, { nil: undefined, freq: 8 }),
    prefer: fc.option(headerValue, { nil: undefined, freq: 2 }),
    "idempotency-key": fc.option(headerValue, { nil: undefined, freq: 2 })
  }, { requiredKeys: [] })
  const body = operation.hasBody || operation.method !== "GET"
    ? bodyPlan(operation, templatesFor(operation))
    : fc.constant<BodyPlan>({ kind: "none" })
  // most requests attack one part and keep the rest plausible, so they get past the other checks
  const focus = fc.constantFrom("path", "query", "headers", "body", "body", "credential", "all")
  return fc.record({ segments, query, headers, body, credential, focus })
}

type Generated = ReturnType<typeof requestFor> extends fc.Arbitrary<infer A> ? A : never

const authorizationFor = (context: Setup, credential: Credential): string | undefined => {
  switch (credential) {
    case "valid":
      return `Basic ${base64(`${context.project.key}:`)}`
    case "read_only":
      return `Basic ${base64(`${context.readOnly}:`)}`
    case "password":
      return `Basic ${base64(`${context.project.key}:secret`)}`
    case "garbage":
      return "Basic !!!not-base64\u00ff"
    case "bearer":
      return `Bearer ${context.project.key}`
    case "none":
      return undefined
  }
}

const buildRequest = (context: Setup, operation: Operation, generated: Generated) => {
  const attacked = (part: typeof generated.focus) => generated.focus === part || generated.focus === "all"
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    attacked("path") ? generated.segments[name]! : encodeURIComponent(plausibleSegments(context, operation, name)[0]!))
  const search = attacked("query") ? generated.query.map(([name, value]) => `${encodeRaw(name)}=${value}`).join("&") : ""
  const url = search.length > 0 ? `${path}?${search}` : path
  let request = HttpClientRequest.make(operation.method as "GET")(url)
  const headers = attacked("headers") ? generated.headers : { "x-account-id": context.linked.id }
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) request = HttpClientRequest.setHeader(request, name, value)
  }
  // the MCP transport wants both; without them it refuses before any tool runs
  if (operation.path === "/mcp") request = HttpClientRequest.setHeader(request, "accept", "application/json, text/event-stream")
  const authorization = authorizationFor(context, attacked("credential") ? generated.credential : "valid")
  if (authorization !== undefined) request = request.pipe(withAuthorization(authorization))
  // an operation without a template of its own gets an empty object (most write bodies are all optional)
  const plain: BodyPlan = { kind: "json", value: templatesFor(operation)[0] ?? {} }
  const plan: BodyPlan = attacked("body") ? generated.body : operation.hasBody ? plain : { kind: "none" }
  if (operation.method === "GET" || operation.method === "DELETE") return request
  switch (plan.kind) {
    case "none":
      return request
    case "json":
      return HttpClientRequest.bodyUnsafeJson(request, plan.value)
    case "text":
      return HttpClientRequest.bodyText(request, plan.text, plan.contentType)
    case "form": {
      const form = new FormData()
      form.append("name", "\u0000fuzz")
      form.append("file", new Blob([new Uint8Array([0, 1, 2, 255])]), "fuzz.bin")
      return HttpClientRequest.bodyFormData(request, form)
    }
  }
}

/**
 * The operations are fuzzed in shards, one test each (operation i in shard i mod SHARDS), so that no
 * test's time grows with the API: each shard is a fifth of the operations, on the same setup.
 */
const SHARDS = 5
let shared: Setup | undefined
const sharedSetup = Effect.suspend(() =>
  shared !== undefined ? Effect.succeed(shared) : Effect.tap(setup, (context) => Effect.sync(() => (shared = context)))
)

layer(Server, { excludeTestServices: true })("fuzz", (it) => {
  it.effect.each(Array.from({ length: SHARDS }, (_, shard) => shard))(
    "hostile requests to every operation (shard %i): no 500, the error body on every error, nothing stored by a refused write",
    (shard) =>
    Effect.gen(function*() {
      const context = yield* sharedSetup
      const runtime = yield* Effect.runtime<HttpClient.HttpClient | SqlClient.SqlClient>()
      const run = Runtime.runPromise(runtime)
      const operations: Array<Operation> = [
        ...operationsOf(context.document),
        { method: "POST", path: "/mcp", query: ["x-account-id"], headers: ["x-account-id"], bodyProperties: ["jsonrpc", "id", "method", "params"], hasBody: true },
        { method: "GET", path: "/mcp", query: [], headers: [], bodyProperties: [], hasBody: false }
      ]
      expect(operations.length).toBeGreaterThan(40)
      const findings: Array<string> = []
      for (const operation of operations.filter((_, index) => index % SHARDS === shard)) {
        const found = findings.length
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(requestFor(context, operation), async (generated) => {
              const request = buildRequest(context, operation, generated)
              const write = operation.method !== "GET"
              const before = write ? await run(storedState(context.project.projectId)) : ""
              const response = await run(send(request))
              const problems = answerProblems(response, operation.path === "/mcp")
              if (write && response.status >= 400 && (await run(storedState(context.project.projectId))) !== before) {
                problems.push("a refused write changed what is stored")
              }
              if (problems.length > 0) {
                const shown = response.text.slice(0, 300)
                findings.push(`${request.method} ${request.url.slice(0, 200)}: ${problems.join("; ")} -> ${response.status} ${shown}`)
              }
              return problems.length === 0
            }),
            { seed: SEED, numRuns: RUNS_PER_OPERATION, endOnFailure: true }
          ).catch((error: unknown) => {
            // a failed property is already a finding; anything else (a request that could not be sent) is one too
            if (findings.length === found) {
              findings.push(`${operation.method} ${operation.path}: ${String(error).split("\n").slice(0, 8).join(" ")}`)
            }
          })
        )
      }
      expect(findings).toEqual([])
    }))
})
