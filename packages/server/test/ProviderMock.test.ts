import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import * as Fs from "node:fs/promises"
import * as Os from "node:os"
import * as Path from "node:path"
import { exampleValue, requiredFieldsOf } from "../src/app/contractCheck/exampleValue.js"
import { mockBase, mockBaseOf, mockServerBase } from "../src/app/contractCheck/mockBaseUrl.js"
import { MAX_PROVIDER_DOCUMENT_BYTES, readProviderDocument } from "../src/app/contractCheck/ProviderDocument.js"
import { startProviderMock } from "../src/app/contractCheck/ProviderMock.js"
import { HrisUpdateEmployeeRequest } from "@switchyard/api"

/*
 * The parts of a contract check on their own: the Prism mock (what it refuses, and the two
 * checks it adds to Prism's), where a connector's base URL puts the mock, how provider documents
 * are read and refused, and the realistic unified bodies writes send.
 */

const document = {
  openapi: "3.0.3",
  info: { title: "People", version: "1" },
  servers: [{ url: "https://{tenant}.people.example/api" }],
  components: {
    securitySchemes: {
      basic: { type: "http", scheme: "basic" },
      key: { type: "apiKey", in: "header", name: "X-Key" }
    }
  },
  paths: {
    "/people": {
      get: {
        security: [{ basic: [] }],
        parameters: [{ name: "limit", in: "query", schema: { type: "integer", maximum: 100 } }],
        responses: {
          "200": {
            description: "people",
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["people"],
                  properties: {
                    people: {
                      type: "array",
                      items: { type: "object", properties: { id: { type: "string" }, nickname: { type: "string" } } }
                    }
                  }
                }
              }
            }
          }
        }
      },
      post: {
        security: [{ key: [] }],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["name"],
                properties: { name: { type: "string" }, born: { type: "string", format: "date" } }
              }
            }
          }
        },
        responses: { "201": { description: "created" } }
      }
    }
  }
}

const basic = { authorization: `Basic ${Buffer.from("key:x").toString("base64")}` }

