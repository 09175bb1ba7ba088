import { HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { builtinConnectorSources } from "@switchyard/connectors"
import { type ConnectorDefinition, latestOfEach, parseConnector, verificationDocuments } from "@switchyard/engine"
import { Context, Effect, Either, Layer } from "effect"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { actionPassed, reportPassed, runContractCheck } from "../src/app/contractCheck/ContractCheck.js"
import { formatContractReport } from "../src/app/contractCheck/formatContractReport.js"
import { readProviderDocument } from "../src/app/contractCheck/ProviderDocument.js"
import { type ProviderMock, startProviderMock } from "../src/app/contractCheck/ProviderMock.js"
import { stackOneSdkClient } from "./support/StackOneSdkClient.js"
import { BOOTSTRAP_KEY, TestServer } from "./support/TestServer.js"

/*
 * Built-in connectors against their providers' own published OpenAPI documents (vendored in
 * packages/connectors/provider-documents with their source and license): every shipped version
 * that declares `verification.level: contract` is run, action by action, through the server
 * against a Prism mock of the documents it names, each seed with full and sparse answers: two
 * seeds for the newest version of each connector, one for the earlier ones. The unified calls
 * are made by the real StackOne SDK (its methods, its request serialization, its response
 * validation), the other actions over the RPC endpoint. It passes
 * when the mock saw no request the document refuses and every answer is a valid unified
 * record the SDK accepts; the report, one line per action, is the failure message.
 *
 * The check is also shown to fail: BambooHR 1.2.0, written from the provider's documentation
 * pages, calls paths its document does not have; SuccessFactors 1.1.0, checked against two SAP
 * documents at once, calls paths the first alone does not have.
 */

const DOCUMENTS = Path.resolve(fileURLToPath(import.meta.url), "../../../connectors/provider-documents")
/** The newest version of each connector runs with two seeds; earlier ones, proven when they shipped, with one. */
const NEWEST_SEEDS = ["1", "2"]
const EARLIER_SEEDS = ["1"]

const shipped = builtinConnectorSources().map((source) => ({
  file: source.file,
  definition: Either.getOrThrow(parseConnector(source.yaml)).definition
}))

const contracts = shipped.flatMap(({ definition, file }) => {
  const documents = verificationDocuments(definition.info.verification)
  return definition.info.verification?.level === "contract" && documents.length > 0
    // a version checked against several documents of its provider is named by all of them
    ? [{ file, definition, document: documents.join(" + "), documents }]
    : []
})

/** The newest version of each connector, the one an account gets, as `key@version`. */
const newest = new Set(
  [...latestOfEach(contracts.map(({ definition }) => definition.info), (info) => info).values()].map((info) => `${info.key}@${info.version}`)
)

/**
 * One mock per provider document, or per set of documents a version is checked against together,
 * started once for the file (reading a document and starting Prism take seconds).
 */
class ProviderMocks extends Context.Tag("ProviderMocks")<
  ProviderMocks,
  ReadonlyMap<string, { readonly documents: ReadonlyArray<Record<string, unknown>>; readonly mock: ProviderMock }>
>() {}

const ProviderMocksLive = Layer.scoped(
  ProviderMocks,
  Effect.forEach([...new Map(contracts.map((contract) => [contract.document, contract.documents])).entries()], ([name, documents]) =>
    Effect.gen(function*() {
      const parsed = yield* Effect.forEach(documents, (document) => readProviderDocument(Path.join(DOCUMENTS, document)))
      const contents = parsed.map((document) => document.content)
      return [name, { documents: contents, mock: yield* startProviderMock(contents) }] as const
    })).pipe(Effect.map((entries) => new Map(entries)), Effect.orDie)
)

/** The unified calls are the StackOne SDK's own, sent to the test server's real port. */
const sdkClient = Effect.map(HttpServer.HttpServer, (server) => {
  const address = server.address
  if (address._tag !== "TcpAddress") throw new Error("the test server listens on no TCP port")
  return stackOneSdkClient(`http://127.0.0.1:${address.port}`, BOOTSTRAP_KEY)
})

const checkAgainst = (definition: ConnectorDefinition, document: string, seeds: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const started = (yield* ProviderMocks).get(document)
    if (started === undefined) throw new Error(`no contract-level connector names ${document}`)
    return yield* runContractCheck({
      connector: definition,
      documents: started.documents,
      mock: started.mock,
      seeds,
      apiKey: BOOTSTRAP_KEY,
      unifiedClient: yield* sdkClient
    })
  })

