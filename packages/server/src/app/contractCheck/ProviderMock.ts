import { Data, Effect } from "effect"
import * as Http from "node:http"
import { createRequire } from "node:module"
import type { AddressInfo } from "node:net"
import { xmlFromSchema } from "./xmlFromSchema.js"

/*
 * A provider simulated from its own published OpenAPI document by Stoplight Prism, served
 * over a real socket, that keeps what every request broke.
 *
 * Prism (`@stoplight/prism-http`) answers with dynamic examples generated from the document's
 * schemas, validates each request (path, method, parameters, body, security) and reports the
 * violations as data. It runs in this process: the document is read once, and one mock serves
 * every pass of a check, since the path's first segment chooses the pass (`/sparse-2/api/v1/...`):
 * its seed, and its profile, which is how Prism fills what the document leaves open:
 *   - `full`: every optional property, and at least one item in every array (so lists have ids);
 *   - `sparse`: half the optional properties, and arrays that may be empty.
 * Nulls come wherever the document allows them, in both. Requests are answered one at a time,
 * because Prism's generator options are global.
 *
 * Prism leaves two things unchecked that a real provider can refuse, and this mock checks them
 * on the operation Prism's router matched: query parameters the operation does not declare, and
 * an `Authorization` header of a scheme none of the operation's security requirements allows.
 *
 * Prism generates an answer in an XML media type as JSON; the mock writes it as the XML its
 * schema names (`xmlFromSchema`), as the provider would send it.
 *
 * Prism is a development dependency, loaded on first use, so the server runs without it.
 */

/** One thing a request did that the provider's document does not allow. */
export interface Violation {
  /** Where: `query.fields`, `body.state`, `path`, `security`, ... */
  readonly location: string
  readonly message: string
}

/** A request the mock received: what it answered and what the request broke. */
export interface MockExchange {
  readonly method: string
  /** The path after the seed segment, as the document spells paths (`/api/v1/employees/1`). */
  readonly path: string
  readonly query: Readonly<Record<string, string | ReadonlyArray<string>>>
  /** The document's path template Prism matched, when it matched one. */
  readonly operation: string | undefined
  readonly status: number
  readonly violations: ReadonlyArray<Violation>
}

export class PrismUnavailable extends Data.TaggedError("PrismUnavailable")<{ readonly message: string }> {}

export class ProviderDocumentRejected extends Data.TaggedError("ProviderDocumentRejected")<{
  readonly message: string
}> {}

export class MockListenFailed extends Data.TaggedError("MockListenFailed")<{ readonly message: string }> {}

/** The Prism version the contract checks are written against (pinned in the server's devDependencies). */
export const PRISM_PACKAGE = "@stoplight/prism-http@5.16.0"

// ---------------------------------------------------------------------------
// The slice of Prism's API this module uses (its own types are not a dependency of the build).
// ---------------------------------------------------------------------------

interface PrismSecurityScheme {
  readonly type: string
  readonly scheme?: string
  readonly in?: string
  readonly name?: string
}
interface PrismOperation {
  readonly method: string
  readonly path: string
  readonly responses?: unknown
  readonly request?: { readonly query?: ReadonlyArray<{ readonly name: string }> }
  readonly security?: ReadonlyArray<ReadonlyArray<PrismSecurityScheme>>
}
interface PrismResponse {
  readonly code: string
  readonly contents?: ReadonlyArray<{ readonly mediaType: string; readonly schema?: unknown }>
}
interface PrismRequest {
  readonly method: string
  readonly url: { readonly path: string; readonly query: Record<string, string | Array<string>> }
  readonly headers: Record<string, string>
  readonly body?: unknown
}
interface PrismDiagnostic {
  readonly path?: ReadonlyArray<string | number>
  readonly message: string
  readonly severity: number
}
interface PrismError extends Error {
  readonly status?: number
  readonly detail?: string
  readonly additional?: { readonly validation?: ReadonlyArray<PrismDiagnostic> }
}
type Either<E, A> = { readonly _tag: "Left"; readonly left: E } | { readonly _tag: "Right"; readonly right: A }
interface PrismResult {
  readonly output: { readonly statusCode: number; readonly headers?: Record<string, string>; readonly body?: unknown }
  readonly validations: { readonly input: ReadonlyArray<PrismDiagnostic> }
}
interface PrismHttp {
  readonly getHttpOperationsFromSpec: (document: object) => Promise<Array<PrismOperation>>
  readonly createInstance: (config: object, components: object) => {
    readonly request: (request: PrismRequest, operations: Array<PrismOperation>, config: object) => () => Promise<
      Either<PrismError, PrismResult>
    >
  }
  readonly ProblemJsonError: { readonly toProblemJson: (error: PrismError) => object }
}
type PrismRoute = (options: { resources: Array<PrismOperation>; input: PrismRequest }) => Either<Error, PrismOperation>

