import { Effect } from "effect"
import * as oauth from "oauth4webapi"
import { ProviderTransport } from "../ProviderTransport.js"
import { type OAuth2Error, oauth2Error } from "./OAuth2Error.js"
import { TransportFailure, transportFetch } from "./transportFetch.js"

/** What oauth4webapi's request functions take: our fetch, the interruption signal, http only where asked. */
export type RequestOptions = oauth.TokenEndpointRequestOptions

/**
 * Runs an oauth4webapi exchange (`f`) with its requests going over the `ProviderTransport` in
 * context; interrupting the effect aborts them. Whatever oauth4webapi or the transport throws
 * becomes an `OAuth2Error` (`what` says which exchange, e.g. "exchanging the authorization
 * code"), with `secrets` redacted; anything else thrown is a defect.
 *
 * `allowInsecureRequests` is set for an http: endpoint only: which hosts may be reached is the
 * transport's outbound policy's decision, not the scheme's.
 */
export const callAuthorizationServer = <A>(
  what: string,
  endpoint: string,
  secrets: ReadonlyArray<string | undefined>,
  f: (options: RequestOptions) => Promise<A>
): Effect.Effect<A, OAuth2Error, ProviderTransport> =>
  Effect.gen(function*() {
    const transport = yield* ProviderTransport
    const runtime = yield* Effect.runtime<never>()
    const known = secrets.filter((secret): secret is string => secret !== undefined && secret !== "")
    const outcome = yield* Effect.promise(async (signal) => {
      const options: RequestOptions = {
        signal,
        [oauth.customFetch]: transportFetch(transport, runtime, known),
        ...(new URL(endpoint).protocol === "http:" ? { [oauth.allowInsecureRequests]: true } : {})
      }
      try {
        return { ok: true as const, value: await f(options) }
      } catch (error) {
        const failure = await describeFailure(error, what, endpoint)
        if (failure === undefined) throw error
        return { ok: false as const, failure }
      }
    })
    if (outcome.ok) return outcome.value
    return yield* Effect.fail(oauth2Error(outcome.failure, known))
  })

type Described = ConstructorParameters<typeof OAuth2Error>[0]

const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined)

/** `error: description` for messages. */
const errorText = (error: string | undefined, description: string | undefined): string =>
  error === undefined ? "" : description === undefined ? `: ${error}` : `: ${error} (${description})`

/** An RFC 6749 §5.2 error answer: `invalid_grant` is its own kind. */
const tokenEndpointError = (
  what: string,
  endpoint: string,
  status: number,
  error: string | undefined,
  description: string | undefined
): Described => ({
  kind: error === "invalid_grant" ? "invalid_grant" : "provider_error",
  message: `${what}: the token endpoint ${hostOf(endpoint)} answered ${status}${errorText(error, description)}`,
  error,
  description,
  status
})

const hostOf = (endpoint: string): string => {
  const url = new URL(endpoint)
  return `${url.origin}${url.pathname}`
}

/** A JSON body's `error` and `error_description`, when it has them (the body may be read once). */
const errorBody = async (response: Response): Promise<{ error?: string; description?: string }> => {
  try {
    const body: unknown = await response.json()
    if (typeof body !== "object" || body === null) return {}
    const record = body as Record<string, unknown>
    const error = text(record.error)
    const description = text(record.error_description)
    return { ...(error === undefined ? {} : { error }), ...(description === undefined ? {} : { description }) }
  } catch {
    return {}
  }
}

const describeFailure = async (error: unknown, what: string, endpoint: string): Promise<Described | undefined> => {
  if (error instanceof TransportFailure) {
    const failure = error.failure
    return {
      kind: "unreachable",
      message: `${what}: no usable answer from the token endpoint ${hostOf(endpoint)} (${failure.reason}: ${failure.message})`
    }
  }
  if (error instanceof oauth.AuthorizationResponseError) {
    const description = text(error.error_description)
    return {
      kind: "provider_error",
      message: `the provider refused the authorization${errorText(error.error, description)}`,
      error: error.error,
      description
    }
  }
  if (error instanceof oauth.ResponseBodyError) {
    return tokenEndpointError(what, endpoint, error.status, error.error, text(error.error_description))
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    // a 401 with a challenge (client authentication failed): the body usually says more
    const body = await errorBody(error.response)
    const challenged = error.cause.find((challenge) => typeof challenge.parameters.error === "string")?.parameters
    return tokenEndpointError(what, endpoint, error.status, body.error ?? challenged?.error, body.description ?? challenged?.error_description)
  }
  if (error instanceof oauth.OperationProcessingError) {
    // a non-200 answer that is no OAuth 2.0 error (HTML, an empty body, a redirect)
    const response = error.cause instanceof Response ? error.cause : undefined
    if (response !== undefined && response.status !== 200) {
      return tokenEndpointError(what, endpoint, response.status, undefined, undefined)
    }
    return { kind: "invalid_response", message: `${what}: the provider's answer is not valid OAuth 2.0: ${error.message}` }
  }
  if (error instanceof oauth.UnsupportedOperationError) {
    return { kind: "invalid_response", message: `${what}: the provider's answer is not supported: ${error.message}` }
  }
  return undefined
}