describe("ProviderMock", () => {
  it.scoped("answers from the document's schemas and keeps what each request broke", () =>
    Effect.gen(function*() {
      const mock = yield* startProviderMock(document)
      const base = mock.baseFor({ seed: "7", profile: "full" })
      const send = (path: string, init: RequestInit = {}) =>
        Effect.promise(async () => {
          const response = await fetch(`${base}${path}`, init)
          return { status: response.status, body: await response.text() }
        })

      const ok = yield* send("/people?limit=5", { headers: basic })
      expect(ok.status).toBe(200)
      expect(JSON.parse(ok.body).people.length).toBeGreaterThan(0) // full answers fill every array
      expect(mock.takeExchanges()).toEqual([
        { method: "GET", path: "/people", query: { limit: "5" }, operation: "/people", status: 200, violations: [] }
      ])

      // the same seed answers the same; Prism's own checks: auth, parameters, body, paths
      expect((yield* send("/people?limit=5", { headers: basic })).body).toBe(ok.body)
      mock.takeExchanges()
      expect((yield* send("/people")).status).toBe(401)
      expect((yield* send("/people?limit=500", { headers: basic })).status).toBe(422)
      yield* send("/people", {
        method: "POST",
        headers: { "x-key": "k", "content-type": "application/json" },
        body: JSON.stringify({ born: "2024-03-01T00:00:00Z" })
      })
      expect((yield* send("/nobody", { headers: basic })).status).toBe(404)
      const refused = mock.takeExchanges()
      expect(refused.map((exchange) => [exchange.method, exchange.path, exchange.violations.length > 0])).toEqual([
        ["GET", "/people", true],
        ["GET", "/people", true],
        ["POST", "/people", true],
        ["GET", "/nobody", true]
      ])
      expect(refused[1]!.violations.map((violation) => violation.message)).toEqual([
        "Request query parameter limit must be <= 100"
      ])
      expect(refused[2]!.violations.map((violation) => violation.message)).toEqual([
        "Request body must have required property 'name'",
        `Request body property born must match format "date"`
      ])

      // ours: a query parameter the operation does not declare, and credentials of a scheme it does not allow
      yield* send("/people?limit=5&expand=all", { headers: basic })
      yield* send("/people", { headers: { authorization: "Bearer token" } })
      const ours = mock.takeExchanges()
      expect(ours[0]!.violations).toEqual([{
        location: "query.expand",
        message: `GET /people declares no query parameter "expand" (it declares limit)`
      }])
      expect(ours[1]!.violations).toContainEqual({
        location: "security",
        message: "the request's credentials meet none of the operation's security requirements (http basic)"
      })
    }))

  it.scoped("validates a form-encoded body against the document's form schema", () =>
    Effect.gen(function*() {
      // Personio's POST /company/time-offs takes only application/x-www-form-urlencoded; Prism deserializes
      // the raw text itself (with the schema's types: "7" is an integer there), so the mock hands it over unparsed
      const form = {
        openapi: "3.0.0",
        info: { title: "Absences", version: "1" },
        paths: {
          "/time-offs": {
            post: {
              requestBody: {
                required: true,
                content: {
                  "application/x-www-form-urlencoded": {
                    schema: {
                      type: "object",
                      required: ["employee_id", "start_date", "half_day_start"],
                      properties: {
                        employee_id: { type: "integer" },
                        start_date: { type: "string", format: "date" },
                        half_day_start: { type: "boolean" },
                        comment: { type: "string" }
                      }
                    }
                  }
                }
              },
              responses: {
                "200": {
                  description: "created",
                  content: { "application/json": { schema: { type: "object", properties: { id: { type: "integer" } } } } }
                }
              }
            }
          }
        }
      }
      const mock = yield* startProviderMock(form)
      const post = (body: string) =>
        Effect.promise(async () => {
          const response = await fetch(`${mock.baseFor({ seed: "1", profile: "full" })}/time-offs`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body
          })
          return response.status
        })
      expect(yield* post("employee_id=7&start_date=2024-03-01&half_day_start=false&comment=two+words")).toBe(200)
      expect(yield* post("employee_id=7&half_day_start=false")).toBe(422)
      expect(yield* post("employee_id=seven&start_date=2024-03-01&half_day_start=false")).toBe(422)
      const [accepted, missing, mistyped] = mock.takeExchanges()
      expect(accepted!.violations).toEqual([])
      expect(missing!.violations.map((violation) => violation.message)).toEqual([
        "Request body must have required property 'start_date'"
      ])
      expect(mistyped!.violations.map((violation) => violation.message)).toEqual(["Request body property employee_id must be integer"])
    }))

  it.scoped("answers a value the document leaves untyped with its example, not the schema's own keywords", () =>
    Effect.gen(function*() {
      // Personio's employee attributes: {label, value, type} where value declares no type, only an example
      const attribute = (example: unknown) => ({
        type: "object",
        properties: { label: { example: "ID" }, value: { example }, type: { type: "string", enum: ["integer", "standard"] } }
      })
      const untyped = {
        openapi: "3.0.0",
        info: { title: "Employees", version: "1" },
        paths: {
          "/employees": {
            get: {
              responses: {
                "200": {
                  description: "employees",
                  content: {
                    "application/json": {
                      schema: {
                        type: "object",
                        properties: {
                          data: {
                            type: "array",
                            items: {
                              type: "object",
                              properties: {
                                id: attribute(1),
                                first_name: attribute("Michael"),
                                comment: { description: "neither type nor example" }
                              }
                            }
                          }
                        }
                      }
                    }
                  }
                }
              }
            },
            post: {
              requestBody: {
                content: { "application/json": { schema: { type: "object", properties: { note: { example: "hello" } } } } }
              },
              responses: { "201": { description: "created" } }
            }
          }
        }
      }
      const mock = yield* startProviderMock(untyped)
      const base = mock.baseFor({ seed: "1", profile: "full" })
      const answer = yield* Effect.promise(async () => (await fetch(`${base}/employees`)).json() as Promise<{ data: Array<any> }>)
      expect(answer.data.length).toBeGreaterThan(0)
      for (const employee of answer.data) {
        expect(employee.id.value).toBe(1)
        expect(employee.id.label).toBe("ID")
        expect(employee.first_name.value).toBe("Michael")
        expect(["integer", "standard"]).toContain(employee.id.type)
      }
      // requests are held to the document as written: any value is valid where it declares no type
      const created = yield* Effect.promise(async () =>
        (await fetch(`${base}/employees`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ note: 42 })
        })).status
      )
      expect(created).toBe(201)
      expect(mock.takeExchanges().map((exchange) => exchange.violations)).toEqual([[], []])
    }))

  it.scoped("serves several documents of one provider, holding each request to the document that has its path", () =>
    Effect.gen(function*() {
      // a second document of the same provider: teams (behind an API key) and a POST /people the first lacks
      const teams = {
        openapi: "3.0.3",
        info: { title: "Teams", version: "1" },
        servers: [{ url: "https://{tenant}.people.example/api" }],
        components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Key" } } },
        security: [{ key: [] }],
        paths: {
          "/teams": {
            get: {
              parameters: [{ name: "size", in: "query", schema: { type: "integer", maximum: 10 } }],
              responses: {
                "200": {
                  description: "teams",
                  content: {
                    "application/json": {
                      schema: {
                        type: "object",
                        required: ["teams"],
                        properties: { teams: { type: "array", items: { type: "object", required: ["name"], properties: { name: { type: "string" } } } } }
                      }
                    }
                  }
                }
              }
            }
          },
          // GET /people is the first document's; only the method tells which one has the request
          "/people": {
            delete: { parameters: [{ name: "id", in: "query", required: true, schema: { type: "integer" } }], responses: { "204": { description: "gone" } } }
          }
        }
      }
      const { paths: { "/people": { post: _post, ...peopleReads } }, ...rest } = document
      const people = { ...rest, paths: { "/people": peopleReads } }
      const mock = yield* startProviderMock([people, teams])
      const base = mock.baseFor({ seed: "3", profile: "full" })
      const send = (path: string, init: RequestInit = {}) =>
        Effect.promise(async () => {
          const response = await fetch(`${base}${path}`, init)
          return { status: response.status, body: await response.text() }
        })

      // each document's paths answer from that document's schemas
      const listed = yield* send("/teams?size=2", { headers: { "x-key": "k" } })
      expect(listed.status).toBe(200)
      expect(typeof JSON.parse(listed.body).teams[0].name).toBe("string")
      expect((yield* send("/people?limit=5", { headers: basic })).status).toBe(200)
      expect(mock.takeExchanges().map((exchange) => [exchange.operation, exchange.status, exchange.violations])).toEqual([
        ["/teams", 200, []],
        ["/people", 200, []]
      ])

      // and are validated against it alone: its parameters, its security, its undeclared parameters
      yield* send("/teams?size=20", { headers: { "x-key": "k" } })
      yield* send("/teams?limit=5", { headers: { "x-key": "k" } })
      yield* send("/teams", { headers: basic })
      yield* send("/people?limit=500&size=2", { headers: basic })
      // a path both have goes to the one whose operation has the method
      yield* send("/people?id=x", { method: "DELETE", headers: { "x-key": "k" } })
      // a method neither has on a path one has: that document refuses it; a path none has: 404
      yield* send("/teams", { method: "PUT", headers: { "x-key": "k" } })
      yield* send("/nobody", { headers: basic })
      const refused = mock.takeExchanges()
      expect(refused.map((exchange) => [exchange.method, exchange.path, exchange.status])).toEqual([
        ["GET", "/teams", 422],
        ["GET", "/teams", 200],
        ["GET", "/teams", 401],
        ["GET", "/people", 422],
        ["DELETE", "/people", 422],
        ["PUT", "/teams", 405],
        ["GET", "/nobody", 404]
      ])
      expect(refused[0]!.violations.map((violation) => violation.message)).toEqual(["Request query parameter size must be <= 10"])
      expect(refused[1]!.violations).toEqual([{ location: "query.limit", message: `GET /teams declares no query parameter "limit" (it declares size)` }])
      expect(refused[2]!.violations.length).toBeGreaterThan(0)
      expect(refused[3]!.violations.map((violation) => violation.message)).toEqual([
        "Request query parameter limit must be <= 100",
        `GET /people declares no query parameter "size" (it declares limit)`
      ])
      expect(refused[4]!.operation).toBe("/people")
      expect(refused[4]!.violations.map((violation) => violation.message)).toEqual(["Request query parameter id must be integer"])
      expect(refused.slice(5).every((exchange) => exchange.violations.length > 0)).toBe(true)
    }))

  it.scoped("answers a media type the document gives no schema without a body, where Prism alone fails with a 500", () =>
    Effect.gen(function*() {
      // BambooHR's Create Time Off Request: `201: content: application/json: {}`
      const undescribed = {
        openapi: "3.1.0",
        info: { title: "Time off", version: "1" },
        paths: {
          "/employees/{id}/time_off/request": {
            put: {
              parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
              requestBody: {
                required: true,
                content: { "application/json": { schema: { type: "object", required: ["start"], properties: { start: { type: "string" } } } } }
              },
              responses: { "201": { description: "created", content: { "application/json": {} } } }
            }
          }
        }
      }
      const mock = yield* startProviderMock(undescribed)
      const base = mock.baseFor({ seed: "1", profile: "full" })
      const put = (body: unknown) =>
        Effect.promise(async () => {
          const response = await fetch(`${base}/employees/5/time_off/request`, {
            method: "PUT",
            headers: { "content-type": "application/json", accept: "application/json" },
            body: JSON.stringify(body)
          })
          return { status: response.status, text: await response.text() }
        })
      expect(yield* put({ start: "2024-03-01" })).toEqual({ status: 201, text: "" })
      // requests are still held to the document as written
      expect((yield* put({ end: "2024-03-01" })).status).toBe(422)
      expect(mock.takeExchanges().map((exchange) => exchange.violations.length > 0)).toEqual([false, true])
    }))

  it.scoped("answers entities whose navigation properties lead back to them (reference cycles) in full passes", () =>
    Effect.gen(function*() {
      // OData's shape, as SAP SuccessFactors documents it: an employment expands its jobs, a job its employment
      const cyclic = {
        swagger: "2.0",
        info: { title: "Employments", version: "1" },
        host: "api.example",
        basePath: "/odata/v2",
        schemes: ["https"],
        paths: {
          "/EmpEmployment": {
            get: {
              produces: ["application/json"],
              responses: {
                "200": {
                  description: "employments",
                  schema: {
                    type: "object",
                    properties: {
                      d: {
                        type: "object",
                        properties: { results: { type: "array", items: { $ref: "#/definitions/EmpEmployment" } } }
                      }
                    }
                  }
                }
              }
            }
          }
        },
        definitions: {
          EmpEmployment: {
            type: "object",
            properties: {
              userId: { type: "string" },
              jobInfoNav: {
                type: "object",
                properties: { results: { type: "array", items: { $ref: "#/definitions/EmpJob" } } }
              }
            }
          },
          EmpJob: {
            type: "object",
            properties: {
              userId: { type: "string" },
              jobTitle: { type: "string" },
              employmentNav: { $ref: "#/definitions/EmpEmployment" },
              managerJobNav: { $ref: "#/definitions/EmpJob" }
            }
          }
        }
      }
      const mock = yield* startProviderMock(cyclic)
      const answers = yield* Effect.forEach(["1", "2"], (seed) =>
        Effect.promise(async () => {
          const response = await fetch(`${mock.baseFor({ seed, profile: "full" })}/EmpEmployment`)
          return { status: response.status, body: await response.text() }
        }))
      for (const answer of answers) {
        expect(answer.status).toBe(200)
        const employment = JSON.parse(answer.body).d.results[0]
        expect(typeof employment.userId).toBe("string")
        const job = employment.jobInfoNav.results[0]
        expect(typeof job.jobTitle).toBe("string")
        // the cycle's repeat is an object the document declares no properties of
        expect(typeof job.employmentNav).toBe("object")
        expect(job.employmentNav.jobInfoNav?.results?.[0]?.jobTitle).toBeUndefined()
      }
      expect(mock.takeExchanges().map((exchange) => exchange.status)).toEqual([200, 200])
    }))

  it.scoped("its token endpoint answers the token where a client-credentials method's tokenField says", () =>
    Effect.gen(function*() {
      const mock = yield* startProviderMock(document)
      const token = (query: string) =>
        Effect.promise(async () => {
          const response = await fetch(`${mock.origin}/__mock/token${query}`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: "grant_type=client_credentials&client_id=a&client_secret=b"
          })
          return await response.json() as Record<string, unknown>
        })
      expect((yield* token("")).access_token).toBe("contract-check-token")
      // Personio answers {success, data: {token}}
      expect((yield* token("?field=data.token")).data).toEqual({ token: "contract-check-token" })
      expect(mock.takeExchanges()).toEqual([])
    }))

  it.scoped("sparse answers leave optional properties out and may leave arrays empty; seeds differ", () =>
    Effect.gen(function*() {
      const mock = yield* startProviderMock(document)
      const answers = yield* Effect.forEach(["1", "2", "3", "4", "5", "6"], (seed) =>
        Effect.promise(async () => {
          const response = await fetch(`${mock.baseFor({ seed, profile: "sparse" })}/people`, { headers: basic })
          return (await response.json() as { people: Array<Record<string, unknown>> }).people
        }))
      const people = answers.flat()
      expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBeGreaterThan(1)
      expect(people.some((person) => person.id === undefined || person.nickname === undefined)).toBe(true)
    }))
})

