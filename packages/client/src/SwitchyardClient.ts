import { HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Api } from "@switchyard/api"
import { Config, Effect, Redacted } from "effect"

export interface ClientOptions {
  /** The API key; sent as the Basic auth username with an empty password. */
  readonly apiKey: Redacted.Redacted | string
  /** Where the server listens, e.g. `http://127.0.0.1:4000`; omit when the HttpClient already targets it. */
  readonly baseUrl?: string | undefined
}

/** The typed client derived from the shared `Api` definition. */
export const makeClient = (options: ClientOptions) => {
  const key = typeof options.apiKey === "string" ? options.apiKey : Redacted.value(options.apiKey)
  return HttpApiClient.make(Api, {
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    transformClient: HttpClient.mapRequest(HttpClientRequest.basicAuth(key, ""))
  })
}

export type Client = Effect.Effect.Success<ReturnType<typeof makeClient>>

/** The client as a service, configured from `SWITCHYARD_BASE_URL` and `SWITCHYARD_API_KEY`. */
export class SwitchyardClient extends Effect.Service<SwitchyardClient>()("Switchyard/Client", {
  effect: Effect.gen(function*() {
    const baseUrl = yield* Config.string("SWITCHYARD_BASE_URL")
    const apiKey = yield* Config.redacted("SWITCHYARD_API_KEY")
    return yield* makeClient({ apiKey, baseUrl })
  })
}) {}
