/*
 * The framework anchor: the hand-written proxy (handWrittenProxy.mjs) written again on
 * Switchyard's own stack, as a user of the design card would write it: one Effect `HttpApi`
 * with a typed GET per operation, an authentication middleware, served by `NodeHttpServer`,
 * the provider called with the global fetch as the hand-written proxy calls it, the same
 * mapping (mapApplication.mjs). (Through the platform's `HttpClient` instead, it answered about
 * 0.57× the hand-written proxy's lists at 50 clients rather than 0.66×: an anchor that slow would
 * flatter Switchyard.) Switchyard ÷ this proxy is what Switchyard adds on top of its
 * framework; this proxy ÷ the hand-written one is what the framework costs.
 *
 * Run: node --import tsx bench/effectProxy.ts <port> <providerBaseUrl> <providerApiKey>.
 * Prints "listening <port>" once it accepts.
 */
import {
  HttpApi,
  HttpApiBuilder,
  HttpApiEndpoint,
  HttpApiError,
  HttpApiGroup,
  HttpApiMiddleware,
  HttpApiSchema,
  HttpApiSecurity,
  HttpServer
} from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Context, Effect, Layer, Schema } from "effect"
import { createServer } from "node:http"
import { mapApplication } from "./mapApplication.mjs"

const [portArgument, baseUrl, apiKey] = process.argv.slice(2)
if (portArgument === undefined || baseUrl === undefined || apiKey === undefined) {
  console.error("usage: node --import tsx bench/effectProxy.ts <port> <providerBaseUrl> <providerApiKey>")
  process.exit(2)
}

/** A unified application as the mapping writes it. */
const Application = Schema.Record({ key: Schema.String, value: Schema.Unknown })

class BadGateway extends Schema.TaggedError<BadGateway>()("BadGateway", { error: Schema.String }, HttpApiSchema.annotations({ status: 502 })) {}

class Caller extends Context.Tag("Bench/Caller")<Caller, string>() {}

/** Like the hand-written proxy's check: a caller is named (a real proxy would compare a key). */
class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Bench/Authentication", {
  failure: HttpApiError.Unauthorized,
  provides: Caller,
  security: { basic: HttpApiSecurity.basic }
}) {}

class Applications extends HttpApiGroup.make("applications")
  .add(
    HttpApiEndpoint.get("list", "/applications")
      .setUrlParams(Schema.Struct({ page_size: Schema.optional(Schema.NumberFromString), next: Schema.optional(Schema.NumberFromString) }))
      .addSuccess(Schema.Struct({ data: Schema.Array(Application), next: Schema.NullOr(Schema.String) }))
  )
  .add(
    HttpApiEndpoint.get("get")`/applications/${HttpApiSchema.param("id", Schema.String)}`
      .addSuccess(Schema.Struct({ data: Application }))
      .addError(HttpApiError.NotFound)
  )
  .addError(BadGateway)
  .middleware(Authentication)
{}

class ProxyApi extends HttpApi.make("proxy").add(Applications) {}

const AuthenticationLive = Layer.succeed(
  Authentication,
  Authentication.of({
    basic: (credential) => credential.username.length > 0 ? Effect.succeed(credential.username) : new HttpApiError.Unauthorized()
  })
)

const providerAuth = `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`

/** The provider's answer through the global fetch, as the hand-written proxy calls it. */
const provider = (path: string) =>
  Effect.tryPromise({
    try: async (signal) => {
      const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: providerAuth, accept: "application/json" }, signal })
      return { response, body: await response.json() as unknown }
    },
    catch: (error) => new BadGateway({ error: String(error) })
  })

const ApplicationsLive = HttpApiBuilder.group(ProxyApi, "applications", (handlers) =>
  handlers
    .handle("list", ({ urlParams }) =>
      Effect.gen(function*() {
        const page = urlParams.next ?? 1
        const { response, body } = yield* provider(`/applications?per_page=${urlParams.page_size ?? 25}&page=${page}`)
        if (!response.ok) return yield* new BadGateway({ error: `provider answered ${response.status}` })
        const next = (response.headers.get("link") ?? "").includes("rel=\"next\"") ? String(page + 1) : null
        return { data: (body as ReadonlyArray<Record<string, unknown>>).map(mapApplication), next }
      }))
    .handle("get", ({ path }) =>
      Effect.gen(function*() {
        const { response, body } = yield* provider(`/applications/${encodeURIComponent(path.id)}`)
        if (response.status === 404) return yield* new HttpApiError.NotFound()
        if (!response.ok) return yield* new BadGateway({ error: `provider answered ${response.status}` })
        return { data: mapApplication(body as Record<string, unknown>) }
      }))
)

const port = Number(portArgument)

/** The line the benchmark waits for, once the server accepts connections. */
const AnnounceListening = Layer.effectDiscard(
  Effect.flatMap(HttpServer.HttpServer, (server) =>
    Effect.sync(() => console.log(`listening ${(server.address as HttpServer.TcpAddress).port}`)))
)

const ServerLive = Layer.mergeAll(HttpApiBuilder.serve(), AnnounceListening).pipe(
  Layer.provide(HttpApiBuilder.api(ProxyApi).pipe(Layer.provide(ApplicationsLive), Layer.provide(AuthenticationLive))),
  Layer.provide(NodeHttpServer.layer(createServer, { port, host: "127.0.0.1" }))
)

Layer.launch(ServerLive).pipe(NodeRuntime.runMain)
