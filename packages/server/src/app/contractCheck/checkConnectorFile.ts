import { HttpApiBuilder, HttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { parseConnector } from "@switchyard/engine"
import { Data, Effect, Either, Layer } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs/promises"
import { ephemeralServerConfig, SwitchyardConfig } from "../../platform/Config.js"
import { NodeServerLive } from "../NodeServer.js"
import { OutboundHttp } from "../../platform/outboundHttp/OutboundHttp.js"
import { AppLive } from "../Server.js"
import { SqlLive } from "../../platform/database/Sql.js"
import { TracingLive } from "../../platform/tracing/Tracing.js"
import { runContractCheck } from "./ContractCheck.js"
import { readProviderDocument } from "./ProviderDocument.js"
import { startProviderMock } from "./ProviderMock.js"

/*
 * `switchyard connectors check <yaml> --openapi <document>...`: a connector file checked against
 * a provider's document (or documents) without a running server or a database to set up. The check gets a
 * Switchyard server of its own, in this process, on an in-memory embedded database and a
 * loopback port, configured here and not from the environment (so it never touches the
 * database DATABASE_URL names); the file is registered there as a custom connector, exactly
 * as a user would upload it, and runContractCheck runs it against the Prism mock.
 */

export class ConnectorFileRejected extends Data.TaggedError("ConnectorFileRejected")<{ readonly message: string }> {}

/** The check server's own settings: nothing comes from the environment. */
const checkServerConfig = (apiKey: string) =>
  ephemeralServerConfig(apiKey, {
    // the mock listens on loopback, which the outbound guard refuses unless allowed
    SWITCHYARD_OUTBOUND_ALLOWLIST: "127.0.0.1",
    LOG_LEVEL: "ERROR"
  })

/** The server on a free loopback port, with an HttpClient that targets it. */
const CheckServer = (apiKey: string) =>
  HttpApiBuilder.serve().pipe(
    Layer.provide(AppLive),
    Layer.provideMerge(OutboundHttp.Default),
    Layer.provideMerge(
      HttpServer.layerTestClient.pipe(
        Layer.provide(NodeHttpClient.layerWithoutAgent),
        Layer.provide(NodeHttpClient.makeAgentLayer({ keepAlive: false })),
        Layer.provideMerge(NodeServerLive({ port: 0, host: "127.0.0.1" }))
      )
    ),
    Layer.provide(TracingLive),
    Layer.provideMerge(SqlLive),
    Layer.provideMerge(SwitchyardConfig.Default),
    Layer.provide(Layer.setConfigProvider(checkServerConfig(apiKey)))
  )

export interface CheckConnectorFileOptions {
  readonly connectorFile: string
  /** The provider's documents: usually one; several where the provider splits its API (they are mocked together). */
  readonly documentFiles: ReadonlyArray<string>
  readonly seeds: ReadonlyArray<string>
}

/** Reads, registers and checks a connector file against its provider's documents; the report says what passed. */
export const checkConnectorFile = (options: CheckConnectorFileOptions) =>
  Effect.gen(function*() {
    const yaml = yield* Effect.tryPromise({
      try: () => Fs.readFile(options.connectorFile, "utf8"),
      catch: (cause) =>
        new ConnectorFileRejected({
          message: `${options.connectorFile} cannot be read (${cause instanceof Error ? cause.message : String(cause)})`
        })
    })
    const parsed = parseConnector(yaml)
    if (Either.isLeft(parsed)) {
      return yield* new ConnectorFileRejected({ message: `${options.connectorFile}: ${parsed.left.message}` })
    }
    const documents = yield* Effect.forEach(options.documentFiles, readProviderDocument)
    const mock = yield* startProviderMock(documents.map((document) => document.content))
    const apiKey = `swy_check_${Crypto.randomBytes(16).toString("hex")}`
    return yield* Effect.gen(function*() {
      const client = yield* HttpClient.HttpClient
      const registered = yield* HttpClientRequest.post("/v2/connectors").pipe(
        HttpClientRequest.setHeader("authorization", `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`),
        HttpClientRequest.bodyJson({ yaml, force: true }),
        Effect.flatMap(client.execute),
        Effect.flatMap((response) => Effect.map(response.json, (body) => ({ status: response.status, body }))),
        Effect.scoped,
        Effect.orDie
      )
      if (registered.status >= 300) {
        const message = (registered.body as { message?: unknown } | null)?.message
        return yield* new ConnectorFileRejected({
          message: `${options.connectorFile} was refused by the server (${registered.status}): ${String(message ?? JSON.stringify(registered.body))}`
        })
      }
      return yield* runContractCheck({
        connector: parsed.right.definition,
        documents: documents.map((document) => document.content),
        mock,
        seeds: options.seeds,
        apiKey
      })
    }).pipe(Effect.provide(CheckServer(apiKey)))
  }).pipe(Effect.scoped)
