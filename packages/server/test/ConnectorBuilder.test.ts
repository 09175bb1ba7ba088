import { describe, expect, it } from "@effect/vitest"
import {
  parseConnector,
  type ParsedConnector,
  type ProviderRequest,
  type ProviderResponse,
  ProviderTransport,
  runAction
} from "@switchyard/engine"
import { Effect, Either, Layer } from "effect"
import { parse as parseYaml } from "yaml"
import { type Draft, type DraftOptions, draftConnectorFromText } from "../src/features/connectorBuilder/draftConnector.js"
import { MAX_DOCUMENT_BYTES } from "../src/features/connectorBuilder/loadApiDocument.js"

/*
 * The connector builder's core on small documents written here: each security scheme type,
 * OpenAPI 3.0, 3.1 and Swagger 2.0, each pagination style and where a list keeps its
 * records, server variables, refusals. Every draft must parse with the connector parser as
 * it is, and the drafted list actions are run against an in-memory provider to show that
 * their requests, mappings and next cursors do what the draft says.
 */

const parsedOf = (draft: Draft): ParsedConnector => {
  const parsed = parseConnector(draft.yaml)
  if (Either.isLeft(parsed)) throw new Error(`the draft does not parse: ${parsed.left.message}\n${draft.yaml}`)
  return parsed.right
}

/** The draft of `document`; every draft must parse with the connector parser as it is. */
const draftOf = (document: unknown, options: DraftOptions = {}): Draft => {
  const text = typeof document === "string" ? document : JSON.stringify(document)
  const draft = Either.getOrThrowWith(draftConnectorFromText(text, options), (refusal) => new Error(`refused: ${refusal.message}`))
  parsedOf(draft)
  expect(draft.yaml.startsWith("StackOne: 1.0.0\n")).toBe(true)
  return draft
}

const refusalOf = (text: string, options: { readonly maxBytes?: number } = {}) =>
  Either.match(draftConnectorFromText(text, options), {
    onLeft: (refusal) => refusal.message,
    onRight: () => "drafted"
  })

const actionOf = (parsed: ParsedConnector, actionId: string) => {
  const action = parsed.definition.actions.find((candidate) => candidate.actionId === actionId)
  if (action === undefined) throw new Error(`no action ${actionId}: ${parsed.definition.actions.map((a) => a.actionId).join(", ")}`)
  return action
}

/** The drafted method named `name`. */
const methodOf = (parsed: ParsedConnector, name: string) => {
  const entry = (parsed.definition.authentication ?? []).find((candidate) => name in candidate)
  if (entry === undefined) throw new Error(`no method ${name}`)
  return entry[name]!
}

/** The draft's comments as the remarks they are: wrapped lines (indented after the `#`) joined. */
const remarksOf = (yaml: string): ReadonlyArray<string> => {
  const remarks: Array<string> = []
  for (const line of yaml.split("\n")) {
    const comment = line.trim()
    if (!comment.startsWith("#")) continue
    const text = comment.slice(2)
    if (text.startsWith("  ") && remarks.length > 0) remarks[remarks.length - 1] += ` ${text.trim()}`
    else remarks.push(text)
  }
  return remarks
}

/** Whether one of the draft's remarks starts with `start`. */
const remarks = (draft: Draft, start: string) => remarksOf(draft.yaml).some((remark) => remark.startsWith(start))

const json = (body: unknown, headers: Record<string, string> = {}): ProviderResponse => ({
  status: 200,
  headers: { "content-type": "application/json", ...headers },
  body
})

/** Runs `actionId` against a provider answering through `answer`; the requests it received come back too. */
const run = (
  parsed: ParsedConnector,
  actionId: string,
  inputs: Record<string, unknown>,
  credentials: Record<string, unknown>,
  answer: (url: URL, request: ProviderRequest) => ProviderResponse
) =>
  Effect.gen(function*() {
    const requests: Array<ProviderRequest> = []
    const transport = Layer.succeed(ProviderTransport, {
      send: (request) =>
        Effect.sync(() => {
          requests.push(request)
          return answer(new URL(request.url), request)
        })
    })
    const output = yield* runAction(parsed, actionId, inputs, { credentials }).pipe(Effect.provide(transport))
    return { output, requests }
  })

/** A successful JSON answer with `schema`, as an operation's `responses`. */
const answers = (schema: unknown) => ({ "200": { description: "ok", content: { "application/json": { schema } } } })

const employee = {
  type: "object",
  properties: {
    id: { type: "integer" },
    firstName: { type: "string" },
    lastName: { type: "string" },
    workEmail: { type: "string", format: "email" },
    hireDate: { type: "string", format: "date" },
    status: { type: "string", enum: ["ACTIVE", "TERMINATED", "ON_LEAVE", "SECONDED"] },
    address: { type: "object", properties: { city: { type: "string" }, postalCode: { type: "string" } } },
    manager: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } }
  }
}

const openApi30 = (extra: Record<string, unknown> = {}) => ({
  openapi: "3.0.3",
  info: { title: "Acme HR API", version: "2.1", description: "The Acme HR API.\n\nMore words." },
  externalDocs: { url: "https://developer.acme.example/docs" },
  servers: [
    { url: "https://{tenant}.acme.example/api/v2", variables: { tenant: { default: "demo", description: "Your tenant" } } },
    { url: "https://sandbox.acme.example/api/v2", description: "Sandbox" }
  ],
  components: {
    securitySchemes: { ApiKeyAuth: { type: "apiKey", in: "header", name: "X-Api-Key" } },
    schemas: { Employee: employee }
  },
  paths: {
    "/employees": {
      get: {
        operationId: "listEmployees",
        parameters: [
          { name: "page", in: "query", schema: { type: "integer", minimum: 1 } },
          { name: "per_page", in: "query", schema: { type: "integer", maximum: 100 } },
          { name: "updated_since", in: "query", schema: { type: "string", format: "date-time" } }
        ],
        responses: {
          "200": {
            description: "ok",
            headers: { Link: { schema: { type: "string" } } },
            content: { "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/Employee" } } } }
          }
        }
      },
      post: {
        operationId: "createEmployee",
        requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/Employee" } } } },
        responses: { "201": { description: "created" } }
      }
    },
    "/employees/{employeeId}": {
      get: {
        operationId: "getEmployee",
        parameters: [{ name: "employeeId", in: "path", required: true, schema: { type: "string" } }],
        responses: {
          ...answers({ type: "object", properties: { data: { $ref: "#/components/schemas/Employee" } } })
        }
      }
    },
    "/reports/{reportId}/run": {
      post: {
        summary: "Run a report",
        parameters: [
          { name: "reportId", in: "path", required: true, schema: { type: "string" } },
          { name: "format", in: "query", schema: { type: "string", enum: ["csv", "json"] } },
          { name: "X-Request-Source", in: "header", schema: { type: "string" } }
        ],
        requestBody: { content: { "application/json": { schema: { type: "object" } } } },
        responses: { "200": { description: "ok" } }
      }
    }
  },
  ...extra
})

