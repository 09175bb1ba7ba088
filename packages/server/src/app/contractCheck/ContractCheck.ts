import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Api, unifiedOperationOf } from "@switchyard/api"
import type { ActionDefinition, ConnectorDefinition } from "@switchyard/engine"
import { Effect, Option, ParseResult, Schema } from "effect"
import { exampleValue, requiredFieldsOf } from "./exampleValue.js"
import { type MockBase, mockBaseOf, mockServerBases } from "./mockBaseUrl.js"
import { mockAccount } from "./mockAccount.js"
import { type ListedRecords, pathFromLists } from "./pathFromLists.js"
import type { MockExchange, MockPass, MockProfile, ProviderMock } from "./ProviderMock.js"
import { referenceSchemaOf } from "./referenceSchemas.js"

/*
 * A connector checked against its provider's own OpenAPI document: the provider is a Prism
 * mock of that document (ProviderMock), and every action of the connector runs through a
 * Switchyard server as a user's code would run it, the unified operations through the
 * unified API and the other actions through the RPC endpoint. An action passes when
 *   - every request it made is one the document accepts (Prism's validation and our own
 *     checks: path, method, parameters, body, security), and
 *   - it answered 2xx with an answer that is a valid unified record: the server's own unified
 *     schema where the api declares the operation, and StackOne's reference schema where
 *     StackOne defines the action id (as the real StackOne SDK validates it).
 * Ids come from list answers (a get runs on an id its list returned), write bodies are
 * realistic unified values (exampleValue), and each seed gives the mock other answers.
 */

export interface ContractCheckOptions {
  /** The parsed connector: its key, version, base URL and actions. */
  readonly connector: ConnectorDefinition
  /** The provider's documents, parsed (readProviderDocument): one, or each of those the mock serves together. */
  readonly documents: ReadonlyArray<Record<string, unknown>>
  readonly mock: ProviderMock
  /** Each seed runs twice: with the mock's `full` answers and with its `sparse` ones. */
  readonly seeds: ReadonlyArray<string>
  /** The API key the checks call the server with (a Full Access key of the project owning the connector). */
  readonly apiKey: string
  /** Per action, inputs that replace the synthesized ones (e.g. an id no list answers). */
  readonly inputs?: Readonly<Record<string, ActionInputs>>
  /**
   * Another client to send the unified calls with (the StackOne SDK, in the tests), so its
   * requests are the ones checked; by default the check sends them over HTTP itself.
   */
  readonly unifiedClient?: UnifiedClient
}

/** A unified call as the check makes it: the operation, its filled-in path, query and body. */
export interface UnifiedCallRequest {
  readonly operationId: string
  readonly method: string
  /** The path with its parameters filled in, e.g. `/unified/hris/employees/1`. */
  readonly path: string
  readonly pathParams: Readonly<Record<string, string>>
  readonly query: Readonly<Record<string, unknown>>
  readonly body: unknown
  readonly accountId: string
}

export interface UnifiedCallAnswer {
  readonly status: number
  readonly body: unknown
  /** What the client itself refused in a 2xx answer (the SDK's response validation). */
  readonly clientIssues?: ReadonlyArray<string>
}

export interface UnifiedClient {
  /** How the report names the client, e.g. `StackOne SDK`. */
  readonly name: string
  readonly call: (request: UnifiedCallRequest) => Effect.Effect<UnifiedCallAnswer>
}

export interface ActionInputs {
  readonly path?: Readonly<Record<string, unknown>>
  readonly query?: Readonly<Record<string, unknown>>
  readonly body?: unknown
}

export interface ActionCheck {
  readonly actionId: string
  readonly via: "unified" | "rpc"
  /** The server's answer status. */
  readonly status: number
  /** The server's error message, for an answer that is not 2xx. */
  readonly error: string | undefined
  /** The provider requests the action made. */
  readonly requests: ReadonlyArray<MockExchange>
  /** Problems of the answer against the unified schema and the StackOne reference schema. */
  readonly answerIssues: ReadonlyArray<string>
  /** The schemas the answer was checked against (`unified HrisEmployeeDocumentCategoryResult`, `StackOne EmployeesPaginated`). */
  readonly checkedAgainst: ReadonlyArray<string>
  /** Where the record id came from: a list answer, or none (an id no list gave, so a 404 is no fault). */
  readonly idFrom: string | undefined
  /** Records in the answer, for reads. */
  readonly records: number
  /** Fields of the unified record no record of the answer filled, for reads whose record shape is known. */
  readonly unmapped: ReadonlyArray<string>
}