layer(
  Layer.merge(TestServer({ SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1" }), ProviderMocksLive),
  { excludeTestServices: true, timeout: 120_000 }
)(
  "provider contracts",
  (it) => {
    it("every connector provider with a published document has a contract-level version", () => {
      expect(contracts.map((contract) => `${contract.definition.info.key}@${contract.definition.info.version}`))
        .toContain("bamboohr@1.3.0")
    })

    for (const contract of contracts) {
      const name = `${contract.definition.info.key}@${contract.definition.info.version}`
      it.scoped(`${name} against ${contract.document}`, () =>
        Effect.gen(function*() {
          const report = yield* checkAgainst(contract.definition, contract.document, newest.has(name) ? NEWEST_SEEDS : EARLIER_SEEDS)
          const text = formatContractReport(report)
          expect(reportPassed(report), text).toBe(true)
          // every action ran in every pass, and each made at least one provider request
          for (const seed of report.seeds) {
            expect(seed.actions.map((check) => check.actionId).sort(), text).toEqual(
              contract.definition.actions.map((action) => action.actionId).sort()
            )
            // the goal the HRIS connectors answer to: their newest version lists employees, records and all
            const employees = seed.actions.find((check) => check.actionId === "hris_list_employees")
            if (newest.has(name) && employees !== undefined && seed.profile === "full") {
              expect(employees.records, `${name} seed ${seed.seed}: no employee records\n${text}`).toBeGreaterThan(0)
            }
            for (const check of seed.actions) {
              expect(check.requests.length, text).toBeGreaterThan(0)
              if (check.via === "unified") expect(check.checkedAgainst, text).toContain("sent by StackOne SDK")
            }
          }
        }))
    }

    it.scoped("successfactors@1.1.0, checked against two of SAP's documents, breaks the first alone where it needs the second", () =>
      Effect.gen(function*() {
        const newer = shipped.find(({ file }) => file.endsWith("successfactors/1.1.0.yaml"))!.definition
        expect(verificationDocuments(newer.info.verification)).toEqual([
          "successfactors/ECEmploymentInformation.json",
          "successfactors/ECPositionManagement.json"
        ])
        // the mock 1.0.0 is checked with: Employment Information only
        const report = yield* checkAgainst(newer, "successfactors/ECEmploymentInformation.json", EARLIER_SEEDS)
        const text = formatContractReport(report)
        expect(reportPassed(report), text).toBe(false)
        const failed = [...new Set(report.seeds.flatMap((seed) => seed.actions.filter((check) => !actionPassed(check)).map((check) => check.actionId)))]
        expect(failed.sort(), text).toEqual(["hris_get_position", "hris_list_positions"])
        const positions = report.seeds[0]!.actions.find((check) => check.actionId === "hris_list_positions")!
        expect(positions.requests.map((request) => [request.path, request.status]), text).toEqual([["/Position", 404]])
      }))

    it.scoped("bamboohr@1.2.0, written from documentation pages, breaks BambooHR's document", () =>
      Effect.gen(function*() {
        const older = shipped.find(({ file }) => file.endsWith("bamboohr/1.2.0.yaml"))!.definition
        const report = yield* checkAgainst(older, "bamboohr/public.yaml", EARLIER_SEEDS)
        const text = formatContractReport(report)
        expect(reportPassed(report), text).toBe(false)
        // its gateway.php/{subdomain}/v1 paths are not the document's /api/v1 paths
        const list = report.seeds[0]!.actions.find((check) => check.actionId === "hris_list_employees")!
        expect(list.requests.map((request) => [request.path, request.status]), text).toEqual([
          ["/api/gateway.php/variable/v1/employees/directory", 404]
        ])
        expect(text).toContain("✗ seed 1 (full): hris_list_employees (unified): requests valid 0/1")
        expect(text).toContain("hris_get_employee_document_category: answered 2xx in no pass")
      }))
  }
)