const loadPrism = Effect.try({
  try: () => {
    const require = createRequire(import.meta.url)
    const prismHttp = require("@stoplight/prism-http") as PrismHttp
    const route = (require("@stoplight/prism-http/dist/router") as { default: PrismRoute }).default
    // prism-core is Prism's own dependency, not ours: resolve it from prism-http's place
    const prismRequire = createRequire(require.resolve("@stoplight/prism-http"))
    const prismCore = prismRequire("@stoplight/prism-core") as {
      createLogger: (name: string, options: object) => unknown
    }
    // the generator Prism itself uses (the same module instance), whose options make the profiles
    const faker = (prismRequire("json-schema-faker") as { JSONSchemaFaker: { option: (options: object) => void } })
      .JSONSchemaFaker
    return { prismHttp, route, createLogger: prismCore.createLogger, faker }
  },
  catch: (cause) =>
    new PrismUnavailable({
      message: `contract checks need Stoplight Prism: install ${PRISM_PACKAGE} beside Switchyard (npm install -D ` +
        `${PRISM_PACKAGE}); it could not be loaded: ${cause instanceof Error ? cause.message : String(cause)}`
    })
})

/** Prism's settings for every request: request validation and security on, answers generated from schemas. */
const baseConfig = { validateRequest: true, validateResponse: false, checkSecurity: true, errors: false, isProxy: false }
const mockConfig = (seed: string) => ({ ...baseConfig, mock: { dynamic: true, seed } })

/** How Prism fills what a document leaves open (see the top of this file). */
export type MockProfile = "full" | "sparse"

/** One pass of a contract check: the answers of one seed and profile. */
export interface MockPass {
  readonly seed: string
  readonly profile: MockProfile
}

const profileOptions: Record<MockProfile, object> = {
  full: { alwaysFakeOptionals: true, optionalsProbability: 1, minItems: 1 },
  sparse: { alwaysFakeOptionals: false, optionalsProbability: 0.5, minItems: 0 }
}

/** Answers 204 once the mock listens, outside the document and its record of requests. */
export const READY_PATH = "/__mock/ready"

/**
 * An OAuth2 token endpoint beside the document (its token URL is the provider's login server, not
 * an operation of the API): answers any token request with a bearer token, outside the record of
 * requests. A contract check points client-credentials accounts here (their `token_url` setting).
 */
export const TOKEN_PATH = "/__mock/token"

/** `/sparse-42/api/v1/x` → profile `sparse`, seed `42`, path `/api/v1/x`. */
const PASS_SEGMENT = /^\/(full|sparse)-([A-Za-z0-9_]{1,40})(\/.*|$)/

const describeDiagnostic = (diagnostic: PrismDiagnostic): Violation => ({
  location: (diagnostic.path ?? []).join(".") || "request",
  message: diagnostic.message
})

/**
 * The document with its reference cycles broken, for the generator: every `paths` reference to the
 * document itself is written out in place, and a reference met again inside its own expansion (an
 * OData entity's navigation back to its parent: EmpEmployment.jobInfoNav -> EmpJob.employmentNav ->
 * EmpEmployment) is answered as an object without declared properties. Left to Prism, such a cycle
 * stays a `$ref` that json-schema-faker cuts after a few rounds, then fails on the cut array
 * (`Cannot read properties of undefined (reading 'items')`) whenever every optional property is
 * filled. A document without cycles is returned as it is.
 */
