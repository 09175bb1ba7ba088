import type { ProviderResponse } from "../../ProviderTransport.js"

/*
 * A transport answer handed to a library that expects WHATWG `fetch` (the MCP SDK, oauth4webapi):
 * the transport has already read (and maybe parsed) the body, so it is written back as text.
 */

/** Statuses whose `Response` must have no body (the constructor throws otherwise). */
export const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 204, 205, 304])

/** Whether the transport parsed the body (it was JSON, whatever it was labelled). */
export const isParsedBody = (body: ProviderResponse["body"]): boolean =>
  body !== null && body !== undefined && typeof body !== "string" && !(body instanceof Uint8Array)

/** The body as the text a `Response` carries. */
export const responseBodyText = (body: ProviderResponse["body"]): string =>
  body === null || body === undefined
    ? ""
    : typeof body === "string"
    ? body
    : body instanceof Uint8Array
    ? new TextDecoder().decode(body)
    : JSON.stringify(body)
