import { Duration, Effect, Either } from "effect"
import type { ActionPlan } from "./actionPlan.js"
import { planConnector } from "./actionPlan.js"
import type { ActionDefinition } from "./ConnectorDefinition.js"
import { credentialSecrets } from "./credentialSecrets.js"
import type { ParsedConnector } from "./parseConnector.js"
import { type ProviderRequest, type ProviderResponse, ProviderTransport, ProviderTransportError } from "./ProviderTransport.js"
import { redactText, redactValue } from "./redact.js"
import { authorization } from "./run/auth/resolveAuth.js"
import { baseUrlOf } from "./run/http/providerUrls.js"
import { sendRequest } from "./run/http/sendRequest.js"
import { failureLeavingRun } from "./run/failureLeavingRun.js"
import { type RunContext, resolveLimits } from "./run/RunLimits.js"
import { RunSecrets } from "./run/RunSecrets.js"
import { RunState } from "./run/RunState.js"
import { ABSOLUTE_URL } from "./run/wireValues.js"
import { type ActionError, ActionDefinitionError, ActionInputError, ActionLimitError } from "./RunErrors.js"

/*
 * A caller's own request to the account's provider (the unified proxy), sent like a
 * connector's `request` step: the connector's base URL and authentication (with its 401
 * token renewal), the run's secrets and deadline. The caller chooses method, path, headers
 * and body, but never where the account's credentials go: only under the base URL.
 */

export const PROXY_ACTION_ID = "proxy"

export interface ProxyCall {
  readonly method: ProviderRequest["method"]
  /** Absolute URL on the connector's base URL (its origin and path); default the base URL. */
  readonly url?: string | undefined
  /** Appended to `url` (or the base URL), query included. */
  readonly path?: string | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** JSON value; a string is sent as text unless `content-type` says otherwise. */
  readonly body?: unknown
}

/** Headers a caller may not set: the transport's own, and what would impersonate the account or another host. */
const refusedHeaders = new Set([
  "host",
  "content-length",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "expect",
  "authorization",
  "proxy-authorization",
  "cookie",
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto"
])

/**
 * Provider answer headers never passed on: credentials and cookies (the account's session is
 * not the caller's), and those describing the provider's encoding of a body we re-encode.
 */
const droppedAnswerHeaders = new Set([
  "set-cookie",
  "set-cookie2",
  "cookie",
  "authorization",
  "proxy-authorization",
  "www-authenticate",
  "proxy-authenticate",
  "authentication-info",
  "proxy-authentication-info",
  "x-api-key",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "content-encoding",
  "trailer",
  "upgrade"
])

/** The provider's answer headers a caller may see, lower-cased, with any secret value redacted. */
const answerHeaders = (headers: Readonly<Record<string, string>>, forms: ReadonlyArray<string>) => {
  const kept: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase()
    if (!droppedAnswerHeaders.has(lower)) kept[lower] = redactText(value, forms)
  }
  return kept
}

const proxyAction = {
  actionId: PROXY_ACTION_ID,
  label: "Proxy request",
  actionType: "custom",
  steps: []
} as unknown as ActionDefinition

const proxyPlan: ActionPlan = {
  action: proxyAction,
  path: "proxy",
  steps: [],
  resultData: undefined,
  resultNext: undefined,
  isList: false,
  declaresCursor: false
}

/** RFC 9110 field names (tokens) and values (visible characters, spaces and tabs). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
// eslint-disable-next-line no-control-regex
const HEADER_VALUE = /^[^\u0000-\u0008\u000a-\u001f\u007f]*$/

const refuse = (input: "url" | "path" | "method" | "body" | "headers", message: string) =>
  Either.left(ActionInputError.fromIssues([{ input, message }]))

/** Decodes percent escapes until nothing changes (double encoding), bounded; undefined when malformed. */
const fullyDecoded = (text: string): string | undefined => {
  let current = text
  for (let round = 0; round < 4; round++) {
    let next: string
    try {
      next = decodeURIComponent(current)
    } catch {
      return undefined
    }
    if (next === current) return current
    current = next
  }
  return current
}

