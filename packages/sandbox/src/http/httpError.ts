/**
 * Thrown by handlers to answer with `status`: a string body goes out as text/plain, anything else as
 * JSON; `headers` are added (e.g. WWW-Authenticate).
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {}
  ) {
    super(typeof body === "string" ? body : JSON.stringify(body))
  }
}
