import { HttpClient, type HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import { isIdempotentMethod, parseRetryAfter } from "@switchyard/api"
import { Effect } from "effect"
import { retryDelay, type RetryPolicy } from "./RetryPolicy.js"

/**
 * 429 and 408 are retried only for calls safe to repeat: idempotent methods, or writes carrying
 * an `Idempotency-Key` (the server answers those once). A 408 may come after the call was under
 * way, and so may a 429: a multi-step write can be refused after an earlier provider write of
 * the same action succeeded, so repeating an unkeyed POST/PATCH could duplicate that write.
 */
export const isTransient = (request: HttpClientRequest.HttpClientRequest, status: number) =>
  (status === 429 || status === 408) &&
  (isIdempotentMethod(request.method) || request.headers["idempotency-key"] !== undefined)

/**
 * Retries transient answers at the HttpClient level, where the `Retry-After` header is still
 * visible (error bodies do not carry it). When the attempts run out, or the server asks for a
 * longer wait than the policy allows, the last answer goes on to be decoded into its typed
 * error (`TooManyRequests`, `RequestTimeout`).
 */
export const retryTransient = (policy: RetryPolicy) => <E, R>(client: HttpClient.HttpClient.With<E, R>) =>
  HttpClient.transform(client, (send, request) => {
    const attempt = (n: number): Effect.Effect<HttpClientResponse.HttpClientResponse, E, R> =>
      Effect.flatMap(send, (response) => {
        if (!isTransient(request, response.status)) return Effect.succeed(response)
        const wait = retryDelay(policy, n, parseRetryAfter(response.headers["retry-after"]))
        if (wait === undefined) return Effect.succeed(response)
        // Read the refused answer's small body so its connection is released before waiting.
        return response.text.pipe(Effect.ignore, Effect.zipRight(Effect.sleep(wait)), Effect.zipRight(attempt(n + 1)))
      })
    return attempt(0)
  })