/**
 * What is wrong with a caller's URL or path text, if anything: characters that parsers
 * disagree on (backslashes, controls, spaces) and dot segments or slashes in any encoding,
 * which could climb out of the base path once some server along the way decodes them.
 */
const unsafeText = (text: string): string | undefined => {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f\\]/.test(text)) return "contains a backslash, a space or a control character"
  const pathPart = text.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, "").split(/[?#]/, 1)[0]!
  const decoded = fullyDecoded(pathPart)
  if (decoded === undefined) return "has a malformed percent escape"
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(decoded)) return "contains an encoded backslash or control character"
  const rawSegments = pathPart.split("/")
  for (const segment of rawSegments) {
    const plain = fullyDecoded(segment) ?? segment
    if (plain === "." || plain === "..") return "contains a '.' or '..' segment (in any encoding)"
    if (plain.includes("/")) return "contains an encoded '/'"
  }
  return undefined
}

/** The base path as a prefix: `/v1` and `/v1/` both admit `/v1` and `/v1/...`, not `/v10`. */
const underBase = (url: URL, base: URL) => {
  const prefix = base.pathname.replace(/\/+$/, "")
  return url.pathname === prefix || url.pathname.startsWith(`${prefix}/`) || prefix === ""
}

/** The absolute URL the call targets, or why it may not be sent with the account's credentials. */
export const proxyTarget = (base: string, call: Pick<ProxyCall, "url" | "path">): Either.Either<URL, ActionInputError> => {
  const baseUrl = new URL(base)
  let start = base
  if (call.url !== undefined) {
    const why = unsafeText(call.url)
    if (why !== undefined) return refuse("url", why)
    if (!ABSOLUTE_URL.test(call.url)) return refuse("url", "must be an absolute URL (use path for a relative one)")
    let given: URL
    try {
      given = new URL(call.url)
    } catch {
      return refuse("url", "is not a valid URL")
    }
    if (given.username !== "" || given.password !== "") return refuse("url", "may not carry user information")
    if (given.origin !== baseUrl.origin) {
      return refuse("url", `points at ${given.origin}, not the connector's base URL ${baseUrl.origin}; refusing to send the account's credentials there`)
    }
    if (!underBase(given, baseUrl)) return refuse("url", `is outside the connector's base path ${baseUrl.pathname}`)
    start = call.url
  }
  let text = start
  if (call.path !== undefined && call.path !== "") {
    const why = unsafeText(call.path)
    if (why !== undefined) return refuse("path", why)
    if (ABSOLUTE_URL.test(call.path) || call.path.startsWith("//")) {
      return refuse("path", "must be a path relative to the base URL, not a URL (use url for an absolute one)")
    }
    const trimmed = start.replace(/[?#].*$/, "").replace(/\/+$/, "")
    text = call.path.startsWith("/") || call.path.startsWith("?") ? trimmed + call.path : `${trimmed}/${call.path}`
  }
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return refuse(call.path === undefined ? "url" : "path", "does not make a valid URL")
  }
  // the parsed form is checked again: whatever the text looked like, this is where the request goes
  if (url.origin !== baseUrl.origin || !underBase(url, baseUrl)) {
    return refuse(call.path === undefined ? "url" : "path", `leads outside the connector's base URL ${baseUrl.origin}${baseUrl.pathname}`)
  }
  url.hash = ""
  return Either.right(url)
}

const bodyOf = (call: ProxyCall, headers: Record<string, string>): Either.Either<ProviderRequest["body"], ActionInputError> => {
  if (call.body === undefined || call.body === null) return Either.right(undefined)
  if (call.method === "GET" || call.method === "HEAD") return refuse("body", `is not allowed with ${call.method}`)
  if (typeof call.body === "string") {
    const contentType = headers["content-type"] ?? "text/plain; charset=utf-8"
    return Either.right({ _tag: "Bytes", value: new TextEncoder().encode(call.body), contentType })
  }
  return Either.right({ _tag: "Json", value: call.body })
}

/**
 * Sends one proxy call for an account: the target checked against the connector's base URL
 * (`ActionInputError` on `url`/`path` otherwise), the caller's headers stripped of those the
 * account's authentication or the transport own, the authentication applied as the
 * connector defines it. Any status is answered (the provider's 429/5xx and timeouts fail as
 * the transport decides); failures are redacted of the account's secrets. A failure of the
 * caller's hooks (`E`, see `ForeignFailure`) fails the call as it is.
 */
export const sendProxyRequest = <E = never>(
  parsed: ParsedConnector,
  call: ProxyCall,
  context: RunContext<E>
): Effect.Effect<ProviderResponse, ActionError | E, ProviderTransport> => {
  const limits = resolveLimits(context.limits)
  const secrets = new RunSecrets(credentialSecrets(parsed, context.credentials))
  return Effect.gen(function*() {
    const transport = yield* ProviderTransport
    const run = new RunState(parsed, planConnector(parsed), proxyPlan, {}, context, limits, transport, secrets)
    const base = baseUrlOf(run)
    if (base === undefined || !URL.canParse(base)) {
      return yield* new ActionDefinitionError({
        message: `connector "${parsed.definition.info.key}" has no usable baseUrl to proxy to`,
        actionId: PROXY_ACTION_ID
      })
    }
    const url = yield* proxyTarget(base, call)
    const auth = yield* authorization(run)
    const authHeaders = new Set(Object.keys(auth.headers).map((name) => name.toLowerCase()))
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(call.headers ?? {})) {
      // what HTTP cannot carry is the caller's mistake, not a provider failure once sending fails
      if (!HEADER_NAME.test(name)) return yield* refuse("headers", `has a name that is not an HTTP header name: ${JSON.stringify(name.slice(0, 60))}`)
      if (!HEADER_VALUE.test(value)) return yield* refuse("headers", `${name} has a line break or control character in its value`)
      const lower = name.toLowerCase()
      if (!refusedHeaders.has(lower) && !authHeaders.has(lower) && !lower.startsWith("proxy-")) headers[lower] = value
    }
    // the account's credentials in the query are the connector's to set, not the caller's
    for (const [name] of auth.query) url.searchParams.delete(name)
    const body = yield* bodyOf(call, headers)
    const response = yield* sendRequest(run, undefined, { method: call.method, url, headers, body })
    const forms = secrets.textForms()
    const redactedUrl = redactText(url.toString(), forms)
    // as for actions: the provider's 429 is a 429 and its 5xx a 502 (after the transport's
    // retries); other answers, 4xx included, are the caller's to read
    if (response.status === 429 || response.status >= 500) {
      const retryAfter = Number(response.headers["retry-after"])
      return yield* new ProviderTransportError({
        reason: response.status === 429 ? "rate_limited" : "unavailable",
        message: `${parsed.definition.info.key} answered ${response.status}`,
        url: redactedUrl,
        ...(Number.isInteger(retryAfter) && retryAfter >= 0 ? { retryAfter } : {}),
        response: { status: response.status, headers: answerHeaders(response.headers, forms), body: redactValue(response.body, forms) }
      })
    }
    return {
      status: response.status,
      headers: answerHeaders(response.headers, forms),
      body: redactValue(response.body, forms)
    } satisfies ProviderResponse
  }).pipe(
    Effect.timeoutFail({
      duration: Duration.millis(limits.stepTimeoutMs),
      onTimeout: () =>
        new ActionLimitError({
          limit: "stepTimeout",
          message: `the proxy request took longer than ${limits.stepTimeoutMs} ms (stepTimeoutMs)`
        })
    }),
    Effect.mapError((failure) => failureLeavingRun<E>(failure, secrets))
  )
}
