import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { BOOTSTRAP_KEY, TestServer } from "./support/TestServer.js"
import { send, withKey } from "./support/Wire.js"

interface Parameter {
  readonly name: string
  readonly in: string
  readonly schema: Record<string, unknown> & { readonly anyOf?: ReadonlyArray<JsonSchema> }
}

interface Operation {
  readonly operationId: string
  readonly summary?: string
  readonly description?: string
  readonly security: ReadonlyArray<Record<string, ReadonlyArray<string>>>
  readonly parameters: ReadonlyArray<Parameter>
  readonly responses: Record<string, { readonly content?: Record<string, { readonly schema: JsonSchema }> }>
}

interface JsonSchema {
  readonly $ref?: string
  readonly anyOf?: ReadonlyArray<JsonSchema>
  readonly oneOf?: ReadonlyArray<JsonSchema>
  readonly properties?: Record<string, JsonSchema>
  readonly required?: ReadonlyArray<string>
  readonly enum?: ReadonlyArray<unknown>
  readonly type?: string
}

interface Document {
  readonly openapi: string
  readonly info: { readonly title: string; readonly version: string; readonly description?: string }
  readonly paths: Record<string, Record<string, Operation>>
  readonly tags?: ReadonlyArray<{ readonly name: string; readonly description?: string }>
  readonly components: {
    readonly schemas: Record<string, JsonSchema>
    readonly securitySchemes: Record<
      string,
      { readonly type: string; readonly scheme?: string; readonly in?: string; readonly name?: string }
    >
  }
}

const readPackage = (dir: string) =>
  JSON.parse(Fs.readFileSync(Path.resolve(import.meta.dirname, dir, "package.json"), "utf8")) as { readonly version: string }
const serverPackage = readPackage("..")
const apiPackage = readPackage("../../api")

const fetchDocument = Effect.gen(function*() {
  const response = yield* send(HttpClientRequest.get("/openapi.json"))
  expect(response.status).toBe(200)
  expect(response.headers["content-type"]).toMatch(/^application\/json\b/)
  return response.json as Document
})

/**
 * The document's two security schemes: HTTP Basic (the API key) and the web dashboard's
 * session cookie, which a request without an Authorization header may use instead.
 */
const securitySchemeNames = (document: Document) => {
  const schemes = Object.entries(document.components.securitySchemes)
  expect(schemes).toHaveLength(2)
  const basic = schemes.filter(([, scheme]) => scheme.type === "http" && scheme.scheme?.toLowerCase() === "basic")
  const cookie = schemes.filter(([, scheme]) => scheme.type === "apiKey" && scheme.in === "cookie")
  expect(basic).toHaveLength(1)
  expect(cookie.map(([, scheme]) => scheme.name)).toEqual(["switchyard_session"])
  return [basic[0]![0], cookie[0]![0]] as const
}

/** The spec's platform operations that exist so far, where the spec puts them. */
const specOperations = [
  ["list_accounts", "get", "/v2/accounts"],
  ["list_account_filters", "get", "/v2/accounts/filters"],
  ["get_account", "get", "/v2/accounts/{id}"],
  ["patch_account", "patch", "/v2/accounts/{id}"],
  ["delete_account", "delete", "/v2/accounts/{id}"]
] as const

/** The spec's error statuses of every platform operation (Endpoints, Errors). */
const documentedErrorStatuses = ["400", "401", "403", "404", "408", "409", "422", "429", "500", "501", "502"]

