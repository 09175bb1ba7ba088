import { Args, Command, Options } from "@effect/cli"
import { builtinConnectorSources, CONNECTORS_DIR } from "@switchyard/connectors"
import { type ConnectorDefinition, latestOfEach, parseConnector, verificationDocuments } from "@switchyard/engine"
import { Console, Effect, Either } from "effect"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { mockAccount } from "../contractCheck/mockAccount.js"
import { mockBaseOf, mockServerBases } from "../contractCheck/mockBaseUrl.js"
import { readProviderDocument } from "../contractCheck/ProviderDocument.js"
import { type MockExchange, startProviderMock } from "../contractCheck/ProviderMock.js"

/*
 * `switchyard sandbox <provider>`: a mock of a built-in connector's provider, served from the
 * provider's own OpenAPI document (the contract check's mock), with the account body that links
 * the connector to it printed ready to send. The look-alike providers of `pnpm sandbox` cover
 * Greenhouse, BambooHR and TalentLMS; this covers every connector checked at contract level.
 */

/**
 * The provider documents ship in the repository beside the connectors, not in the npm package:
 * found beside the connectors package, or from this module in the server's src/ or dist/.
 */
const documentsDir = (): string | undefined =>
  [
    Path.join(CONNECTORS_DIR, "..", "provider-documents"),
    Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "..", "..", "connectors", "provider-documents"),
    Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..", "connectors", "provider-documents")
  ].find((dir) => Fs.existsSync(dir))

/** The newest shipped version of each built-in connector, by key, with the provider documents it names. */
const contractConnectors = (): ReadonlyMap<string, { readonly definition: ConnectorDefinition; readonly documents: ReadonlyArray<string> }> => {
  const definitions = builtinConnectorSources().flatMap((source) => {
    const parsed = parseConnector(source.yaml)
    return Either.isRight(parsed) ? [parsed.right.definition] : []
  })
  const contracts = new Map<string, { readonly definition: ConnectorDefinition; readonly documents: ReadonlyArray<string> }>()
  for (const [key, definition] of latestOfEach(definitions, ({ info }) => info)) {
    const verification = definition.info.verification
    const documents = verificationDocuments(verification)
    if (verification?.level === "contract" && documents.length > 0) contracts.set(key, { definition, documents })
  }
  return contracts
}

const describe = (exchange: MockExchange) =>
  [
    `${exchange.violations.length === 0 ? "✓" : "✗"} ${exchange.method} ${exchange.path} → ${exchange.status}`,
    ...exchange.violations.map((violation) => `    ${violation.location}: ${violation.message}`)
  ].join("\n")

export const sandboxCommand = Command.make("sandbox", {
  provider: Args.text({ name: "provider" }).pipe(
    Args.withDescription("The key of a built-in connector checked at contract level (e.g. personio, hibob)")
  ),
  port: Options.integer("port").pipe(
    Options.withDefault(4010),
    Options.withDescription("The port to listen on, on 127.0.0.1 (default 4010; 0 for a free one).")
  ),
  seed: Options.text("seed").pipe(
    Options.withDefault("1"),
    Options.withDescription("The seed of the mock's answers (another seed, other records).")
  ),
  sparse: Options.boolean("sparse").pipe(
    Options.withDescription("Answer about half of the optional properties, and empty lists, instead of all of them.")
  )
}, ({ port, provider, seed, sparse }) =>
  Effect.gen(function*() {
    const connectors = contractConnectors()
    const chosen = connectors.get(provider)
    if (chosen === undefined) {
      return yield* Effect.fail(
        new Error(`no built-in connector ${provider} is checked against a provider document; these are: ${[...connectors.keys()].join(", ")}`)
      )
    }
    const dir = documentsDir()
    const missing = chosen.documents.find((document) => dir === undefined || !Fs.existsSync(Path.join(dir, document)))
    if (dir === undefined || missing !== undefined) {
      return yield* Effect.fail(
        new Error(`${missing ?? chosen.documents[0]} is not here: the provider documents ship with the repository (packages/connectors/provider-documents), not the npm package`)
      )
    }
    const documents = yield* Effect.forEach(chosen.documents, (document) => readProviderDocument(Path.join(dir, document)))
    const contents = documents.map((document) => document.content)
    const mock = yield* startProviderMock(contents, { port, onExchange: (exchange) => console.log(describe(exchange)) })
    const { definition } = chosen
    const base = mockBaseOf(definition.baseUrl, contents)
    const pass = { seed, profile: sparse ? "sparse" : "full" } as const
    const account = {
      connector_key: definition.info.key,
      connector_version: definition.info.version,
      name: `${definition.info.title} mock`,
      owner_id: "sandbox",
      ...mockAccount(definition, {
        origin: mock.origin,
        baseUrl: `${mock.baseFor(pass)}${base.prefix}`,
        servers: Object.fromEntries(
          mockServerBases(definition.servers, contents).map((server) => [server.name, `${mock.baseFor(pass)}${server.base.prefix}`])
        )
      }, "sandbox")
    }
    yield* Console.log([
      `${definition.info.title} (${definition.info.key}@${definition.info.version}) mocked from ${chosen.documents.join(" and ")} at ${mock.origin}.`,
      `Start the server with SWITCHYARD_OUTBOUND_ALLOWLIST=${mock.origin.replace(/^http:\/\//, "")}, then link an account:`,
      "",
      `  curl -u "$KEY:" -X POST http://127.0.0.1:4000/v2/accounts -H 'content-type: application/json' \\`,
      `    -d '${JSON.stringify(account)}'`,
      "",
      "Every request the connector makes is printed below with what it broke of the document. Ctrl-C stops it."
    ].join("\n"))
    return yield* Effect.never
  }).pipe(Effect.scoped)).pipe(
    Command.withDescription(
      "Serves a mock of a built-in connector's provider from the provider's own OpenAPI document (vendored in the " +
        "repository) and prints the account that links the connector to it."
    )
  )