describe("ProviderMock: XML answers", () => {
  // Personio's career-site feed: root workzag-jobs, an unwrapped array of positions, descriptions with markup
  const feed = {
    openapi: "3.0.0",
    info: { title: "Feed", version: "1" },
    servers: [{ url: "https://api.example" }],
    paths: {
      "/xml": {
        get: {
          servers: [{ url: "https://{company}.jobs.example" }],
          responses: {
            "200": {
              description: "the feed",
              content: {
                "application/xml": {
                  schema: {
                    type: "object",
                    required: ["posting"],
                    properties: {
                      posting: {
                        type: "array",
                        minItems: 2,
                        items: {
                          type: "object",
                          required: ["id", "name", "lang", "text", "sections"],
                          properties: {
                            id: { type: "integer", example: 4103 },
                            lang: { type: "string", enum: ["en"], xml: { attribute: true } },
                            name: { type: "string", enum: ["Office & Feelgood"] },
                            text: { type: "string", enum: ["<p>Für unser Büro</p>"] },
                            sections: {
                              type: "object",
                              required: ["section"],
                              properties: { section: { type: "array", minItems: 1, items: { type: "string", enum: ["a"] } } }
                            }
                          },
                          xml: { name: "position" }
                        }
                      }
                    },
                    xml: { name: "workzag-jobs" }
                  }
                }
              }
            }
          }
        }
      }
    }
  }

  it.scoped("writes an answer Prism generated for an XML media type as the XML its schema names", () =>
    Effect.gen(function*() {
      const mock = yield* startProviderMock(feed)
      const answer = yield* Effect.promise(async () => {
        const response = await fetch(`${mock.baseFor({ seed: "1", profile: "full" })}/xml`)
        return { type: response.headers.get("content-type"), text: await response.text() }
      })
      expect(answer.type).toContain("application/xml")
      // Prism made JSON; the mock wrote it as the schema's XML: root and item names, attributes, CDATA for markup
      expect(answer.text.startsWith(`<?xml version="1.0" encoding="UTF-8"?>\n<workzag-jobs>`)).toBe(true)
      const positions = answer.text.match(/<position lang="en">/g) ?? []
      expect(positions.length).toBeGreaterThanOrEqual(2)
      expect(answer.text).toContain("<name>Office &amp; Feelgood</name>")
      expect(answer.text).toContain("<text><![CDATA[<p>Für unser Büro</p>]]></text>")
      expect(answer.text).toContain("<sections><section>a</section>")
      expect(answer.text).not.toContain("{")
      expect(mock.takeExchanges().map((exchange) => [exchange.path, exchange.status, exchange.violations])).toEqual([["/xml", 200, []]])
    }))
})

