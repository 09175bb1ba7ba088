import { HttpClientError, HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import { Inspectable } from "effect"

const withoutCredentials = (request: HttpClientRequest.HttpClientRequest) =>
  request.headers["authorization"] === undefined
    ? request
    : HttpClientRequest.setHeader(request, "authorization", "<redacted>")

/** The response as errors show it: the same answer, printed with the request without credentials. */
const showingRequest = (
  response: HttpClientResponse.HttpClientResponse,
  request: HttpClientRequest.HttpClientRequest
): HttpClientResponse.HttpClientResponse => {
  // Responses may be wrappers that print their original, so printing is overridden too.
  const toJSON = () => ({ ...(response.toJSON() as object), request: request.toJSON() })
  return Object.create(response, {
    request: { value: request, enumerable: true },
    toJSON: { value: toJSON },
    [Inspectable.NodeInspectSymbol]: { value: toJSON }
  })
}

/**
 * Transport and response errors carry the request they sent, API key included in its
 * `authorization` header. Effect redacts that header only inside its own logger, so
 * `JSON.stringify(error)` or `console.log(error)` would show it: the caller gets a copy whose
 * request (and response's request) has the header replaced.
 */
export const hideCredentials = <E>(error: E): E => {
  if (!HttpClientError.isHttpClientError(error)) return error
  const request = withoutCredentials(error.request)
  if (error._tag === "RequestError") return new HttpClientError.RequestError({ ...error, request }) as E
  return new HttpClientError.ResponseError({ ...error, request, response: showingRequest(error.response, request) }) as E
}
