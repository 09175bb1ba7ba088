import type * as Http from "node:http"
import { parseBody } from "./requestBody.js"

/** One request as handlers see it. */
export interface Ctx {
  readonly req: Http.IncomingMessage
  readonly res: Http.ServerResponse
  readonly method: string
  /** Path without a trailing slash. */
  readonly path: string
  readonly query: URLSearchParams
  readonly rawBody: Buffer
  /** `http://host[:port]` from the Host header. */
  readonly origin: string
  /** The parsed body: JSON, or form fields as an object; `{}` when empty. Throws HttpError(400) on bad JSON. */
  body(): unknown
}

/** The Ctx a provider server makes per request; `rawBody` is empty until the server has read it. */
export class RequestCtx implements Ctx {
  rawBody: Buffer = Buffer.alloc(0)
  private parsed: { readonly value: unknown } | undefined

  constructor(
    readonly req: Http.IncomingMessage,
    readonly res: Http.ServerResponse,
    readonly method: string,
    readonly path: string,
    readonly query: URLSearchParams,
    readonly origin: string
  ) {}

  /** Parsed once, on first use; a body that fails to parse throws again on every call. */
  body(): unknown {
    if (this.parsed === undefined) this.parsed = { value: parseBody(this.req, this.rawBody) }
    return this.parsed.value
  }
}
