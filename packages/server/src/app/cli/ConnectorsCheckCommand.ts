import { Args, Command, Options } from "@effect/cli"
import { Console, Effect } from "effect"
import { checkConnectorFile } from "../contractCheck/checkConnectorFile.js"
import { reportPassed } from "../contractCheck/ContractCheck.js"
import { formatContractReport } from "../contractCheck/formatContractReport.js"
import { UsageError } from "./Support.js"

/*
 * `switchyard connectors check <connector.yaml> --openapi <document>...`: the contract check of
 * the test suite on any connector file. It prints one line per action and pass (requests
 * valid, answer mapped, unified fields left unmapped) and exits 1 when the connector breaks the
 * document. It needs Stoplight Prism (@stoplight/prism-http) installed beside Switchyard, as
 * it is in a clone of the repository.
 */

const SEED = /^[A-Za-z0-9_]{1,40}$/

export const checkCommand = Command.make("check", {
  connector: Args.file({ name: "connector.yaml", exists: "yes" }).pipe(
    Args.withDescription("The connector file to check (one self-contained YAML document).")
  ),
  openapi: Options.file("openapi", { exists: "yes" }).pipe(
    Options.withPseudoName("document"),
    Options.atLeast(1),
    Options.withDescription(
      "The provider's OpenAPI 3.x or Swagger 2.0 document (YAML or JSON). Repeat it for a provider that publishes its " +
        "API in several documents on one server (SAP SuccessFactors): the mock serves them together and holds each " +
        "request to the document that has its path."
    )
  ),
  seeds: Options.text("seed").pipe(
    Options.repeated,
    Options.withDescription(
      "A seed for the mock's generated answers (repeatable; default 1 and 2); each seed runs with full and with sparse answers."
    )
  )
}, ({ connector, openapi, seeds }) =>
  Effect.gen(function*() {
    const invalid = seeds.filter((seed) => !SEED.test(seed))
    if (invalid.length > 0) {
      return yield* new UsageError({ message: `--seed takes letters, digits and _ (up to 40): ${invalid.join(", ")}` })
    }
    const report = yield* checkConnectorFile({
      connectorFile: connector,
      documentFiles: openapi,
      seeds: seeds.length === 0 ? ["1", "2"] : seeds
    })
    yield* Console.log(formatContractReport(report))
    if (!reportPassed(report)) {
      yield* Effect.sync(() => {
        process.exitCode = 1
      })
    }
  })).pipe(
    Command.withDescription(
      "Checks a connector against its provider's OpenAPI document (or documents): every action runs through a Switchyard server of " +
        "its own (in memory) against a Stoplight Prism mock of the document, and each line says whether its requests " +
        "were valid, whether its answer mapped to the unified model, and which unified fields stayed unmapped. Exits 1 " +
        "when a request breaks the document or an answer does not map."
    )
  )
