import { Effect, Layer } from "effect"
import { type ProviderRequest, type ProviderResponse, ProviderTransport, ProviderTransportError, redactText, secretForms } from "../../src/index.js"

/**
 * A `ProviderTransport` over the global `fetch`, for tests against real sockets (the sandbox,
 * small node:http servers): records every request, follows no redirect, parses JSON answers
 * and falls back to text. Connection failures are `unreachable`, with the URL redacted.
 */
export const fetchTransport = () => {
  const requests: Array<ProviderRequest> = []
  const send = (request: ProviderRequest): Effect.Effect<ProviderResponse, ProviderTransportError> =>
    Effect.tryPromise({
      try: async (signal) => {
        requests.push(request)
        const headers = new Headers(request.headers)
        let body: string | Buffer | undefined
        switch (request.body?._tag) {
          case "Json":
            body = JSON.stringify(request.body.value)
            headers.set("content-type", "application/json")
            break
          case "Form":
            body = new URLSearchParams(request.body.value).toString()
            headers.set("content-type", "application/x-www-form-urlencoded")
            break
          case "Bytes":
            body = Buffer.from(request.body.value)
            headers.set("content-type", request.body.contentType)
            break
        }
        const response = await fetch(request.url, {
          method: request.method,
          headers,
          redirect: "manual",
          signal,
          ...(body === undefined ? {} : { body })
        })
        const text = await response.text()
        let parsed: unknown = text
        if (text !== "") {
          try {
            parsed = JSON.parse(text)
          } catch {
            parsed = text
          }
        }
        return { status: response.status, headers: Object.fromEntries(response.headers), body: parsed }
      },
      catch: () =>
        new ProviderTransportError({
          reason: "unreachable",
          message: "connection failed",
          url: redactText(request.url, secretForms(request.secrets))
        })
    })
  return { requests, layer: Layer.succeed(ProviderTransport, { send }) }
}