/** The section titles of the repository's README (`## Quick start` → `Quick start`). */
const readmeSections = (): ReadonlyArray<string> =>
  Fs.readFileSync(Path.join(import.meta.dirname, "..", "..", "..", "README.md"), "utf8")
    .split("\n")
    .flatMap((line) => /^#{2,4} (.+)$/.exec(line)?.[1]?.trim() ?? [])

/** The README sections the introduction's Guides list names (`- **Quick start**: …`). */
const guidesOf = (introduction: string): ReadonlyArray<string> => {
  const guides = introduction.split(/^## Guides$/m)[1] ?? ""
  return Array.from(guides.matchAll(/^- \*\*(.+?)\*\*/gm), (match) => match[1]!)
}

/** The schemas a response may be: a `$ref` resolved, unions flattened. */
const alternatives = (document: Document, schema: JsonSchema): ReadonlyArray<JsonSchema> => {
  if (schema.$ref !== undefined) {
    const name = schema.$ref.replace("#/components/schemas/", "")
    const target = document.components.schemas[name]
    expect(target, `unresolved ${schema.$ref}`).toBeDefined()
    return alternatives(document, target!)
  }
  const union = schema.anyOf ?? schema.oneOf
  return union === undefined ? [schema] : union.flatMap((member) => alternatives(document, member))
}

layer(TestServer(), { excludeTestServices: true })("OpenAPI and docs", (it) => {
  it.effect("GET /openapi.json is an OpenAPI 3.1 document of the API, without authentication", () =>
    Effect.gen(function*() {
      const document = yield* fetchDocument
      expect(document.openapi).toMatch(/^3\.1\.\d+$/)
      // The version is the packages' (linked by Changesets): the server's and the API definition's.
      expect(document.info).toMatchObject({ title: "Switchyard", version: serverPackage.version })
      expect(apiPackage.version).toBe(serverPackage.version)
      expect(Object.keys(document.paths)).toEqual(
        expect.arrayContaining(["/healthz", "/v2/accounts", "/v2/accounts/filters", "/v2/accounts/{id}"])
      )
      expect(Object.keys(document.paths["/v2/accounts"]!).sort()).toEqual(["get", "post"])
      expect(Object.keys(document.paths["/v2/accounts/{id}"]!).sort()).toEqual(["delete", "get", "patch"])
    }))

  it.effect("each spec operation is at its method and path with the spec's operation id", () =>
    Effect.gen(function*() {
      const document = yield* fetchDocument
      for (const [operationId, method, path] of specOperations) {
        const operation = document.paths[path]?.[method]
        expect(operation, `${method.toUpperCase()} ${path}`).toBeDefined()
        // The generator prefixes the group: `accounts.list_accounts`.
        expect({ path, method, operationId: operation!.operationId }).toEqual({
          path,
          method,
          operationId: expect.stringMatching(new RegExp(`(^|\\.)${operationId}$`))
        })
      }
      const all = Object.values(document.paths).flatMap((methods) =>
        Object.values(methods).map((operation) => operation.operationId)
      )
      expect(new Set(all).size).toBe(all.length)
    }))

  it.effect("documents HTTP Basic security (or the dashboard's session cookie) on every /v2 operation and none on /healthz", () =>
    Effect.gen(function*() {
      const document = yield* fetchDocument
      const [basicName, cookieName] = securitySchemeNames(document)
      for (const [path, methods] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(methods)) {
          const names = operation.security.flatMap((requirement) => Object.keys(requirement))
          if (path.startsWith("/v2/")) {
            expect({ path, method, names }).toEqual({ path, method, names: [cookieName, basicName] })
          }
        }
      }
      expect(document.paths["/healthz"]!.get!.security).toEqual([])
    }))

  it.effect("documents connect sessions: create and get behind the API key, authenticate by token alone", () =>
    Effect.gen(function*() {
      const document = yield* fetchDocument
      const [basicName, cookieName] = securitySchemeNames(document)
      const operations = [
        ["create_connect_session", "post", "/connect_sessions", [cookieName, basicName]],
        ["authenticate_connect_session", "post", "/connect_sessions/authenticate", []],
        ["get_connect_session", "get", "/connect_sessions/{id}", [cookieName, basicName]]
      ] as const
      for (const [operationId, method, path, security] of operations) {
        const operation = document.paths[path]?.[method]
        expect(operation, `${method.toUpperCase()} ${path}`).toBeDefined()
        expect(operation!.operationId).toMatch(new RegExp(`(^|\\.)${operationId}$`))
        expect(operation!.security.flatMap((requirement) => Object.keys(requirement))).toEqual(security)
      }
      expect(Object.keys(document.paths["/connect_sessions"]!.post!.responses)).toEqual(expect.arrayContaining(["201", "422"]))
      expect(Object.keys(document.paths["/connect_sessions/authenticate"]!.post!.responses))
        .toEqual(expect.arrayContaining(["200", "401", "410"]))
    }))

  it.effect("documents the page and page_size limits of list_accounts", () =>
    Effect.gen(function*() {
      const document = yield* fetchDocument
      const parameters = document.paths["/v2/accounts"]!.get!.parameters
      const param = (name: string) => parameters.find((parameter) => parameter.name === name)
      expect(param("page")).toMatchObject({ in: "query", schema: { type: "integer", minimum: 1 } })
      expect(param("page_size")).toMatchObject({ in: "query", schema: { type: "integer", minimum: 1, maximum: 100 } })
      const filters = ["expand", "account_id", "connector_key", "status", "owner_id", "search", "connector_profile_id"]
      for (const name of filters) {
        expect(param(name), name).toMatchObject({ in: "query" })
      }
    }))

  it.effect("lists the allowed values of every expand parameter; comma-separated and repeated forms both work", () =>
    Effect.gen(function*() {
      const document = yield* fetchDocument
      const expands = Object.entries(document.paths)
        .filter(([path]) => path.startsWith("/v2/"))
        .flatMap(([path, item]) =>
          Object.values(item).flatMap((operation) =>
            operation.parameters.filter((parameter) => parameter.name === "expand").map((parameter) => ({ path, operation, parameter }))
          )
        )
      const allowed = (operationId: string) => {
        // the generator prefixes the group: `accounts.list_accounts`
        const found = expands.find((entry) => entry.operation.operationId.split(".").pop() === operationId)!
        const [text, repeated] = found.parameter.schema.anyOf as ReadonlyArray<JsonSchema & { readonly pattern: string; readonly items: JsonSchema }>
        const values = repeated!.items.enum as ReadonlyArray<string>
        // the comma-separated form is described by the pattern, over exactly the listed values
        const pattern = new RegExp(text!.pattern)
        expect(values.every((value) => pattern.test(value))).toBe(true)
        expect(pattern.test(values.join(","))).toBe(true)
        expect(pattern.test(`${values[0]},bogus`)).toBe(false)
        expect(String(found.parameter.schema.description)).toContain(values.join(", "))
        return values
      }
      expect(expands.length).toBeGreaterThanOrEqual(10)
      for (const { operation } of expands) allowed(operation.operationId.split(".").pop()!)
      expect(allowed("list_accounts")).toEqual(["connector", "connector_profile", "last_request", "actions"])
      expect(allowed("get_account")).toEqual(["connector", "connector_profile", "last_request", "actions"])
      expect(allowed("get_connector")).toEqual(["actions", "versions", "changelog", "accounts_count", "connector_profiles_count"])
      expect(allowed("list_connectors")).toEqual(["accounts_count", "connector_profiles_count"])

      const list = (query: string) => send(HttpClientRequest.get(`/v2/accounts?${query}`).pipe(withKey(BOOTSTRAP_KEY)))
      expect((yield* list("expand=connector,last_request")).status).toBe(200)
      expect((yield* list("expand=connector&expand=actions,last_request")).status).toBe(200)
      expect((yield* list("expand=bogus")).status).toBe(400)
      const connectors = yield* send(HttpClientRequest.get("/v2/connectors?expand=accounts_count,connector_profiles_count").pipe(withKey(BOOTSTRAP_KEY)))
      expect(connectors.status).toBe(200)
      expect((connectors.json as Array<{ accounts_count: unknown }>).every((connector) => connector.accounts_count !== null)).toBe(true)
    }))

  it.effect("documents how a connector is verified, and that a custom connector is community", () =>
    Effect.gen(function*() {
      const document = yield* fetchDocument
      const schemas = document.components.schemas as Record<string, JsonSchema & { readonly description?: string }>
      expect(schemas["Connector"]!.properties!["verification"]).toEqual({ $ref: "#/components/schemas/ConnectorVerification" })
      expect(schemas["Connector"]!.required).toContain("verification")
      const verification = schemas["ConnectorVerification"]!
      expect(verification.description).toContain("A custom connector is always community")
      expect([...verification.required!].sort()).toEqual(["document", "document_url", "documents", "level", "sources"])
      const properties = verification.properties as Record<string, JsonSchema & { readonly description?: string }>
      for (const name of ["document", "documents", "document_url", "sources"]) expect(properties[name]!.description, name).toBeTruthy()
      expect(properties["level"]).toEqual({ $ref: "#/components/schemas/VerificationLevel" })
      expect(schemas["VerificationLevel"]).toMatchObject({ enum: ["contract", "documentation", "community"] })
      expect(schemas["VerificationLevel"]!.description).toMatch(/contract: .*documentation: .*community: /)
    }))

  it.effect("documents every error status with the body the server actually sends", () =>
    Effect.gen(function*() {
      const document = yield* fetchDocument
      const mismatches: Array<string> = []
      for (const [, method, path] of specOperations) {
        const responses = document.paths[path]![method]!.responses
        for (const status of documentedErrorStatuses) {
          const response = responses[status]
          expect(response, `${method.toUpperCase()} ${path} ${status}`).toBeDefined()
          const schema = response!.content?.["application/json"]?.schema
          expect(schema, `${method.toUpperCase()} ${path} ${status} body`).toBeDefined()
          for (const body of alternatives(document, schema!)) {
            const keys = Object.keys(body.properties ?? {}).sort()
            const allowed = status === "400"
              ? ["data", "message", "provider_errors", "statusCode", "timestamp"]
              : ["message", "statusCode", "timestamp"]
            const wellFormed = keys.every((key) => allowed.includes(key)) &&
              ["message", "statusCode", "timestamp"].every((key) => body.required?.includes(key)) &&
              body.properties?.statusCode?.enum?.length === 1 &&
              body.properties.statusCode.enum[0] === Number(status)
            if (!wellFormed) mismatches.push(`${method.toUpperCase()} ${path} ${status}: {${keys.join(", ")}}`)
          }
        }
      }
      expect(mismatches).toEqual([])
    }))

  it.effect("every operation has a summary and a description, and every group a description", () =>
    Effect.gen(function*() {
      const document = yield* fetchDocument
      const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation }))
      )
      expect(operations.length).toBeGreaterThanOrEqual(65)
      const written = (text: string | undefined) => text !== undefined && text.trim().length > 0
      expect(operations.filter(({ operation }) => !written(operation.summary)).map(({ name }) => name)).toEqual([])
      expect(operations.filter(({ operation }) => !written(operation.description)).map(({ name }) => name)).toEqual([])
      // the summary names the operation in the docs page's sidebar: two alike would be indistinguishable
      const summaries = operations.map(({ operation }) => operation.summary)
      expect(summaries.filter((summary, index) => summaries.indexOf(summary) !== index)).toEqual([])
      expect(operations.filter(({ operation }) => operation.summary === operation.description)).toEqual([])
      expect((document.tags ?? []).filter((tag) => !written(tag.description)).map((tag) => tag.name)).toEqual([])
    }))

  it.effect("the document's introduction says what Switchyard is, how to authenticate, and names README guides that exist", () =>
    Effect.gen(function*() {
      const document = yield* fetchDocument
      const introduction = document.info.description ?? ""
      expect(introduction).toContain("Switchyard is an open, self-hostable integration platform")
      expect(introduction).toContain("HTTP Basic: the key is the username, the password is empty")
      expect(introduction).toContain("prints a Full Access key **once**")
      expect(introduction).toContain("switchyard keys create")
      const guides = guidesOf(introduction)
      expect(guides).toEqual(expect.arrayContaining(["Quick start", "Using the API", "Unified API", "Webhooks"]))
      const sections = readmeSections()
      expect(guides.filter((guide) => !sections.includes(guide))).toEqual([])
    }))

  it.effect("GET /docs serves an HTML page that loads no external script", () =>
    Effect.gen(function*() {
      const response = yield* send(HttpClientRequest.get("/docs"))
      expect(response.status).toBe(200)
      expect(response.headers["content-type"]).toMatch(/^text\/html\b/)
      const html = response.text
      expect(html).toMatch(/<html/i)
      // The page carries this API's document and the viewer inline.
      expect(html).toContain("list_accounts")
      // with the introduction, which the viewer shows above the operations
      expect(html).toContain("Switchyard is an open, self-hostable integration platform")
      expect(html).toMatch(/<script>[\s\S]{10000,}?<\/script>/)
      expect(html).not.toMatch(/<script[^>]*\ssrc\s*=\s*["']?(https?:)?\/\//i)
      expect(html).not.toMatch(/<link[^>]*\shref\s*=\s*["']?(https?:)?\/\//i)
    }))
})
