import { Command, Options } from "@effect/cli"
import { Console, Effect } from "effect"
import { readProviderDocument } from "../contractCheck/ProviderDocument.js"
import { type MockExchange, startProviderMock } from "../contractCheck/ProviderMock.js"

/*
 * `switchyard connectors mock --openapi <document>... [--port 4010]`: the contract check's mock of
 * a provider, left running, so that a connector being written can be linked to it and tried
 * through a running server. Every request is printed with what it broke.
 */

const describe = (exchange: MockExchange) =>
  [
    `${exchange.violations.length === 0 ? "✓" : "✗"} ${exchange.method} ${exchange.path} → ${exchange.status}`,
    ...exchange.violations.map((violation) => `    ${violation.location}: ${violation.message}`)
  ].join("\n")

export const mockCommand = Command.make("mock", {
  openapi: Options.file("openapi", { exists: "yes" }).pipe(
    Options.withPseudoName("document"),
    Options.atLeast(1),
    Options.withDescription(
      "The provider's OpenAPI 3.x or Swagger 2.0 document (YAML or JSON); repeat it to serve several documents of one " +
        "provider together, each request held to the document that has its path."
    )
  ),
  port: Options.integer("port").pipe(
    Options.withDefault(4010),
    Options.withDescription("The port to listen on, on 127.0.0.1 (default 4010; 0 for a free one).")
  )
}, ({ openapi, port }) =>
  Effect.gen(function*() {
    const documents = yield* Effect.forEach(openapi, readProviderDocument)
    const mock = yield* startProviderMock(documents.map((document) => document.content), {
      port,
      onExchange: (exchange) => console.log(describe(exchange))
    })
    yield* Console.log(
      `mock of ${openapi.join(" and ")} at ${mock.origin}: point an account's base_url at ${mock.origin}/full-1 followed by the ` +
        "connector's path after the document's server (full-<seed> answers every optional property, sparse-<seed> " +
        "half of them); the server needs SWITCHYARD_OUTBOUND_ALLOWLIST to include " +
        `${mock.origin.replace(/^http:\/\//, "")}. Ctrl-C stops it.`
    )
    return yield* Effect.never
  }).pipe(Effect.scoped)).pipe(
    Command.withDescription(
      "Serves a Stoplight Prism mock of a provider's OpenAPI document, with the checks `connectors check` uses, and " +
        "prints every request with what it broke, until stopped."
    )
  )