describe("mockBase", () => {
  it("keeps the part of the connector's base URL after the document's server", () => {
    expect(mockBase("https://${credentials.tenant}.people.example/api/v2", document)).toEqual({
      prefix: "/v2",
      server: "https://{tenant}.people.example/api",
      problem: undefined
    })
    expect(mockBase("https://${credentials.tenant}.people.example/api", document).prefix).toBe("")
    const elsewhere = mockBase("https://api.other.example/v1", document)
    expect(elsewhere.problem).toBe(
      "the connector's base URL https://api.other.example/v1 is on none of the document's servers (https://{tenant}.people.example/api)"
    )
    expect(mockBase("https://api.example/v1", { swagger: "2.0", host: "api.example", basePath: "/v1" }).server)
      .toBe("https://api.example/v1")
    // SAP's Swagger 2 documents name their production servers in x-servers; Workday's write <placeholders>
    const sap = { swagger: "2.0", host: "sandbox.api.sap.com", basePath: "/successfactors/odata/v2", "x-servers": [{ url: "https://{api-server}/odata/v2" }] }
    expect(mockBase("https://${credentials.apiServer}/odata/v2", sap)).toEqual({ prefix: "", server: "https://{api-server}/odata/v2", problem: undefined })
    expect(mockBase("https://${settings.host}/staffing/v6", { openapi: "3.0.0", servers: [{ url: "https://<tenantHostname>/staffing/v6" }] }).server)
      .toBe("https://<tenantHostname>/staffing/v6")
    // a document without servers: its paths follow the connector's whole base URL
    expect(mockBase("https://api.litmos.example/v1.svc", { openapi: "3.0.1", paths: {} }))
      .toEqual({ prefix: "", server: undefined, problem: undefined })
  })

  it("puts a connector's named server on any server of a document, its operations' included", () => {
    const personio = {
      openapi: "3.0.0",
      servers: [{ url: "https://api.personio.de" }],
      paths: { "/xml": { get: { servers: [{ url: "https://{YOUR_COMPANY}.jobs.personio.de" }] } } }
    }
    expect(mockServerBase("career_site", "https://${credentials.careerSite}.jobs.personio.de", [personio])).toEqual({
      prefix: "",
      server: "https://{YOUR_COMPANY}.jobs.personio.de",
      problem: undefined
    })
    // the connector's base URL is held to the document's own servers only
    expect(mockBase("https://${credentials.careerSite}.jobs.personio.de", personio).problem).toBeDefined()
    expect(mockServerBase("feed", "https://feed.other.example", [personio]).problem).toBe(
      "the connector's server feed (https://feed.other.example) is on none of the document's servers (https://api.personio.de, https://{YOUR_COMPANY}.jobs.personio.de)"
    )
  })

  it("puts several documents under one base URL only when it is on a server of each, with the same prefix", () => {
    const sap = (basePath: string) => ({ swagger: "2.0", host: "sandbox.api.sap.com", basePath, "x-servers": [{ url: "https://{api-server}/odata/v2" }] })
    // SAP's documents, one per area, share their production server
    expect(mockBaseOf("https://${credentials.apiServer}/odata/v2", [sap("/successfactors/odata/v2"), sap("/successfactors/odata/v2")]))
      .toEqual({ prefix: "", server: "https://{api-server}/odata/v2", problem: undefined })
    // Workday's are one service per server: one base URL is on one of them only
    const staffing = { openapi: "3.0.0", servers: [{ url: "https://<tenantHostname>/staffing/v6" }] }
    const person = { openapi: "3.0.0", servers: [{ url: "https://<tenantHostname>/person/v4" }] }
    expect(mockBaseOf("https://${settings.host}/staffing/v6", [staffing, person]).problem).toBe(
      "the connector's base URL https://${settings.host}/staffing/v6 is on none of the document's servers (https://<tenantHostname>/person/v4)"
    )
    // on a server of each, but with its paths under another prefix in each
    const api = { openapi: "3.0.0", servers: [{ url: "https://api.example" }] }
    const v1 = { openapi: "3.0.0", servers: [{ url: "https://api.example/v1" }] }
    expect(mockBaseOf("https://api.example/v1", [api, v1]).problem).toBe(
      "the connector's base URL https://api.example/v1 puts the documents' paths under different prefixes (/v1, none): one base URL cannot serve them all"
    )
    expect(mockBaseOf("https://api.example/v1", [v1])).toEqual(mockBase("https://api.example/v1", v1))
  })
})