describe("connectors draft", () => {
  it.effect("drafts an OpenAPI 3.0 HRIS document: API key, server variables, page numbers with a Link header, mapping and enums", () =>
    Effect.gen(function*() {
      const draft = draftOf(openApi30())
      const parsed = parsedOf(draft)
      const definition = parsed.definition
      expect(remarksOf(draft.yaml)[0]).toBe("Draft connector for Acme HR API (API version 2.1), written by `switchyard connectors draft`")
      expect(definition.info).toMatchObject({ title: "Acme HR API", key: "acme-hr", version: "0.1.0", categories: ["hris"] })
      expect(definition.resources).toBe("https://developer.acme.example/docs")
      expect(definition.baseUrl).toBe("https://${credentials.tenant}.acme.example/api/v2")
      expect(remarks(draft, "another server in the document: https://sandbox.acme.example/api/v2 (Sandbox)")).toBe(true)

      const method = methodOf(parsed, "api_key_auth")
      expect(method.authorization).toEqual({ type: "apiKey", key: "X-Api-Key", value: "$.credentials.apiKey", in: "header" })
      expect(method.configFields?.map((field) => [field.key, field.secret])).toEqual([["tenant", false], ["apiKey", true]])
      expect(method.configFields?.[0]).toMatchObject({ placeholder: "demo", required: true })
      expect(method.testActions).toEqual([{ action: "hris_list_employees" }])

      expect(definition.actions.map((action) => [action.actionId, action.actionType])).toEqual([
        ["hris_list_employees", "list"],
        ["hris_get_employee", "get"],
        ["create_employee", "custom"],
        ["post_reports_by_report_id_run", "custom"]
      ])
      expect(draft.summary).toMatchObject({ category: "hris", unifiedActions: 2, rpcActions: 2, authMethods: 1, schemesNotUnderstood: 0 })
      expect(draft.summary.categoryReason).toContain("inferred")

      // mapping: names in any spelling, nested objects, enums with the obvious values matched
      const list = actionOf(parsed, "hris_list_employees")
      const fields = (list.steps[1]!.stepFunction.parameters as { fields: ReadonlyArray<Record<string, unknown>> }).fields
      const byKey = Object.fromEntries(fields.map((field) => [field.targetFieldKey, field]))
      expect(byKey["first_name"]).toMatchObject({ expression: "$.firstName", type: "string" })
      expect(byKey["work_email"]).toMatchObject({ expression: "$.workEmail" })
      expect(byKey["hire_date"]).toMatchObject({ expression: "$.hireDate", type: "datetime_string" })
      // an address is one object, whole or null, never half-filled
      expect(byKey["home_location"]).toEqual({
        targetFieldKey: "home_location",
        expression: "{{$.address != null ? {city: $.address.city, zip_code: $.address.postalCode} : null}}"
      })
      expect(byKey["manager_id"]).toMatchObject({ expression: "$.manager.id" })
      expect(byKey["employment_status"]).toMatchObject({
        type: "enum",
        enumMapper: {
          matcher: [
            { matchExpression: '{{$.status == "ACTIVE"}}', value: "active" },
            { matchExpression: '{{$.status == "TERMINATED"}}', value: "terminated" },
            { matchExpression: '{{$.status == "ON_LEAVE"}}', value: "leave" }
          ]
        }
      })
      expect(remarks(draft, 'review: employment_status: provider values "SECONDED" are not matched')).toBe(true)
      expect(remarks(draft, "unmapped (no candidate found): title, name,")).toBe(true)
      expect(draft.review.some((item) => item.where === "hris_list_employees" && item.message.includes("SECONDED"))).toBe(true)

      // the list runs: per_page, the page as the cursor, and the Link header deciding the next page
      const { output, requests } = yield* run(parsed, "hris_list_employees", { page_size: 2, cursor: "3", filter_updated_after: "2024-01-01T00:00:00Z" }, { tenant: "acme", apiKey: "k-1" }, () =>
        json([{ id: 7, firstName: "Ada", lastName: "Lovelace", status: "ON_LEAVE", address: { city: "London" }, manager: { id: "m1" } }], {
          link: '<https://acme.acme.example/api/v2/employees?page=4>; rel="next"'
        }))
      expect(requests[0]!.url).toBe("https://acme.acme.example/api/v2/employees?per_page=2&page=3&updated_since=2024-01-01T00%3A00%3A00Z")
      expect(requests[0]!.headers["x-api-key"]).toBe("k-1")
      expect(output.next).toBe("4")
      expect(output.data).toEqual([{
        id: "7",
        remote_id: "7",
        first_name: "Ada",
        last_name: "Lovelace",
        employment_status: { value: "leave", source_value: "ON_LEAVE" },
        home_location: { city: "London" },
        manager_id: "m1",
        remote_manager_id: "m1"
      }])
      const last = yield* run(parsed, "hris_list_employees", {}, { tenant: "acme", apiKey: "k-1" }, () => json([]))
      expect(last.output.next).toBeUndefined()

      // the get reads the record out of its `data` wrapper
      const got = yield* run(parsed, "hris_get_employee", { id: "7" }, { tenant: "acme", apiKey: "k-1" }, () => json({ data: { id: 7, firstName: "Ada" } }))
      expect(got.requests[0]!.url).toBe("https://acme.acme.example/api/v2/employees/7")
      expect(got.output.data).toEqual({ id: "7", remote_id: "7", first_name: "Ada" })

      // an RPC action sends its path, query, header and body inputs
      const rpc = actionOf(parsed, "post_reports_by_report_id_run")
      expect(rpc.inputs?.map((input) => [input.name, input.in, input.required ?? false])).toEqual([
        ["report_id", "path", true],
        ["format", "query", false],
        ["x_request_source", "headers", false],
        ["body", "body", false]
      ])
      const report = yield* run(parsed, "post_reports_by_report_id_run", { report_id: "r 1", format: "csv", x_request_source: "tests", body: { year: 2024 } }, { tenant: "acme", apiKey: "k" }, () => json({ ok: true }))
      expect(report.requests[0]).toMatchObject({
        method: "POST",
        url: "https://acme.acme.example/api/v2/reports/r%201/run?format=csv",
        body: { _tag: "Json", value: { year: 2024 } }
      })
      expect(report.requests[0]!.headers["x-request-source"]).toBe("tests")
      expect(report.output.data).toEqual({ ok: true })
    }))

  it.effect("drafts an OpenAPI 3.1 document: bearer token, type lists with null, a cursor in the answer's meta and records under data", () =>
    Effect.gen(function*() {
      const draft = draftOf({
        openapi: "3.1.0",
        info: { title: "Trainly", version: "1" },
        servers: [{ url: "https://api.trainly.example/v1/" }],
        components: { securitySchemes: { token: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
        security: [{ token: [] }],
        paths: {
          "/learners": {
            get: {
              parameters: [
                { name: "cursor", in: "query", schema: { type: ["string", "null"] } },
                { name: "limit", in: "query", schema: { type: "integer" } }
              ],
              responses: answers({
                type: "object",
                properties: {
                  data: {
                    type: "array",
                    items: {
                      type: "object",
                      properties: {
                        uuid: { type: "string" },
                        email: { type: ["string", "null"] },
                        full_name: { type: "string" },
                        is_active: { type: "boolean" },
                        created: { type: "string", format: "date-time" }
                      }
                    }
                  },
                  meta: { type: "object", properties: { next_cursor: { type: ["string", "null"] } } }
                }
              })
            }
          },
          "/courses": { get: { responses: answers({ type: "object", properties: { courses: { type: "array", items: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } } } } }) } }
        }
      })
      const parsed = parsedOf(draft)
      expect(draft.summary.category).toBe("lms")
      expect(parsed.definition.baseUrl).toBe("https://api.trainly.example/v1")
      expect(methodOf(parsed, "token")).toMatchObject({ type: "custom", authorization: { type: "bearer", token: "$.credentials.token" } })
      expect(parsed.definition.actions.map((action) => action.actionId)).toEqual(["lms_list_users", "lms_list_courses"])

      const { output, requests } = yield* run(parsed, "lms_list_users", { page_size: 10 }, { token: "t-1" }, () =>
        json({ data: [{ uuid: "u1", email: "a@b.c", full_name: "A B", is_active: true, created: "2024-05-01T10:00:00Z" }], meta: { next_cursor: "c-2" } }))
      expect(requests[0]!.url).toBe("https://api.trainly.example/v1/learners?limit=10")
      expect(requests[0]!.headers["authorization"]).toBe("Bearer t-1")
      expect(output.next).toBe("c-2")
      expect(output.data).toEqual([{ id: "u1", remote_id: "u1", name: "A B", email: "a@b.c", active: true, created_at: "2024-05-01T10:00:00.000Z" }])
      const second = yield* run(parsed, "lms_list_users", { cursor: "c-2" }, { token: "t-1" }, () => json({ data: [], meta: { next_cursor: null } }))
      expect(second.requests[0]!.url).toBe("https://api.trainly.example/v1/learners?limit=25&cursor=c-2")
      expect(second.output.next).toBeUndefined()

      // records under a property named after the resource; no pagination recognized is said
      const courses = yield* run(parsed, "lms_list_courses", {}, { token: "t-1" }, () => json({ courses: [{ id: "c1", name: "Safety" }] }))
      expect(courses.output.data).toEqual([{ id: "c1", remote_id: "c1", title: "Safety" }])
      expect(remarks(draft, "no pagination recognized: one request")).toBe(true)
    }))

  it.effect("drafts a Swagger 2.0 document: basic auth, schemes/host/basePath, offset and limit with a total, records under results", () =>
    Effect.gen(function*() {
      const draft = draftOf({
        swagger: "2.0",
        info: { title: "Hiring Hub", version: "3" },
        host: "api.hiringhub.example",
        basePath: "/v3",
        schemes: ["http", "https"],
        securityDefinitions: { basicAuth: { type: "basic" } },
        paths: {
          "/candidates": {
            get: {
              parameters: [
                { name: "offset", in: "query", type: "integer" },
                { name: "limit", in: "query", type: "integer", maximum: 50 }
              ],
              responses: {
                "200": {
                  description: "ok",
                  schema: {
                    type: "object",
                    properties: {
                      total: { type: "integer" },
                      results: { type: "array", items: { $ref: "#/definitions/Candidate" } }
                    }
                  }
                }
              }
            }
          },
          "/candidates/{id}": {
            get: { parameters: [{ name: "id", in: "path", required: true, type: "string" }], responses: { "200": { description: "ok", schema: { $ref: "#/definitions/Candidate" } } } },
            put: {
              parameters: [{ name: "id", in: "path", required: true, type: "string" }, { name: "candidate", in: "body", schema: { $ref: "#/definitions/Candidate" } }],
              responses: { "200": { description: "ok" } }
            }
          },
          "/applications": { get: { parameters: [{ name: "since", in: "query", type: "string", format: "date-time" }], responses: { "200": { description: "ok", schema: { type: "array", items: { type: "object", properties: { id: { type: "string" }, candidate_id: { type: "string" } } } } } } } }
        },
        definitions: {
          Candidate: {
            type: "object",
            properties: { id: { type: "string" }, first_name: { type: "string" }, last_name: { type: "string" }, email_address: { type: "string" }, updated: { type: "string", format: "date-time" } }
          }
        }
      })
      const parsed = parsedOf(draft)
      expect(draft.summary).toMatchObject({ category: "ats", unifiedActions: 3, rpcActions: 1 })
      expect(parsed.definition.baseUrl).toBe("https://api.hiringhub.example/v3")
      const method = methodOf(parsed, "basic_auth")
      expect(method.authorization).toEqual({ type: "basic", username: "$.credentials.username", password: "$.credentials.password" })
      expect(method.configFields?.map((field) => [field.key, field.secret])).toEqual([["username", false], ["password", true]])

      const { output, requests } = yield* run(parsed, "ats_list_candidates", { page_size: 80, cursor: "50" }, { username: "u", password: "p" }, () =>
        json({ total: 120, results: [{ id: "c1", first_name: "Grace", email_address: "g@h.example" }, { id: "c2" }] }))
      // the provider's maximum caps the page size
      expect(requests[0]!.url).toBe("https://api.hiringhub.example/v3/candidates?limit=50&offset=50")
      expect(requests[0]!.headers["authorization"]).toBe(`Basic ${Buffer.from("u:p").toString("base64")}`)
      expect(output.next).toBe("52")
      expect(output.data).toEqual([
        { id: "c1", remote_id: "c1", first_name: "Grace", email: "g@h.example" },
        { id: "c2", remote_id: "c2" }
      ])
      const end = yield* run(parsed, "ats_list_candidates", { cursor: "118" }, { username: "u", password: "p" }, () => json({ total: 120, results: [{ id: "a" }, { id: "b" }] }))
      expect(end.output.next).toBeUndefined()

      // the update is an RPC action with the body parameter as its body input
      expect(actionOf(parsed, "put_candidates_by_id").inputs?.map((input) => input.name)).toEqual(["id", "body"])
      // `since` is a date, not an offset: the applications list reads all at once, and filters by it
      expect(actionOf(parsed, "ats_list_applications").inputs?.map((input) => input.name)).toEqual(["page_size", "cursor", "filter_updated_after"])
    }))

  it("turns OAuth 2.0 flows into methods and says what it did not understand, never dropping a scheme", () => {
    const draft = draftOf({
      openapi: "3.0.0",
      info: { title: "People Cloud", version: "1" },
      servers: [{ url: "https://api.peoplecloud.example" }],
      components: {
        securitySchemes: {
          oauth: {
            type: "oauth2",
            flows: {
              authorizationCode: {
                authorizationUrl: "/oauth/authorize",
                tokenUrl: "https://auth.peoplecloud.example/token",
                scopes: { "employees:read": "Read employees", "employees:write": "Write employees" }
              },
              clientCredentials: { tokenUrl: "https://auth.peoplecloud.example/token", scopes: { "employees:read": "Read employees" } },
              implicit: { authorizationUrl: "https://auth.peoplecloud.example/implicit", scopes: {} }
            }
          },
          rotating: {
            type: "oauth2",
            flows: {
              authorizationCode: {
                authorizationUrl: "https://auth.peoplecloud.example/{appName}/authorize",
                tokenUrl: "https://auth.peoplecloud/token",
                refreshUrl: "https://auth.peoplecloud.example/refresh",
                scopes: {}
              }
            }
          },
          noToken: { type: "oauth2", flows: { authorizationCode: { authorizationUrl: "https://auth.peoplecloud.example/authorize", scopes: {} } } },
          keyInQuery: { type: "apiKey", in: "query", name: "api_key" },
          keyInCookie: { type: "apiKey", in: "cookie", name: "session" },
          oidc: { type: "openIdConnect", openIdConnectUrl: "https://auth.peoplecloud.example/.well-known/openid-configuration" },
          digest: { type: "http", scheme: "digest" },
          tls: { type: "mutualTLS" },
          custom: { type: "x-signature" }
        }
      },
      paths: {
        "/people": {
          get: {
            security: [{ oauth: ["employees:read"] }],
            responses: answers({ type: "array", items: { type: "object", properties: { id: { type: "string" } } } })
          }
        }
      }
    })
    const parsed = parsedOf(draft)
    // static keys first (the first method is the default), then client credentials, then consent flows
    expect((parsed.definition.authentication ?? []).map((entry) => Object.keys(entry)[0])).toEqual([
      "key_in_query",
      "oauth_client_credentials",
      "oauth_authorization_code",
      "rotating"
    ])
    expect(methodOf(parsed, "oauth_authorization_code")).toMatchObject({
      type: "oauth2",
      grantType: "authorization_code",
      authorizationUrl: "https://api.peoplecloud.example/oauth/authorize",
      tokenUrl: "https://auth.peoplecloud.example/token",
      scopes: ["employees:read"],
      authorization: { type: "oauth2", token: "$.credentials.accessToken", includeBearer: true },
      testActions: [{ action: "hris_list_employees" }]
    })
    expect(methodOf(parsed, "oauth_authorization_code").setupFields?.map((field) => [field.key, field.secret])).toEqual([["clientId", false], ["clientSecret", true]])
    expect(methodOf(parsed, "oauth_client_credentials")).toMatchObject({
      type: "oauth2",
      grantType: "client_credentials",
      tokenUrl: "https://auth.peoplecloud.example/token",
      scopes: ["employees:read"]
    })
    expect(methodOf(parsed, "oauth_client_credentials").configFields?.map((field) => [field.key, field.secret])).toEqual([["clientId", false], ["clientSecret", true]])
    // a refresh URL other than the token URL gets a refresh action of its own
    expect(methodOf(parsed, "rotating").refreshAuthentication).toEqual({ action: "rotating_refresh_token" })
    expect(actionOf(parsed, "rotating_refresh_token")).toMatchObject({ actionType: "refresh_token" })
    expect(methodOf(parsed, "key_in_query").authorization).toEqual({ type: "apiKey", key: "api_key", value: "$.credentials.apiKey", in: "query" })
    // a variable of an OAuth URL is that method's field only; a host with no known domain is questioned
    expect(methodOf(parsed, "rotating").configFields?.map((field) => field.key)).toEqual(["appName"])
    expect(methodOf(parsed, "key_in_query").configFields?.map((field) => field.key)).toEqual(["apiKey"])
    expect(draft.review.map((item) => item.message)).toEqual(expect.arrayContaining([
      "rotating: the tokenUrl's host auth.peoplecloud does not look like a public host name; check the URL",
      "the document allows only oauth to call GET /people: with key_in_query or rotating it is refused"
    ]))

    for (
      const said of [
        "not understood: security scheme oauth (oauth2 authorizationCode, clientCredentials, implicit): the implicit flow",
        "not understood: security scheme keyInCookie (apiKey in cookie session): API keys in a cookie cannot be sent",
        "not understood: security scheme oidc (openIdConnect https://auth.peoplecloud.example/.well-known/openid-configuration)",
        "not understood: security scheme digest (http digest)",
        "not understood: security scheme tls (mutualTLS)",
        "not understood: security scheme custom (x-signature): the type x-signature is not an OpenAPI security scheme type",
        "not understood: security scheme noToken (oauth2 authorizationCode): its authorizationCode flow gives no tokenUrl, so no method is drafted from it"
      ]
    ) expect({ said, found: remarks(draft, said) }).toEqual({ said, found: true })
    expect(draft.summary).toMatchObject({ authMethods: 4, schemesNotUnderstood: 7 })
  })

  it("reads a relative or missing server as a base URL field, and the path parameters that scope the API as configuration", () => {
    const relative = draftOf({
      openapi: "3.0.1",
      info: { title: "Scoped", version: "1" },
      servers: [{ url: "/api/{version}", variables: { version: { default: "v4", enum: ["v3", "v4"] } } }],
      components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "Authorization", description: "A bearer token" } } },
      paths: {
        "/companies/{company_id}/employees": {
          get: {
            parameters: [{ name: "company_id", in: "path", required: true, schema: { type: "string" } }],
            responses: answers({ type: "array", items: { type: "object", properties: { uuid: { type: "string" } } } })
          }
        },
        "/teams/{team_id}/locations": {
          get: {
            parameters: [{ name: "team_id", in: "path", required: true, schema: { type: "string" } }],
            responses: answers({ type: "array", items: { type: "object", properties: { id: { type: "string" } } } })
          }
        },
        "/EmpEmployment(personIdExternal='{personIdExternal}',userId='{userId}')": {
          get: {
            parameters: [
              { name: "personIdExternal", in: "path", required: true, schema: { type: "string" } },
              { name: "userId", in: "path", required: true, schema: { type: "string" } }
            ],
            responses: answers({ type: "object", properties: { userId: { type: "string" }, startDate: { type: "string" } } })
          }
        }
      }
    })
    const parsed = parsedOf(relative)
    expect(parsed.definition.baseUrl).toBe("${credentials.baseUrl}/api/${credentials.version}")
    const method = methodOf(parsed, "key")
    expect(method.configFields?.map((field) => field.key)).toEqual(["baseUrl", "version", "companyId", "apiKey"])
    expect(method.configFields?.[1]?.description).toContain("one of v3, v4")
    // an API key in the Authorization header described as a bearer token is sent with its prefix
    expect(method.authorization).toMatchObject({ key: "Authorization", value: "Bearer ${credentials.apiKey}" })
    const fetch = actionOf(parsed, "hris_list_employees").steps[0]!.stepFunction.parameters as { args: ReadonlyArray<unknown> }
    expect(fetch.args).toContainEqual({ name: "company_id", value: "$.credentials.companyId", in: "path" })
    // a team's locations are a subset, not the unified list: an RPC action with the team as its input
    expect(actionOf(parsed, "get_teams_by_team_id_locations").inputs?.map((input) => [input.name, input.in])).toEqual([["team_id", "path"]])
    // a key part that is neither the record's id nor an account's scope is an input of the action
    const employment = actionOf(parsed, "hris_get_employment")
    expect(employment.inputs).toContainEqual({ name: "person_id_external", type: "string", in: "path", required: true, description: "The personIdExternal of the path" })
    expect((employment.steps[0]!.stepFunction.parameters as { args: ReadonlyArray<unknown> }).args).toEqual([
      { name: "personIdExternal", value: "$.inputs.person_id_external", in: "path" },
      { name: "userId", value: "$.inputs.id", in: "path" },
      { name: "Accept", value: "application/json", in: "headers" }
    ])
    expect(relative.review.map((item) => item.message)).toEqual(expect.arrayContaining([
      "the document's server is relative (/api/{version}): the base URL starts with a configuration field (baseUrl)",
      "the path parameter company_id is not one the unified API passes: it is read from the configuration field companyId"
    ]))

    const hostless = parsedOf(draftOf({ swagger: "2.0", info: { title: "No Host", version: "1" }, paths: { "/ping": { get: { responses: { "200": { description: "ok" } } } } } }))
    expect(hostless.definition.baseUrl).toBe("${credentials.baseUrl}")
    // no security scheme: the configuration still has a method to live in
    expect(methodOf(hostless, "configuration")).toMatchObject({ type: "custom", authorization: { type: "none" } })
  })

  it.effect("follows next links given in the answer, one page per call, with the link as the cursor", () =>
    Effect.gen(function*() {
      const draft = draftOf({
        openapi: "3.0.0",
        info: { title: "Linked", version: "1" },
        servers: [{ url: "https://api.linked.example" }],
        paths: {
          "/jobs": {
            get: {
              parameters: [{ name: "pageSize", in: "query", schema: { type: "integer" } }],
              responses: answers({
                type: "object",
                properties: {
                  items: { type: "array", items: { type: "object", properties: { id: { type: "string" }, title: { type: "string" } } } },
                  links: { type: "object", properties: { next: { type: "string", format: "uri" } } }
                }
              })
            }
          }
        }
      }, { category: "ats" })
      const parsed = parsedOf(draft)
      expect(draft.summary.categoryReason).toContain("given")
      const fetch = actionOf(parsed, "ats_list_jobs").steps[0]!.stepFunction
      expect(fetch).toMatchObject({ functionName: "paginated_request", parameters: { maxPages: 1, response: { dataKey: "items", nextKey: "links.next" } } })
      const first = yield* run(parsed, "ats_list_jobs", { page_size: 5 }, {}, () =>
        json({ items: [{ id: "j1", title: "Welder" }], links: { next: "https://api.linked.example/jobs?page=2&pageSize=5" } }))
      expect(first.requests.map((request) => request.url)).toEqual(["https://api.linked.example/jobs?pageSize=5"])
      expect(first.output).toEqual({ data: [{ id: "j1", remote_id: "j1", title: "Welder" }], next: "https://api.linked.example/jobs?page=2&pageSize=5" })
      const second = yield* run(parsed, "ats_list_jobs", { page_size: 5, cursor: first.output.next }, {}, () => json({ items: [{ id: "j2" }], links: { next: null } }))
      expect(second.requests.map((request) => request.url)).toEqual(["https://api.linked.example/jobs?page=2&pageSize=5"])
      expect(second.output.next).toBeUndefined()
    }))

  it.effect("reads has_more and total_pages signals, OData's $top/$skip and d.results, deepObject page parameters and offsets that are tokens", () =>
    Effect.gen(function*() {
      const list = (parameters: ReadonlyArray<unknown>, schema: unknown, headers?: unknown) => ({
        get: { parameters, responses: { "200": { description: "ok", ...(headers === undefined ? {} : { headers }), content: { "application/json": { schema } } } } }
      })
      const records = { type: "array", items: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } } }
      const draft = draftOf({
        openapi: "3.0.0",
        info: { title: "Signals", version: "1" },
        servers: [{ url: "https://api.signals.example" }],
        paths: {
          "/departments": list([{ name: "page", in: "query", schema: { type: "integer" } }, { name: "size", in: "query", schema: { type: "integer" } }], {
            type: "object",
            properties: { results: records, has_more: { type: "boolean" } }
          }),
          "/teams": list([{ name: "pageNumber", in: "query", schema: { type: "integer", minimum: 0 } }], {
            type: "object",
            properties: { content: records, page: { type: "object", properties: { totalPages: { type: "integer" } } } }
          }),
          "/locations": list([{ name: "$top", in: "query", schema: { type: "integer" } }, { name: "$skip", in: "query", schema: { type: "integer" } }], {
            type: "object",
            properties: { d: { type: "object", properties: { results: records, __count: { type: "string" } } } }
          }),
          "/divisions": list([{ name: "page", in: "query", style: "deepObject", schema: { type: "object", properties: { after: { type: "string" }, limit: { type: "integer" } } } }], {
            type: "object",
            properties: { data: records, meta: { type: "object", properties: { nextCursor: { type: "string" } } } }
          }),
          // Lever's way: `offset` is an opaque token, the answer's `next` the following one
          "/companies": list([{ name: "offset", in: "query", schema: { type: "string" } }, { name: "limit", in: "query", schema: { type: "integer" } }], {
            type: "object",
            properties: { data: records, hasNext: { type: "boolean" }, next: { type: "string" } }
          })
        }
      })
      const parsed = parsedOf(draft)
      expect(parsed.definition.actions.map((action) => action.actionId)).toEqual([
        "hris_list_locations",
        "hris_list_companies",
        "hris_list_department_groups",
        "hris_list_team_groups",
        "hris_list_division_groups"
      ])

      const hasMore = yield* run(parsed, "hris_list_department_groups", { cursor: "2" }, {}, () => json({ results: [{ id: "d1", name: "Ops" }], has_more: true }))
      expect(hasMore.requests[0]!.url).toBe("https://api.signals.example/departments?size=25&page=2")
      expect(hasMore.output).toMatchObject({ next: "3", data: [{ id: "d1", remote_id: "d1", name: "Ops" }] })

      // pages counted from 0: page 0 of 3 has a next page, page 2 has none
      const zero = yield* run(parsed, "hris_list_team_groups", {}, {}, () => json({ content: [{ id: "t1" }], page: { totalPages: 3 } }))
      expect(zero.output.next).toBe("1")
      const lastPage = yield* run(parsed, "hris_list_team_groups", { cursor: "2" }, {}, () => json({ content: [{ id: "t9" }], page: { totalPages: 3 } }))
      expect(lastPage.output.next).toBeUndefined()

      // OData: `$top` and `$skip` cannot be argument names (they read as JSONPath); they are sent through one spread object
      const odata = yield* run(parsed, "hris_list_locations", { page_size: 2, cursor: "4" }, {}, () => json({ d: { results: [{ id: "l1" }, { id: "l2" }] } }))
      expect(odata.requests[0]!.url).toBe("https://api.signals.example/locations?%24top=2&%24skip=4")
      expect(odata.output).toMatchObject({ next: "6", data: [{ id: "l1", remote_id: "l1" }, { id: "l2", remote_id: "l2" }] })
      expect(remarks(draft, "review: nothing in the answer says whether another page follows: a full page is taken to mean there is one")).toBe(true)

      // a deepObject parameter is read as page[after] and page[limit]
      const deep = yield* run(parsed, "hris_list_division_groups", { cursor: "abc" }, {}, () => json({ data: [{ id: "v1" }], meta: { nextCursor: "def" } }))
      expect(deep.requests[0]!.url).toBe("https://api.signals.example/divisions?page%5Blimit%5D=25&page%5Bafter%5D=abc")
      expect(deep.output.next).toBe("def")

      const token = yield* run(parsed, "hris_list_companies", { cursor: "tok-1" }, {}, () => json({ data: [{ id: "c1", name: "Acme" }], hasNext: true, next: "tok-2" }))
      expect(token.requests[0]!.url).toBe("https://api.signals.example/companies?limit=25&offset=tok-1")
      expect(token.output).toMatchObject({ next: "tok-2", data: [{ id: "c1", remote_id: "c1", name: "Acme" }] })
    }))

  it("infers the category from the paths, and takes --category and --key as given", () => {
    const document = {
      openapi: "3.0.0",
      info: { title: "Mixed", version: "1" },
      paths: Object.fromEntries(["/candidates", "/applications", "/jobs", "/users"].map((path) => [path, { get: { responses: { "200": { description: "ok" } } } }]))
    }
    const inferred = draftOf(document)
    expect(inferred.summary.category).toBe("ats")
    expect(inferred.summary.categoryReason).toBe("inferred: the paths match 1 HRIS, 4 ATS, 1 LMS unified actions (give --category to choose)")
    expect(remarks(inferred, "from its OpenAPI 3.0.0 document. Category ats: inferred")).toBe(true)
    const given = draftOf(document, { category: "lms", key: "mixed_lms" })
    const parsed = parsedOf(given)
    expect(parsed.definition.info).toMatchObject({ key: "mixed_lms", categories: ["lms"] })
    expect(parsed.definition.actions.map((action) => action.actionId)).toEqual(["lms_list_users", "get_candidates", "get_applications", "get_jobs"])
    // the answers are not described: said, and the records pass through rather than being mapped to empty objects
    expect(remarks(given, "review: the document does not describe the answer")).toBe(true)
    expect(remarks(given, "review: no field could be mapped; the records pass through unmapped")).toBe(true)
  })

  it("keeps names the connector format would read as expressions, and names outside ASCII, from breaking the draft", () => {
    const draft = draftOf({
      openapi: "3.0.0",
      info: { title: "Wëird ÄPI", version: "1" },
      servers: [{ url: "https://api.weird.example" }],
      paths: {
        "/search": {
          post: {
            operationId: "Ünïcode☃Search",
            parameters: [
              { name: "$filter", in: "query", schema: { type: "string" } },
              { name: "{{evil}}", in: "query", schema: { type: "string" } },
              { name: "${credentials.apiKey}", in: "header", schema: { type: "string" } }
            ],
            responses: answers({ type: "object" })
          }
        }
      }
    })
    const parsed = parsedOf(draft)
    expect(parsed.definition.info.key).toBe("weird")
    const search = actionOf(parsed, "unicode_search")
    expect(search.inputs?.map((input) => input.name)).toEqual(["filter"])
    expect((search.steps[0]!.stepFunction.parameters as { args: unknown }).args).toEqual([
      { name: "query_parameters", value: "{{ {$filter: inputs.filter} }}", in: "query", spread: true }
    ])
    expect(draft.review.filter((item) => item.where === "unicode_search").map((item) => item.message)).toEqual([
      "the query parameter {{evil}} is not sent: its name reads as an expression in the connector format",
      "the headers parameter ${credentials.apiKey} is not sent: its name reads as an expression in the connector format"
    ])
  })

  it.effect("sends the query parameters that belong to the account from its configuration, and asks for JSON where a format parameter can", () =>
    Effect.gen(function*() {
      const common = [
        { name: "source", in: "query", required: true, description: "Who calls", schema: { type: "string" } },
        { name: "format", in: "query", description: "set to json for JSON answers", schema: { type: "string" } }
      ]
      const draft = draftOf({
        openapi: "3.0.0",
        info: { title: "Learnly", version: "1" },
        servers: [{ url: "https://api.learnly.example/v1" }],
        components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "apikey" } } },
        paths: {
          "/users": { get: { parameters: common, responses: answers({ type: "array", items: { type: "object", properties: { Id: { type: "string" } } } }) } },
          "/courses": { get: { parameters: common, responses: answers({ type: "array", items: { type: "object", properties: { Id: { type: "string" } } } }) } },
          "/teams": { post: { parameters: [common[0]], responses: answers({ type: "object" }) } }
        }
      })
      const parsed = parsedOf(draft)
      expect(methodOf(parsed, "key").configFields?.map((field) => field.key)).toEqual(["source", "apiKey"])
      // neither becomes an input: the unified API would never pass them
      expect(actionOf(parsed, "lms_list_users").inputs?.map((input) => input.name)).toEqual(["page_size", "cursor"])
      expect(actionOf(parsed, "post_teams").inputs).toBeUndefined()
      const { requests } = yield* run(parsed, "lms_list_users", {}, { source: "acme-app", apiKey: "k" }, () => json([{ Id: "u1" }]))
      expect(requests[0]!.url).toBe("https://api.learnly.example/v1/users?source=acme-app&format=json")
      expect(remarks(draft, "the source query parameter, which 3 of the 3 operations require, is a configuration field")).toBe(true)
    }))

  it.effect("builds addresses whole or null, reads country codes only from codes, and takes title for a job title", () =>
    Effect.gen(function*() {
      const draft = draftOf({
        openapi: "3.0.0",
        info: { title: "Shapes", version: "1" },
        servers: [{ url: "https://api.shapes.example" }],
        paths: {
          "/employees": {
            get: {
              responses: answers({
                type: "array",
                items: {
                  type: "object",
                  properties: {
                    id: { type: "string" },
                    title: { type: "string" },
                    home_address: { type: "object", properties: { line1: { type: "string" }, city: { type: "string" }, country: { type: "string" } } }
                  }
                }
              })
            }
          },
          "/companies/current": { get: { responses: answers({ type: "object", properties: { id: { type: "string" }, name: { type: "string" }, offices: { type: "array", items: { type: "object" } } } }) } },
          "/org/activities/locations": { get: { responses: answers({ type: "array", items: { type: "object", properties: { id: { type: "string" } } } }) } }
        }
      })
      const parsed = parsedOf(draft)
      // the current company is the companies list's one record; an activity log of locations is no location list
      expect(parsed.definition.actions.map((action) => action.actionId)).toEqual(["hris_list_employees", "hris_list_companies", "get_org_activities_locations"])
      const answer = [
        { id: "1", title: "Welder", home_address: { line1: "1 Main St", city: "Lyon", country: "fr" } },
        { id: "2", home_address: { city: "Utrecht", country: "Netherlands" } },
        { id: "3", home_address: null }
      ]
      const { output } = yield* run(parsed, "hris_list_employees", {}, {}, () => json(answer))
      expect(output.data).toEqual([
        {
          id: "1",
          remote_id: "1",
          job_title: "Welder",
          home_location: { street_1: "1 Main St", city: "Lyon", country: { value: "FR", source_value: "fr" } }
        },
        { id: "2", remote_id: "2", home_location: { city: "Utrecht", country: { value: "unmapped_value", source_value: "Netherlands" } } },
        // no address, no object (jexl's null leaves the field out, as the built-in connectors' addresses do)
        { id: "3", remote_id: "3" }
      ])
      const company = yield* run(parsed, "hris_list_companies", {}, {}, () => json({ id: "c1", name: "Acme", offices: [] }))
      expect(company.output.data).toEqual([{ id: "c1", remote_id: "c1", name: "Acme" }])
      expect(remarks(draft, "review: the answer is one record, not a list: the list holds it alone")).toBe(true)
    }))

  it.effect("reads a user's assignments and completions from a list narrowed by query parameters when no path names them", () =>
    Effect.gen(function*() {
      const draft = draftOf({
        openapi: "3.0.0",
        info: { title: "Enrolly", version: "1" },
        servers: [{ url: "https://api.enrolly.example" }],
        paths: {
          "/enrollments": {
            get: {
              parameters: [
                { name: "query[user_id]", in: "query", schema: { type: "number" } },
                { name: "query[completed]", in: "query", schema: { type: "boolean" } }
              ],
              responses: answers({
                type: "array",
                items: { type: "object", properties: { id: { type: "string" }, user_id: { type: "number" }, course_id: { type: "number" }, completed_at: { type: "string", format: "date-time" } } }
              })
            }
          }
        }
      }, { category: "lms" })
      const parsed = parsedOf(draft)
      expect(parsed.definition.actions.map((action) => action.actionId)).toEqual([
        "lms_list_user_assignments",
        "lms_list_user_completions",
        "lms_list_assignments",
        "lms_list_completions"
      ])
      const { output, requests } = yield* run(parsed, "lms_list_user_completions", { id: "42" }, {}, () =>
        json([{ id: "e1", user_id: 42, course_id: 7, completed_at: "2024-03-01T09:00:00Z" }]))
      expect(requests[0]!.url).toBe("https://api.enrolly.example/enrollments?query%5Buser_id%5D=42&query%5Bcompleted%5D=true")
      expect(output.data).toEqual([{
        id: "e1",
        remote_id: "e1",
        completed_at: "2024-03-01T09:00:00.000Z",
        user_id: "42",
        remote_user_id: "42",
        course_id: "7",
        remote_course_id: "7",
        learning_object_id: "7",
        remote_learning_object_id: "7"
      }])
      expect(remarks(draft, "review: matched from GET /enrollments: no operation reads these records by path: drafted from GET /enrollments?query[user_id]=<id>&query[completed]=true")).toBe(true)
    }))

  it("refuses what is not an OpenAPI document, has no paths, or is too large, saying why", () => {
    expect(refusalOf("")).toBe("the document is empty")
    expect(refusalOf("just some words")).toBe("the document is not an OpenAPI description: it is a single text value, not an object with `openapi` and `paths`")
    expect(refusalOf("[1, 2]")).toBe("the document is not an OpenAPI description: it is a list, not an object with `openapi` and `paths`")
    expect(refusalOf(JSON.stringify({ name: "package", version: "1.0.0" }))).toBe(
      "the document is not an OpenAPI description: it has no `openapi` field (OpenAPI 3.x) nor `swagger: \"2.0\"` (Swagger 2.0); its top-level keys are name, version"
    )
    expect(refusalOf("openapi: 4.0.0\npaths: {/a: {}}\n")).toBe("the document declares openapi: 4.0.0; OpenAPI 3.x and Swagger 2.0 are read")
    expect(refusalOf("swagger: '1.2'\npaths: {/a: {}}\n")).toBe("the document declares swagger: 1.2; only Swagger 2.0 (and OpenAPI 3.x) is read")
    expect(refusalOf("openapi: 3.0.0\ninfo: {title: T, version: '1'}\n")).toBe(
      "the document has no paths: there is no operation to draft actions from (webhook-only or component-only documents are not drafted)"
    )
    expect(refusalOf("openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths: {}\n")).toBe("the document's paths are empty: there is no operation to draft actions from")
    expect(refusalOf("openapi: 3.0.0\npaths:\n  /a: [unclosed\n")).toMatch(/^the document cannot be read: it is neither JSON nor YAML \(.* at line \d+, column \d+\)$/)
    expect(refusalOf("{\"openapi\": \"3.0.0\", \"paths\": {\"/a\": {}")).toMatch(/^the document cannot be read: it is neither JSON nor YAML \(/)
    expect(refusalOf(JSON.stringify({ openapi: "3.0.0", paths: { "/a": {} } }), { maxBytes: 20 })).toBe(
      "the document is 37 bytes; documents of at most 20 bytes are read"
    )
    // the default bound is 16 MB, and says so
    const huge = `openapi: 3.0.0\n#${"x".repeat(MAX_DOCUMENT_BYTES)}\npaths: {/a: {}}\n`
    expect(refusalOf(huge)).toBe(
      `the document is 16 MB (${Buffer.byteLength(huge)} bytes); documents of at most 16 MB (${MAX_DOCUMENT_BYTES} bytes) are read`
    )
  })

  it("loads real-world YAML tolerantly: !!binary examples, quoted text continued at column 0, and references that loop or leave the document", () => {
    const yaml = [
      "openapi: 3.0.0",
      "info:",
      "  title: Messy",
      "  version: '1'",
      "  description: 'A description continued",
      "",
      "'",
      "paths:",
      "  /employees:",
      "    get:",
      "      responses:",
      "        '200':",
      "          description: ok",
      "          content:",
      "            application/json:",
      "              schema:",
      "                type: array",
      "                items:",
      "                  $ref: '#/components/schemas/Employee'",
      "components:",
      "  schemas:",
      "    Employee:",
      "      type: object",
      "      example: {photo: !!binary aGVsbG8=}",
      "      properties:",
      "        id: {type: string}",
      "        manager: {$ref: '#/components/schemas/Employee'}",
      "        loop: {$ref: '#/components/schemas/Loop'}",
      "        elsewhere: {$ref: 'common.yaml#/Address'}",
      "        missing: {$ref: '#/components/schemas/Nothing'}",
      "    Loop: {$ref: '#/components/schemas/Loop2'}",
      "    Loop2: {$ref: '#/components/schemas/Loop'}",
      ""
    ].join("\n")
    const draft = draftOf(yaml)
    parsedOf(draft)
    expect(remarks(draft, "review: the document's YAML continues quoted text on lines indented less than their key (1 lines)")).toBe(true)
    const messages = draft.review.filter((item) => item.where === "document").map((item) => item.message)
    expect(messages).toEqual(expect.arrayContaining([
      "#/components/schemas/Loop: a reference that leads back to itself",
      "common.yaml#/Address: a reference to another document, which the builder does not fetch; what it describes is left for review",
      "#/components/schemas/Nothing: a reference to nothing in the document"
    ]))
    expect(draft.summary.fieldsMapped).toBeGreaterThan(0)
  })

  it("keeps a huge API within what one connector may hold, naming the operations it left out", () => {
    const paths = Object.fromEntries(Array.from({ length: 520 }, (_, i) => [
      `/things${i}/{thingId}`,
      {
        post: {
          operationId: `updateThing${i}`,
          description: "A long description of what this operation does. ".repeat(10),
          parameters: [{ name: "thingId", in: "path", required: true, schema: { type: "string" } }],
          requestBody: { content: { "application/json": { schema: { type: "object" } } } },
          responses: { "200": { description: "ok" } }
        }
      }
    ]))
    const draft = draftOf({ openapi: "3.0.0", info: { title: "Huge", version: "1" }, paths })
    const parsed = parsedOf(draft)
    expect(parsed.definition.actions.length).toBeLessThanOrEqual(500)
    expect(draft.summary.rpcActions).toBe(parsed.definition.actions.length)
    const left = 520 - draft.summary.rpcActions
    expect(remarks(draft, `not drafted, to stay within what a connector may hold (500 actions, 512 KiB), ${left} RPC actions:`)).toBe(true)
    expect(remarksOf(draft.yaml).filter((remark) => /^- POST \/things\d+\/\{thingId\}$/.test(remark))).toHaveLength(left)
    expect(draft.review.some((item) => item.where === "actions")).toBe(true)
  })

  it("drafts RPC actions for all other operations, only the reads, or none, as asked", () => {
    const ids = (rpc: "all" | "reads" | "none") => parsedOf(draftOf(openApi30(), { rpc })).definition.actions.map((action) => action.actionId)
    expect(ids("all")).toEqual(["hris_list_employees", "hris_get_employee", "create_employee", "post_reports_by_report_id_run"])
    expect(ids("reads")).toEqual(["hris_list_employees", "hris_get_employee"])
    expect(ids("none")).toEqual(["hris_list_employees", "hris_get_employee"])
    const none = draftOf(openApi30(), { rpc: "none" })
    expect(none.summary.rpcActions).toBe(0)
    expect(remarks(none, "not drafted (--rpc none): 2 other operations")).toBe(true)
  })

  it("writes YAML whose comments are comments: the text parses to the same connector without them", () => {
    const draft = draftOf(openApi30())
    const withoutComments = draft.yaml.split("\n").filter((line) => !line.trim().startsWith("#")).join("\n")
    expect(parseYaml(withoutComments)).toEqual(parseYaml(draft.yaml))
    expect(draft.yaml).toMatch(/^StackOne: 1\.0\.0$/m)
  })
})