export const breakReferenceCycles = (document: object): object => {
  const paths = (document as { paths?: unknown }).paths
  if (paths === null || typeof paths !== "object") return document
  const target = (ref: string): unknown =>
    ref.slice(2).split("/").map((key) => decodeURIComponent(key.replace(/~1/g, "/").replace(/~0/g, "~")))
      .reduce<unknown>((node, key) => (node !== null && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined), document)
  let cycles = 0
  const expand = (node: unknown, open: ReadonlyArray<string>): unknown => {
    if (Array.isArray(node)) return node.map((item) => expand(item, open))
    if (node === null || typeof node !== "object") return node
    const ref = (node as { $ref?: unknown }).$ref
    if (typeof ref === "string" && ref.startsWith("#/")) {
      if (open.includes(ref)) {
        cycles += 1
        return { type: "object" }
      }
      const referenced = target(ref)
      return referenced === undefined ? node : expand(referenced, [...open, ref])
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, expand(value, open)]))
  }
  const expanded = expand(paths, [])
  return cycles === 0 ? document : { ...document, paths: expanded }
}

/** Does the request carry credentials of this scheme, in the place the scheme names? */
const satisfies = (scheme: PrismSecurityScheme, request: PrismRequest) => {
  const authorization = (request.headers["authorization"] ?? "").toLowerCase()
  switch (scheme.type) {
    case "http":
      return authorization.startsWith(`${(scheme.scheme ?? "").toLowerCase()} `)
    case "oauth2":
    case "openIdConnect":
      return authorization.startsWith("bearer ")
    case "apiKey": {
      const name = (scheme.name ?? "").toLowerCase()
      if (scheme.in === "query") return Object.keys(request.url.query).some((key) => key.toLowerCase() === name)
      if (scheme.in === "cookie") return (request.headers["cookie"] ?? "").split(";").some((c) => c.trim().startsWith(`${scheme.name}=`))
      return request.headers[name] !== undefined
    }
    default:
      return true
  }
}

const schemeLabel = (scheme: PrismSecurityScheme) =>
  scheme.type === "http" ? `http ${scheme.scheme}` : scheme.type === "apiKey" ? `apiKey ${scheme.name} in ${scheme.in}` : scheme.type

/** What Prism does not check on a matched operation: undeclared query parameters and the auth scheme. */
const ownChecks = (operation: PrismOperation, request: PrismRequest): ReadonlyArray<Violation> => {
  const violations: Array<Violation> = []
  const declared = new Set((operation.request?.query ?? []).map((parameter) => parameter.name))
  const apiKeysInQuery = new Set(
    (operation.security ?? []).flat().filter((s) => s.type === "apiKey" && s.in === "query").map((s) => s.name)
  )
  for (const name of Object.keys(request.url.query)) {
    if (!declared.has(name) && !apiKeysInQuery.has(name)) {
      violations.push({
        location: `query.${name}`,
        message: `${operation.method.toUpperCase()} ${operation.path} declares no query parameter "${name}"` +
          (declared.size === 0 ? "" : ` (it declares ${[...declared].join(", ")})`)
      })
    }
  }
  const requirements = operation.security ?? []
  // an empty requirement ({}) means the operation may be called without credentials
  const open = requirements.length === 0 || requirements.some((requirement) => requirement.length === 0)
  if (!open && request.headers["authorization"] !== undefined) {
    const met = requirements.some((requirement) => requirement.every((scheme) => satisfies(scheme, request)))
    if (!met) {
      violations.push({
        location: "security",
        message: `the request's credentials meet none of the operation's security requirements (${
          requirements.map((requirement) => requirement.map(schemeLabel).join(" + ")).join(" | ")
        })`
      })
    }
  }
  return violations
}

const isXmlMediaType = (mediaType: string | undefined) => /^(application|text)\/([\w.+-]*\+)?xml\b/i.test(mediaType ?? "")

/**
 * The schema of an XML answer Prism generated (as JSON): the matched operation's response of
 * that status, in the XML media type Prism labelled the answer with.
 */
