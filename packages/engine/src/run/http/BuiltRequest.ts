import type { ProviderRequest } from "../../ProviderTransport.js"

/** A request as a step built it, before authentication is applied. */
export interface BuiltRequest {
  readonly method: ProviderRequest["method"]
  readonly url: URL
  readonly headers: Record<string, string>
  readonly body: ProviderRequest["body"]
  readonly responseType?: ProviderRequest["responseType"]
  /** Sent without the connector's authentication (a file on another host, e.g. a pre-signed link). */
  readonly bare?: boolean
  /** Sent without the connector's authentication to a server it declares public (`authentication: none`). */
  readonly withoutAuthentication?: boolean
}