describe("readProviderDocument", () => {
  const write = (name: string, text: string | Buffer) =>
    Effect.promise(async () => {
      const directory = await Fs.mkdtemp(Path.join(Os.tmpdir(), "provider-document-"))
      const file = Path.join(directory, name)
      await Fs.writeFile(file, text)
      return file
    })

  it.effect("reads YAML with YAML 1.1 tags, and refuses what is not a document with paths, saying why", () =>
    Effect.gen(function*() {
      const tagged = yield* write("tagged.yaml", "openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/octet-stream:\n              example: !!binary aGVsbG8=\n")
      const read = yield* readProviderDocument(tagged)
      expect(read.format).toBe("openapi-3")
      const refusal = (text: string) =>
        Effect.flip(Effect.flatMap(write("doc.yaml", text), readProviderDocument)).pipe(Effect.map((error) => error.message))
      expect(yield* refusal("just: text")).toContain("is not an OpenAPI document: it has no `openapi: 3.x` or `swagger: \"2.0\"` field")
      expect(yield* refusal("swagger: '1.2'\npaths: {}")).toContain("only OpenAPI 3.x and Swagger 2.0 are read")
      expect(yield* refusal("openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}")).toContain("has no paths")
      expect(yield* refusal("- a list")).toContain("its top level is not an object")
      const large = yield* write("large.json", Buffer.alloc(MAX_PROVIDER_DOCUMENT_BYTES + 1, 32))
      expect((yield* Effect.flip(readProviderDocument(large))).message).toContain(
        `over the ${MAX_PROVIDER_DOCUMENT_BYTES} bytes a provider document may have`
      )
    }))
})