const xmlAnswerSchema = (operation: PrismOperation, output: PrismResult["output"]): unknown => {
  const label = Object.entries(output.headers ?? {}).find(([name]) => name.toLowerCase() === "content-type")?.[1]
  if (!isXmlMediaType(label)) return undefined
  const responses = Array.isArray(operation.responses) ? operation.responses as ReadonlyArray<PrismResponse> : []
  const response = responses.find((candidate) => candidate.code === String(output.statusCode)) ??
    responses.find((candidate) => candidate.code.toLowerCase() === `${String(output.statusCode)[0]}xx`) ??
    responses.find((candidate) => candidate.code === "default")
  return response?.contents?.find((media) => isXmlMediaType(media.mediaType))?.schema
}

const readBody = (request: Http.IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    request.on("error", reject)
  })

/**
 * A request body as Prism's validator takes it: JSON parsed; every other media type as its raw
 * text. Form bodies (`application/x-www-form-urlencoded`, `multipart/form-data`) in particular must
 * stay text: Prism's body validator refuses anything else for them ("Target is not a string") and
 * deserializes them itself, splitting the pairs, decoding them and coercing each to its property's
 * declared type (prism-http 5.16 `validator/validators/body.js`, `validate` → `deserializeAndValidate`).
 */
const parseBody = (text: string, contentType: string | undefined): unknown => {
  if (text.length === 0) return undefined
  if ((contentType ?? "").includes("json")) {
    try {
      return JSON.parse(text)
    } catch {
      return text
    }
  }
  return text
}

const queryOf = (search: URLSearchParams) => {
  const query: Record<string, string | Array<string>> = {}
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key)
    query[key] = values.length === 1 ? values[0]! : values
  }
  return query
}

export interface ProviderMock {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string
  /** Where a pass's requests go: the document's paths follow it. */
  readonly baseFor: (pass: MockPass) => string
  /** The exchanges since the last call, oldest first; each call starts a new record. */
  readonly takeExchanges: () => ReadonlyArray<MockExchange>
}

export interface ProviderMockOptions {
  /** 0 (the default) for a free port. */
  readonly port?: number
  /** 127.0.0.1 by default: the mock is for this machine's checks. */
  readonly host?: string
  /** Told of every exchange as it happens (the `connectors mock` command prints them). */
  readonly onExchange?: (exchange: MockExchange) => void
}

const IDENTIFIER = /^(id|.*Id|.*_id)$/

const DIGITS = "^[1-9][0-9]{0,8}$"
const UUID = "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"

/** The form the document's path parameters mostly take: uuids (Deel) or integers (BambooHR). */
const pathIdForm = (document: object): string => {
  let uuids = 0
  let integers = 0
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk)
    if (typeof node !== "object" || node === null) return
    const record = node as Record<string, unknown>
    if (record.in === "path") {
      const schema = (typeof record.schema === "object" && record.schema !== null ? record.schema : record) as Record<string, unknown>
      if (schema.format === "uuid") uuids++
      else if (schema.type === "integer") integers++
    }
    Object.values(record).forEach(walk)
  }
  walk(document)
  return uuids > integers ? UUID : DIGITS
}

/**
 * The document with its free-text identifiers answered in the form its path parameters take:
 * an id the document types as any string comes back as digits (or a uuid, where its paths mostly
 * take uuids), still a string, and one the document then accepts where it takes the id back
 * (BambooHR lists employee ids as text and takes them as integer path parameters; Deel lists
 * people ids as text and takes uuids). Only the mock's answers come from it: requests are held to
 * the document as written.
 */
export const digitIdentifiers = (document: object): object => {
  const form = pathIdForm(document)
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk)
    if (typeof node !== "object" || node === null) return node
    const out: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(node)) out[key] = walk(value)
    const properties = out.properties
    if (typeof properties === "object" && properties !== null && !Array.isArray(properties)) {
      const named = properties as Record<string, unknown>
      for (const [name, schema] of Object.entries(named)) {
        if (!IDENTIFIER.test(name) || typeof schema !== "object" || schema === null) continue
        const field = schema as Record<string, unknown>
        const text = field.type === "string" ||
          (Array.isArray(field.type) && field.type.includes("string") && !field.type.includes("integer"))
        if (text && field.format === undefined && field.pattern === undefined && field.enum === undefined) {
          named[name] = { ...field, pattern: form }
        }
      }
    }
    return out
  }
  return walk(document) as object
}