export interface SeedReport extends MockPass {
  /** Linking the account: its status, and the requests its credential check made. */
  readonly link: { readonly status: number; readonly error: string | undefined; readonly requests: ReadonlyArray<MockExchange> }
  readonly actions: ReadonlyArray<ActionCheck>
}

export interface ContractReport {
  readonly connector: string
  readonly base: MockBase
  /** The connector's named servers, each on one of the documents' servers (or its problem). */
  readonly servers: ReadonlyArray<{ readonly name: string; readonly base: MockBase }>
  readonly seeds: ReadonlyArray<SeedReport>
}

const violationsOf = (requests: ReadonlyArray<MockExchange>) => requests.flatMap((request) => request.violations)

const succeeded = (check: ActionCheck) => check.status >= 200 && check.status < 300

/**
 * The check's own violations: with no list answer to take an id from (the list was empty), the
 * check makes one up ("1"), and a document whose path parameter wants another form (an integer,
 * a uuid) refuses it. That id is the check's, not the connector's.
 */
const inventedIdViolations = (check: ActionCheck) =>
  check.idFrom === undefined
    ? violationsOf(check.requests).filter((violation) => violation.location.startsWith("path."))
    : []

/** The violations the connector's requests made (without those of an id the check made up). */
export const connectorViolations = (check: ActionCheck) => {
  const invented = new Set(inventedIdViolations(check))
  return violationsOf(check.requests).filter((violation) => !invented.has(violation))
}

/**
 * An id no list answer gave (the list was empty) that the connector found no record for, or that
 * the document refused: nothing to hold against the connector.
 */
export const notExercised = (check: ActionCheck) =>
  check.idFrom === undefined && (check.status === 404 || inventedIdViolations(check).length > 0)

/**
 * Whether an action met the contract: valid requests, and a 2xx answer that fits its schemas
 * (or no answer to judge, for an id no list gave).
 */
export const actionPassed = (check: ActionCheck) =>
  connectorViolations(check).length === 0 && check.answerIssues.length === 0 && (succeeded(check) || notExercised(check))

/** Actions that answered 2xx in no pass: a check must exercise every action at least once. */
export const neverExercised = (report: ContractReport): ReadonlyArray<string> => {
  const ids = [...new Set(report.seeds.flatMap((seed) => seed.actions.map((check) => check.actionId)))]
  return ids.filter((id) => !report.seeds.some((seed) => seed.actions.some((check) => check.actionId === id && succeeded(check))))
}

/** Whether the whole check passed: the base URL and servers on document servers, linking and every action of every seed. */
export const reportPassed = (report: ContractReport) =>
  report.base.problem === undefined && report.servers.every((server) => server.base.problem === undefined) &&
  neverExercised(report).length === 0 &&
  report.seeds.every((seed) =>
    seed.link.status < 300 && violationsOf(seed.link.requests).length === 0 && seed.actions.every(actionPassed)
  )

// ---------------------------------------------------------------------------
// The unified endpoint that serves an action id, with its schemas
// ---------------------------------------------------------------------------

interface UnifiedEndpoint {
  readonly kind: string
  readonly method: string
  readonly path: string
  readonly payload: Schema.Schema.Any | undefined
  readonly success: Schema.Schema.Any
  readonly name: string
}

