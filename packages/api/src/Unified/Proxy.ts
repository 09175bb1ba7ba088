import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authentication } from "../Authentication.js"
import { PreconditionFailedBody } from "../Errors.js"
import { strictObject } from "../Params.js"
import { UnifiedHeaders } from "./common/headers.js"

/*
 * The unified proxy (StackOne's `POST /unified/proxy`): a request of the caller's own to the
 * account's provider, with the account's authentication, under the connector's base URL.
 */

/** Largest `body` a proxy request may carry, as JSON text. */
export const MAX_PROXY_BODY_BYTES = 1024 * 1024

export const PROXY_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const

/** StackOne writes methods in lower case (`get`); either case is accepted, the server sees upper case. */
export const ProxyMethod = Schema.transform(
  Schema.String.pipe(Schema.filter((method) =>
    (PROXY_METHODS as ReadonlyArray<string>).includes(method.toUpperCase()) ||
    `method must be one of ${PROXY_METHODS.map((m) => m.toLowerCase()).join(", ")}`
  )),
  Schema.Literal(...PROXY_METHODS),
  { strict: false, decode: (method) => method.toUpperCase(), encode: (method) => method.toLowerCase() }
).annotations({
  jsonSchema: { type: "string", enum: PROXY_METHODS.map((m) => m.toLowerCase()), description: "Default get; either case" }
})

const proxyText = (description: string) =>
  Schema.String.pipe(Schema.minLength(1), Schema.maxLength(4096)).annotations({ description })

const jsonSize = (value: unknown) => {
  try {
    return new TextEncoder().encode(JSON.stringify(value) ?? "").length
  } catch {
    return Number.POSITIVE_INFINITY
  }
}

/** StackOne's ProxyRequestBody: `url` and `path` together say where; neither may leave the connector's base URL. */
export const ProxyRequest = Schema.Struct({
  url: Schema.optional(proxyText(
    "Absolute URL under the connector's base URL (same origin and base path); default the base URL"
  )),
  path: Schema.optional(proxyText("Path (and query) appended to url, or to the connector's base URL")),
  method: Schema.optional(ProxyMethod),
  headers: Schema.optional(
    Schema.Record({ key: Schema.String, value: Schema.String.pipe(Schema.maxLength(8192)) }).pipe(
      Schema.filter((headers) => Object.keys(headers).length <= 100 || "headers may hold at most 100 entries")
    ).annotations({
      description:
        "Sent to the provider; authentication, cookie, host and hop-by-hop headers are dropped (the account's authentication is the connector's)"
    })
  ),
  body: Schema.optional(
    Schema.Unknown.pipe(Schema.filter((body) =>
      jsonSize(body) <= MAX_PROXY_BODY_BYTES || `body may be at most ${MAX_PROXY_BODY_BYTES} bytes as JSON`
    )).annotations({ description: "JSON sent as the request body; a string is sent as text (with the content-type header given)" })
  )
}).annotations({ identifier: "ProxyRequestBody", ...strictObject })
export type ProxyRequest = typeof ProxyRequest.Type

/**
 * The provider's answer. StackOne's reference documents no proxy answer; an envelope keeps
 * the endpoint's own statuses (and the derived client's typed errors) apart from the
 * provider's: a provider 2xx-4xx is a 200 here carrying its status, headers (credentials and
 * cookies removed) and body (JSON parsed, else text); its 429 and 5xx answer 429 and 502,
 * and our deadline 408, as for unified operations.
 */
export const ProxyResponse = Schema.Struct({
  status: Schema.Int.annotations({ description: "The provider's HTTP status" }),
  headers: Schema.Record({ key: Schema.String, value: Schema.String }).annotations({
    description: "The provider's answer headers, lower-cased, without authentication, cookie and hop-by-hop headers"
  }),
  body: Schema.Unknown.annotations({ description: "The provider's body: parsed JSON, text, or null when empty" })
}).annotations({ identifier: "ProxyResponse" })
export type ProxyResponse = typeof ProxyResponse.Type

export class UnifiedProxyGroup extends HttpApiGroup.make("unified_proxy")
  .add(
    HttpApiEndpoint.post("proxy_request", "/unified/proxy")
      .setHeaders(UnifiedHeaders)
      .setPayload(ProxyRequest)
      .addSuccess(ProxyResponse)
      .annotate(OpenApi.Summary, "Proxy a request to the account's provider")
      .annotate(
        OpenApi.Description,
        "Sends the request to the provider of the account in x-account-id with the account's authentication, through the same retries, rate limits and request log as unified operations. url and path must stay under the connector's base URL (400 otherwise)."
      )
  )
  .addError(PreconditionFailedBody)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Unified proxy: the provider's own API with the account's authentication")
{}