/** What lets json-schema-faker choose a value for a schema: its type, or a keyword it infers one from. */
const TYPING_KEYWORDS = [
  "type", "$ref", "allOf", "anyOf", "oneOf", "not", "enum", "const", "pattern", "format",
  "items", "additionalItems", "maxItems", "minItems", "uniqueItems",
  "maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf",
  "properties", "additionalProperties", "patternProperties", "required", "dependencies", "maxProperties", "minProperties",
  "maxLength", "minLength"
]

/**
 * The document with each schema that declares no type, and nothing a type can be inferred from,
 * but gives an `example`, answered with that example (`enum: [example]`). Left alone, such a schema
 * is read by json-schema-faker as a template: it answers the schema's own keywords as the value
 * (Personio's `{label, value: {example: 1}, type}` employee attributes came back as
 * `value: {"examples": [1]}`, Prism having renamed the keyword), which no provider would send and
 * no connector can read. Any value is valid for such a schema; the example is the one the document
 * shows. Only the mock's answers come from it: requests are held to the document as written.
 */
export const examplesForUntyped = (document: object): object => {
  const untyped = (schema: unknown): schema is Record<string, unknown> =>
    typeof schema === "object" && schema !== null && !Array.isArray(schema) && "example" in schema &&
    !TYPING_KEYWORDS.some((keyword) => keyword in schema)
  const answered = (schema: unknown): unknown =>
    untyped(schema) ? { ...schema, enum: [schema.example] } : schema
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk)
    if (typeof node !== "object" || node === null) return node
    const out: Record<string, unknown> = {}
    // examples are data, not schemas: kept as written
    for (const [key, value] of Object.entries(node)) out[key] = key === "example" || key === "examples" ? value : walk(value)
    // the places a schema sits: a property, an array's items, a map's values, a parameter's or content's schema
    const properties = out.properties
    if (typeof properties === "object" && properties !== null && !Array.isArray(properties)) {
      out.properties = Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, answered(schema)]))
    }
    for (const key of ["items", "additionalProperties", "schema"]) {
      if (key in out) out[key] = answered(out[key])
    }
    return out
  }
  return walk(document) as object
}

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"])

/**
 * The document with each answer's media types that give neither a schema nor an example left
 * out (an answer left with none has no body). Prism cannot make up a body the document does not
 * describe and fails the request with a 500 instead ("Tried to force a dynamic response for:
 * application/json but schema is not defined": BambooHR's Create Time Off Request declares its
 * 201 as `application/json: {}`); the mock answers the document's status without a body, which
 * is all the document says. Only the mock's answers come from it: requests are held to the
 * document as written.
 */
export const bodilessUndescribedAnswers = (document: object): object => {
  const paths = (document as { paths?: unknown }).paths
  if (paths === null || typeof paths !== "object") return document
  const described = (media: unknown) =>
    typeof media === "object" && media !== null && ("schema" in media || "example" in media || "examples" in media)
  const answer = (response: unknown): unknown => {
    const content = (response as { content?: unknown } | null)?.content
    if (typeof content !== "object" || content === null) return response
    const kept = Object.entries(content).filter(([, media]) => described(media))
    if (kept.length === Object.keys(content).length) return response
    const { content: _dropped, ...rest } = response as Record<string, unknown>
    return kept.length === 0 ? rest : { ...rest, content: Object.fromEntries(kept) }
  }
  const operation = (node: unknown): unknown => {
    const responses = (node as { responses?: unknown } | null)?.responses
    if (typeof responses !== "object" || responses === null) return node
    return { ...(node as object), responses: Object.fromEntries(Object.entries(responses).map(([status, response]) => [status, answer(response)])) }
  }
  return {
    ...document,
    paths: Object.fromEntries(Object.entries(paths).map(([path, item]) => [
      path,
      typeof item === "object" && item !== null
        ? Object.fromEntries(Object.entries(item).map(([key, value]) => [key, HTTP_METHODS.has(key) ? operation(value) : value]))
        : item
    ]))
  }
}