const unifiedEndpoints: ReadonlyMap<string, UnifiedEndpoint> = new Map(
  Object.values(Api.groups).flatMap((group) =>
    Object.values(group.endpoints).flatMap((endpoint) =>
      Option.toArray(unifiedOperationOf(endpoint)).map((operation) =>
        [operation.actionId, {
          kind: operation.kind,
          method: endpoint.method,
          path: endpoint.path,
          payload: Option.getOrUndefined(endpoint.payloadSchema) as Schema.Schema.Any | undefined,
          success: endpoint.successSchema as Schema.Schema.Any,
          name: Option.getOrElse(
            Option.flatMap(Option.some(endpoint.successSchema.ast), (ast) =>
              Option.fromNullable(ast.annotations[Symbol.for("effect/annotation/Identifier")] as string | undefined)),
            () => operation.actionId
          )
        }] as const
      )
    )
  )
)

// ---------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------

const READ_TYPES = new Set(["list", "get"])
// lists first (those of a parent record after the top-level ones, whose ids they take), then reads, then writes
const order = (action: ActionDefinition) =>
  action.actionType === "list"
    ? (unifiedEndpoints.get(action.actionId)?.path.includes("/:") ? 0.5 : 0)
    : action.actionType === "get" ? 1 : READ_TYPES.has(action.actionType) ? 2 : 3

/** `hris_get_employee_document_category` → [employee, document, category]: the record an action is about. */
const nounTokens = (actionId: string) =>
  actionId.split("_").slice(2).map((token) => token.replace(/ies$/, "y").replace(/s$/, ""))

/** The list action whose records a get or write on `actionId` most likely takes its id from. */
const listFor = (actionId: string, lists: ReadonlyArray<string>) => {
  const category = actionId.split("_")[0]
  const wanted = nounTokens(actionId)
  let best: { id: string; score: number } | undefined
  for (const list of lists) {
    if (list.split("_")[0] !== category) continue
    const tokens = nounTokens(list)
    const score = tokens.filter((token) => wanted.includes(token)).length - 0.01 * tokens.length
    if (score > 0 && (best === undefined || score > best.score)) best = { id: list, score }
  }
  return best?.id
}

const idsOf = (data: unknown): ReadonlyArray<string> =>
  Array.isArray(data)
    ? data.flatMap((record) =>
      typeof record === "object" && record !== null && (typeof record.id === "string" || typeof record.id === "number")
        ? [String(record.id)]
        : []
    )
    : []

/** A value for a declared input by its type, for required inputs the caller did not give. */
const inputValue = (input: NonNullable<ActionDefinition["inputs"]>[number], id: string): unknown => {
  if (input.name === "id" || input.name.endsWith("_id")) return id
  switch (input.type) {
    case "number":
      return 1
    case "boolean":
      return true
    case "datetime_string":
      return "2024-03-01T00:00:00.000Z"
    case "object":
      return {}
    case "enum":
      return input.oneOf?.values?.[0] ?? "example"
    default:
      return "example"
  }
}

// ---------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------

/** The action's `body` input: its `properties` name the body fields the connector requires. */
const bodyInput = (action: ActionDefinition) =>
  action.inputs?.find((input) => input.in === "body" && input.name === "body")

const present = (value: unknown) =>
  value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0) && value !== ""

/** Fields of `fields` that no record fills. */
const unmappedFields = (records: ReadonlyArray<unknown>, fields: ReadonlyArray<string>) =>
  records.length === 0 ? [] : fields.filter((field) =>
    !records.some((record) => typeof record === "object" && record !== null && present((record as Record<string, unknown>)[field]))
  )

/**
 * A download's answer is the document's bytes, which the clients read as text (parsed as JSON
 * where it happens to be some): as bytes again, for the unified schema (a Uint8Array).
 */
const downloadedBytes = (body: unknown): Uint8Array =>
  body instanceof Uint8Array
    ? body
    : new TextEncoder().encode(typeof body === "string" ? body : body === undefined ? "" : JSON.stringify(body))

