import { FetchHttpClient, type HttpApi, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Api } from "@switchyard/api"
import { Config, Duration, Effect, identity, Redacted } from "effect"
import { hideCredentials } from "./hideCredentials.js"
import { defaultRetryPolicy, type RetryPolicy } from "./RetryPolicy.js"
import { retryTransient } from "./retryTransient.js"

export interface ClientOptions {
  /**
   * The API key; sent as the Basic auth username with an empty password. Omitted in a page served
   * by the Switchyard server itself (the dashboard): the browser's session cookie authenticates
   * instead, so no key is ever held by the page's script.
   */
  readonly apiKey?: Redacted.Redacted | string | undefined
  /** Where the server listens, e.g. `http://127.0.0.1:4000`; omit when the HttpClient already targets it. */
  readonly baseUrl?: URL | string | undefined
  /**
   * Retries of 429 and 408 answers to calls safe to repeat: GET, HEAD, PUT, DELETE, OPTIONS,
   * or any call with an `Idempotency-Key` (see `RetryPolicy`). Omitted, the bare derived client is
   * made, answering every status as it came; `SwitchyardClient` and `createSwitchyardClient`
   * retry by default.
   */
  readonly retry?: Partial<RetryPolicy> | undefined
}

type ApiGroups = typeof Api extends HttpApi.HttpApi<string, infer Groups, infer _E, infer _R> ? Groups : never
type ApiErrors = typeof Api extends HttpApi.HttpApi<string, infer _G, infer E, infer _R> ? E : never

/**
 * The typed client: a method per endpoint, by group (`client.unified_ats.ats_list_jobs`). An interface,
 * so that declarations name it rather than spell out every endpoint (more than the compiler writes).
 */
export interface Client extends HttpApiClient.Client<ApiGroups, ApiErrors, never> {}

/** The typed client derived from the shared `Api` definition, over the HttpClient in context. */
export const makeClient = (options: ClientOptions): Effect.Effect<Client, never, HttpClient.HttpClient> => {
  const apiKey = typeof options.apiKey === "string" ? Redacted.make(options.apiKey) : options.apiKey
  const authenticate = apiKey === undefined
    ? identity<HttpClient.HttpClient>
    : HttpClient.mapRequest((request) => HttpClientRequest.basicAuth(request, Redacted.value(apiKey), ""))
  const retry = options.retry === undefined ? identity : retryTransient({ ...defaultRetryPolicy, ...options.retry })
  return HttpApiClient.make(Api, {
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    transformClient: (client) =>
      authenticate(client).pipe(
        retry,
        // Transport errors arise here, unexpected statuses when the answer is decoded: both carry the request.
        HttpClient.transform((send) => Effect.mapError(send, hideCredentials))
      ),
    transformResponse: Effect.mapError(hideCredentials)
  })
}


const boundedInteger = (name: string, min: number, max: number, fallback: number) =>
  Config.integer(name).pipe(
    Config.validate({ message: `must be between ${min} and ${max}`, validation: (n) => n >= min && n <= max }),
    Config.withDefault(fallback)
  )

/** The client's settings; the key stays `Redacted`, so printing the config never shows it. */
export const SwitchyardClientConfig = Config.all({
  baseUrl: Config.url("SWITCHYARD_BASE_URL"),
  apiKey: Config.redacted("SWITCHYARD_API_KEY"),
  retry: Config.all({
    maxAttempts: boundedInteger("SWITCHYARD_RETRY_MAX_ATTEMPTS", 1, 10, defaultRetryPolicy.maxAttempts),
    maxDelay: boundedInteger(
      "SWITCHYARD_RETRY_MAX_DELAY_SECONDS",
      0,
      3600,
      Duration.toSeconds(defaultRetryPolicy.maxDelay)
    ).pipe(Config.map(Duration.seconds))
  })
})

/**
 * The client as a service, configured from `SWITCHYARD_BASE_URL` and `SWITCHYARD_API_KEY`
 * (plus the optional `SWITCHYARD_RETRY_MAX_ATTEMPTS`, default 4, and
 * `SWITCHYARD_RETRY_MAX_DELAY_SECONDS`, default 30). `SwitchyardClient.Default` sends with
 * `fetch`; `SwitchyardClient.DefaultWithoutDependencies` uses the `HttpClient` you provide.
 */
export class SwitchyardClient extends Effect.Service<SwitchyardClient>()("Switchyard/Client", {
  effect: Effect.flatMap(SwitchyardClientConfig, makeClient),
  dependencies: [FetchHttpClient.layer]
}) {}