/** A document's operations as Prism reads them: requests held to them as written, answers from the ids-in-path-form copy. */
const operationsOf = (prismHttp: PrismHttp, document: object, label: string) =>
  Effect.gen(function*() {
    const readable = breakReferenceCycles(document)
    // requests are held to the document as written; answers come from its copy with ids in path form,
    // untyped values answered with their examples and undescribed bodies left out
    const [asWritten, answering] = yield* Effect.tryPromise({
      try: () =>
        Promise.all([
          prismHttp.getHttpOperationsFromSpec(readable),
          prismHttp.getHttpOperationsFromSpec(bodilessUndescribedAnswers(examplesForUntyped(digitIdentifiers(readable))))
        ]),
      catch: (cause) =>
        new ProviderDocumentRejected({
          message: `Prism could not read ${label}: ${cause instanceof Error ? cause.message : String(cause)}`
        })
    })
    const answersOf = new Map(answering.map((operation) => [`${operation.method} ${operation.path}`, operation.responses]))
    const operations = asWritten.map((operation) => ({
      ...operation,
      responses: answersOf.get(`${operation.method} ${operation.path}`) ?? operation.responses
    }))
    if (operations.length === 0) return yield* new ProviderDocumentRejected({ message: `${label} declares no operations` })
    return operations
  })

/**
 * Starts Prism on a parsed OpenAPI 3.x or Swagger 2.0 document (local `$ref`s), on a free
 * loopback port unless told otherwise, closed with the scope.
 *
 * Given several documents of one provider (SAP publishes one per API area, on the same server),
 * the mock serves the paths of all of them, and each request is held to the document that has
 * its path: the first, in the order given, whose router matches the path and method; else the
 * first that has the path (Prism then refuses the method); else the first document (which
 * answers that no path matched). The documents are never merged, so each request is validated
 * against its own document's parameters, schemas and security, never against another's.
 */