const unifiedIssues = (schema: Schema.Schema.Any, body: unknown): ReadonlyArray<string> => {
  const decoded = Schema.decodeUnknownEither(schema as Schema.Schema<unknown, unknown, never>, { errors: "all" })(body)
  return decoded._tag === "Right"
    ? []
    : ParseResult.ArrayFormatter.formatErrorSync(decoded.left).map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`)
}

// ---------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------

const errorMessage = (body: unknown) =>
  typeof body === "object" && body !== null && typeof (body as { message?: unknown }).message === "string"
    ? (body as { message: string }).message
    : JSON.stringify(body)?.slice(0, 300)

export const runContractCheck = (options: ContractCheckOptions) =>
  Effect.gen(function*() {
    const client = (yield* HttpClient.HttpClient).pipe(
      HttpClient.mapRequest(HttpClientRequest.setHeader("authorization", `Basic ${Buffer.from(`${options.apiKey}:`).toString("base64")}`))
    )
    const call = (method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE", url: string, init: {
      readonly body?: unknown
      readonly query?: Readonly<Record<string, unknown>>
      readonly account?: string
    } = {}) =>
      Effect.gen(function*() {
        let request = HttpClientRequest.make(method)(url).pipe(
          HttpClientRequest.setUrlParams(
            Object.entries(init.query ?? {}).map(([key, value]) => [key, typeof value === "string" ? value : JSON.stringify(value)] as const)
          )
        )
        if (init.account !== undefined) request = HttpClientRequest.setHeader(request, "x-account-id", init.account)
        if (init.body !== undefined) request = yield* HttpClientRequest.bodyJson(request, init.body)
        const response = yield* client.execute(request)
        const text = yield* response.text
        let body: unknown = text
        try {
          body = text.length === 0 ? undefined : JSON.parse(text)
        } catch {
          // not JSON: kept as text for the report
        }
        return { status: response.status, body }
      }).pipe(Effect.scoped, Effect.orDie)

    const { connector, mock } = options
    const base = mockBaseOf(connector.baseUrl, options.documents)
    const servers = mockServerBases(connector.servers, options.documents)
    const actions = [...connector.actions].filter((action) => action.actionType !== "refresh_token")
      .sort((a, b) => order(a) - order(b))

    const profiles: ReadonlyArray<MockProfile> = ["full", "sparse"]
    const seeds: Array<SeedReport> = []
    for (const pass of options.seeds.flatMap((seed) => profiles.map((profile): MockPass => ({ seed, profile })))) {
      const seed = `${pass.seed}-${pass.profile}`
      mock.takeExchanges()
      const linked = yield* call("POST", "/v2/accounts", {
        body: {
          connector_key: connector.info.key,
          connector_version: connector.info.version,
          name: `contract check, seed ${seed}`,
          owner_id: `contract-check-${seed}`,
          ...mockAccount(connector, {
            origin: mock.origin,
            baseUrl: `${mock.baseFor(pass)}${base.prefix}`,
            servers: Object.fromEntries(servers.map((server) => [server.name, `${mock.baseFor(pass)}${server.base.prefix}`]))
          })
        }
      })
      const link = {
        status: linked.status,
        error: linked.status < 300 ? undefined : errorMessage(linked.body),
        requests: mock.takeExchanges()
      }
      const accountId = (linked.body as { id?: string } | undefined)?.id
      const checks: Array<ActionCheck> = []
      const listed = new Map<string, ListedRecords>()
      if (accountId !== undefined) {
        for (const action of actions) {
          const given = options.inputs?.[action.actionId]
          const unified = unifiedEndpoints.get(action.actionId)
          // a unified call takes its ids from the lists its path names; an RPC action from the likeliest list by name
          const fromLists = unified === undefined ? undefined : pathFromLists(unified.path, (list) => listed.get(list))
          const rpcSource = unified === undefined ? listFor(action.actionId, [...listed.keys()]) : undefined
          const rpcListed = rpcSource === undefined ? undefined : listed.get(rpcSource)?.ids[0]
          const id = fromLists?.params.id ?? rpcListed ?? "1"
          const subId = fromLists?.params.subResourceId ?? "1"
          const idFrom = fromLists !== undefined
            ? (fromLists.from.length > 0 ? fromLists.from.join(" and ") : undefined)
            : rpcListed !== undefined ? rpcSource : undefined
          const required = (action.inputs ?? []).filter((input) => input.required === true)
          const path = given?.path ?? Object.fromEntries(
            (action.inputs ?? []).filter((input) => input.in === "path").map((input) =>
              [input.name, input.name === "subResourceId" ? subId : inputValue(input, id)]
            )
          )
          const body = given?.body ?? (unified?.payload !== undefined
            ? exampleValue(unified.payload, seed, requiredFieldsOf(bodyInput(action)?.properties))
            : required.some((input) => input.in === "body" && input.name === "body")
            ? {}
            : undefined)
          const query = given?.query ?? Object.fromEntries(
            required.filter((input) => (input.in ?? "query") === "query").map((input) => [input.name, inputValue(input, id)])
          )
          const pathParams: Record<string, string> = {}
          const unifiedPath = unified?.path.replace(/:(\w+)/g, (_, name: string) => {
            pathParams[name] = String(path[name] ?? (name === "subResourceId" ? subId : id))
            return encodeURIComponent(pathParams[name])
          })
          const unifiedBody = body === undefined || unified?.method === "GET" ? undefined : body
          const answer: UnifiedCallAnswer = unified !== undefined
            ? options.unifiedClient !== undefined
              ? yield* options.unifiedClient.call({
                operationId: action.actionId,
                method: unified.method,
                path: unifiedPath!,
                pathParams,
                query,
                body: unifiedBody,
                accountId
              })
              : yield* call(unified.method as "GET", unifiedPath!, {
                account: accountId,
                query,
                ...(unifiedBody === undefined ? {} : { body: unifiedBody })
              })
            : yield* call("POST", "/actions/rpc", {
              account: accountId,
              body: { action: action.actionId, path, query, ...(body === undefined ? {} : { body }) }
            })
          const requests = mock.takeExchanges()
          const ok = answer.status >= 200 && answer.status < 300
          const data = (answer.body as { data?: unknown } | undefined)?.data
          if (ok && action.actionType === "list") {
            const params = unified === undefined ? Object.fromEntries(Object.entries(path).map(([key, value]) => [key, String(value)])) : pathParams
            listed.set(action.actionId, { params, ids: idsOf(data) })
          }
          const records = ok && READ_TYPES.has(action.actionType) ? (Array.isArray(data) ? data : data === undefined ? [] : [data]) : []
          // the reference shapes a unified answer; an RPC answer of a read is {data, next} as the unified one would be
          const reference = unified !== undefined || READ_TYPES.has(action.actionType) ? referenceSchemaOf(action.actionId) : undefined
          const referenceBody = unified !== undefined ? answer.body : { data, ...(action.actionType === "list" ? { next: null } : {}) }
          const answerIssues = ok
            ? [
              ...(answer.clientIssues ?? []).map((issue) => `${options.unifiedClient?.name ?? "client"}: ${issue}`),
              ...(unified === undefined ? [] : unifiedIssues(
                unified.success,
                unified.kind === "download" ? downloadedBytes(answer.body) : answer.body
              ).map((issue) => `unified: ${issue}`)),
              ...(reference === undefined ? [] : reference.issues(referenceBody).map((issue) => `StackOne ${reference.name}: ${issue}`))
            ]
            : []
          checks.push({
            actionId: action.actionId,
            via: unified === undefined ? "rpc" : "unified",
            status: answer.status,
            error: ok ? undefined : errorMessage(answer.body),
            requests,
            answerIssues,
            checkedAgainst: [
              ...(unified !== undefined && options.unifiedClient !== undefined ? [`sent by ${options.unifiedClient.name}`] : []),
              ...(unified === undefined ? [] : [`unified ${unified.name}`]),
              ...(reference === undefined ? [] : [`StackOne ${reference.name}`])
            ],
            idFrom,
            records: records.length,
            unmapped: reference === undefined ? [] : unmappedFields(records, reference.recordFields)
          })
        }
        yield* call("DELETE", `/v2/accounts/${accountId}`)
        mock.takeExchanges()
      }
      seeds.push({ ...pass, link, actions: checks })
    }
    return { connector: `${connector.info.key}@${connector.info.version}`, base, servers, seeds } satisfies ContractReport
  })