describe("exampleValue", () => {
  it("fills a unified body as a person would, and the seed chooses which optional fields", () => {
    const first = exampleValue(HrisUpdateEmployeeRequest, "1") as Record<string, any>
    const second = exampleValue(HrisUpdateEmployeeRequest, "2") as Record<string, any>
    expect(exampleValue(HrisUpdateEmployeeRequest, "1")).toEqual(first)
    expect(Object.keys(first)).not.toEqual(Object.keys(second))
    for (const body of [first, second]) {
      expect(Schema.decodeUnknownEither(HrisUpdateEmployeeRequest)(body)._tag).toBe("Right")
      expect(body).not.toHaveProperty("passthrough")
    }
    const both = { ...second, ...first }
    if (both.work_email !== undefined) expect(both.work_email).toBe("ada.lovelace@example.com")
    if (both.date_of_birth !== undefined) expect(both.date_of_birth).toBe("2024-03-01T00:00:00.000Z")
  })

  it("always sends the body fields the connector's body input declares required, nested ones too", () => {
    const required = requiredFieldsOf([
      { name: "first_name", type: "string", required: true },
      { name: "nickname", type: "string" },
      { name: "home_location", type: "object", required: true, properties: [{ name: "city", type: "string", required: true }] }
    ])
    expect([...required.keys()]).toEqual(["first_name", "home_location"])
    // every seed drops some optional field, but never a required one
    const bodies = Array.from({ length: 12 }, (_, seed) => exampleValue(HrisUpdateEmployeeRequest, String(seed), required) as Record<string, any>)
    for (const body of bodies) {
      expect(body.first_name).toBe("Ada")
      expect(body.home_location.city).toBe("New York")
    }
    const unconstrained = Array.from({ length: 12 }, (_, seed) => exampleValue(HrisUpdateEmployeeRequest, String(seed)) as Record<string, any>)
    expect(unconstrained.some((body) => body.first_name === undefined || body.home_location?.city === undefined)).toBe(true)
    expect(requiredFieldsOf("not a list").size).toBe(0)
  })
})