export const startProviderMock = (document: object | ReadonlyArray<object>, options: ProviderMockOptions = {}) =>
  Effect.gen(function*() {
    const { createLogger, faker, prismHttp, route } = yield* loadPrism
    const documents: ReadonlyArray<object> = Array.isArray(document) ? document : [document as object]
    if (documents.length === 0) return yield* new ProviderDocumentRejected({ message: "no document to mock" })
    const operationSets = yield* Effect.forEach(documents, (each, i) =>
      operationsOf(prismHttp, each, documents.length === 1 ? "the document" : `document ${i + 1} of ${documents.length}`))
    /** The operations of the document that has the request's path (see above), and Prism's routing in it. */
    const routeRequest = (request: PrismRequest) => {
      const routed = operationSets.map((operations) => ({ operations, routed: route({ resources: operations, input: request }) }))
      const pathOnly = (operations: Array<PrismOperation>) =>
        operations.some((operation) => route({ resources: [operation], input: { ...request, method: operation.method } })._tag === "Right")
      return routed.find((candidate) => candidate.routed._tag === "Right") ??
        routed.find((candidate) => pathOnly(candidate.operations)) ?? routed[0]!
    }
    const prism = prismHttp.createInstance(mockConfig("1"), {
      logger: createLogger("contract-check", { level: "silent" })
    })
    let exchanges: Array<MockExchange> = []
    const recordExchange = (exchange: MockExchange) => {
      exchanges.push(exchange)
      options.onExchange?.(exchange)
    }

    const answer = async (incoming: Http.IncomingMessage, outgoing: Http.ServerResponse) => {
      const url = new URL(incoming.url ?? "/", "http://mock")
      // asked by whoever waits for the mock to listen; not a request to the provider
      if (url.pathname === READY_PATH) {
        outgoing.writeHead(204)
        outgoing.end()
        return
      }
      if (url.pathname === TOKEN_PATH) {
        await readBody(incoming)
        // ?field=data.token: the method's tokenField, where the provider answers the token
        const field = url.searchParams.get("field")
        const answer: Record<string, unknown> = { access_token: "contract-check-token", token_type: "Bearer", expires_in: 3600 }
        if (field !== null) {
          const keys = field.split(".")
          let at = answer
          keys.slice(0, -1).forEach((key) => {
            const next: Record<string, unknown> = {}
            at[key] = next
            at = next
          })
          at[keys[keys.length - 1]!] = "contract-check-token"
        }
        outgoing.writeHead(200, { "content-type": "application/json" })
        outgoing.end(JSON.stringify(answer))
        return
      }
      const pass = PASS_SEGMENT.exec(url.pathname)
      const profile = (pass?.[1] ?? "full") as MockProfile
      const seed = pass?.[2] ?? "1"
      const path = pass === null ? url.pathname : (pass[3] || "/")
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value
      }
      const body = parseBody(await readBody(incoming), headers["content-type"])
      const request: PrismRequest = {
        method: (incoming.method ?? "GET").toLowerCase(),
        url: { path, query: queryOf(url.searchParams) },
        headers,
        ...(body === undefined ? {} : { body })
      }
      const { operations, routed } = routeRequest(request)
      const own = routed._tag === "Right" ? ownChecks(routed.right, request) : []
      faker.option(profileOptions[profile])
      const result = await prism.request(request, operations, mockConfig(seed))()
      const record = (status: number, violations: ReadonlyArray<Violation>) =>
        recordExchange({
          method: request.method.toUpperCase(),
          path,
          query: request.url.query,
          operation: routed._tag === "Right" ? routed.right.path : undefined,
          status,
          violations: [...violations, ...own]
        })
      if (result._tag === "Left") {
        const error = result.left
        const status = error.status ?? 500
        const validation = (error.additional?.validation ?? []).map(describeDiagnostic)
        record(status, validation.length > 0 ? validation : [{ location: "request", message: `${error.message}${error.detail ? `: ${error.detail}` : ""}` }])
        outgoing.writeHead(status, { "content-type": "application/json" })
        outgoing.end(JSON.stringify(prismHttp.ProblemJsonError.toProblemJson(error)))
        return
      }
      const { output, validations } = result.right
      record(output.statusCode, validations.input.filter((diagnostic) => diagnostic.severity === 0).map(describeDiagnostic))
      const xmlSchema = routed._tag === "Right" ? xmlAnswerSchema(routed.right, output) : undefined
      const text = output.body === undefined
        ? ""
        : typeof output.body === "string"
        ? output.body
        : xmlSchema !== undefined
        ? xmlFromSchema(output.body, xmlSchema)
        : JSON.stringify(output.body)
      outgoing.writeHead(output.statusCode, output.headers ?? {})
      outgoing.end(text)
    }

    let queue: Promise<void> = Promise.resolve()
    const server = Http.createServer((incoming, outgoing) => {
      queue = queue.then(() => answer(incoming, outgoing)).catch((cause) => {
        recordExchange({
          method: incoming.method ?? "GET",
          path: incoming.url ?? "/",
          query: {},
          operation: undefined,
          status: 500,
          violations: [{ location: "mock", message: `the mock failed: ${String(cause)}` }]
        })
        if (!outgoing.headersSent) outgoing.writeHead(500)
        outgoing.end()
      })
    })
    const host = options.host ?? "127.0.0.1"
    const port = yield* Effect.acquireRelease(
      Effect.async<number, MockListenFailed>((resume) => {
        server.once("error", (error) =>
          resume(Effect.fail(new MockListenFailed({ message: `the mock cannot listen on ${host}:${options.port ?? 0}: ${error.message}` }))))
        server.listen(options.port ?? 0, host, () => resume(Effect.succeed((server.address() as AddressInfo).port)))
      }),
      () => Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
    )
    const origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`
    return {
      origin,
      baseFor: (pass) => `${origin}/${pass.profile}-${pass.seed}`,
      takeExchanges: () => {
        const taken = exchanges
        exchanges = []
        return taken
      }
    } satisfies ProviderMock
  })
