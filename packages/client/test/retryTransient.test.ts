import { FetchHttpClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as Api from "@switchyard/api"
import { parseRetryAfter, retryDelay, retryTransient } from "../src/index.js"

/** One scripted answer per request, in order; the last one repeats. */
type Answer = { readonly status: number; readonly headers?: Record<string, string> }

/** A real HTTP server on loopback answering from `script`, counting what it saw. */
const scriptedServer = (script: ReadonlyArray<Answer>) =>
  Effect.acquireRelease(
    Effect.async<{ server: Http.Server; seen: Array<{ method: string; headers: Http.IncomingHttpHeaders }> }>((resume) => {
      const seen: Array<{ method: string; headers: Http.IncomingHttpHeaders }> = []
      const server = Http.createServer((request, response) => {
        const answer = script[Math.min(seen.length, script.length - 1)]!
        seen.push({ method: request.method ?? "", headers: request.headers })
        request.resume()
        response.writeHead(answer.status, { "content-type": "application/json", ...answer.headers })
        response.end(JSON.stringify({ statusCode: answer.status, message: "scripted", timestamp: new Date().toISOString() }))
      })
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed({ server, seen })))
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ server, seen }) => ({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen })))

const policy = { maxAttempts: 3, baseDelay: Duration.millis(5), maxDelay: Duration.seconds(2) }

const send = (request: HttpClientRequest.HttpClientRequest, overrides: Partial<typeof policy> = {}) =>
  Effect.gen(function*() {
    const client = retryTransient({ ...policy, ...overrides })(yield* HttpClient.HttpClient)
    return yield* client.execute(request)
  }).pipe(Effect.provide(FetchHttpClient.layer))

describe("retryTransient", () => {
  it.scopedLive("retries 429 after Retry-After until an answer is not transient", () =>
    Effect.gen(function*() {
      const server = yield* scriptedServer([
        { status: 429, headers: { "retry-after": "0" } },
        { status: 429, headers: { "retry-after": new Date(Date.now() - 1000).toUTCString() } },
        { status: 200 }
      ])
      const response = yield* send(HttpClientRequest.get(`${server.url}/things`))
      expect(response.status).toBe(200)
      expect(server.seen).toHaveLength(3)
    }))

  it.scopedLive("stops after maxAttempts and hands back the last 429", () =>
    Effect.gen(function*() {
      const server = yield* scriptedServer([{ status: 429 }])
      const response = yield* send(HttpClientRequest.get(`${server.url}/things`))
      expect(response.status).toBe(429)
      expect(server.seen).toHaveLength(3)
    }))

  it.scopedLive("does not wait for a Retry-After beyond maxDelay", () =>
    Effect.gen(function*() {
      const server = yield* scriptedServer([{ status: 429, headers: { "retry-after": "120" } }, { status: 200 }])
      const response = yield* send(HttpClientRequest.get(`${server.url}/things`))
      expect(response.status).toBe(429)
      expect(server.seen).toHaveLength(1)
    }))

  // A 429 may follow a provider write of the same action that succeeded, so it is no safer to repeat than a 408.
  for (const status of [408, 429]) {
    it.scopedLive(`retries ${status} only for calls safe to repeat`, () =>
      Effect.gen(function*() {
        const refusedOnce: ReadonlyArray<Answer> = [{ status, headers: { "retry-after": "0" } }, { status: 200 }]
        const get = yield* scriptedServer(refusedOnce)
        expect((yield* send(HttpClientRequest.get(`${get.url}/things`))).status).toBe(200)
        expect(get.seen).toHaveLength(2)
        for (const unkeyed of [HttpClientRequest.post, HttpClientRequest.patch]) {
          const server = yield* scriptedServer(refusedOnce)
          expect((yield* send(unkeyed(`${server.url}/things`))).status).toBe(status)
          expect(server.seen).toHaveLength(1)
        }
        const keyed = yield* scriptedServer(refusedOnce)
        const keyedPost = HttpClientRequest.post(`${keyed.url}/things`).pipe(
          HttpClientRequest.setHeader("idempotency-key", "create-1")
        )
        expect((yield* send(keyedPost)).status).toBe(200)
        expect(keyed.seen.map((seen) => seen.headers["idempotency-key"])).toEqual(["create-1", "create-1"])
      }))
  }

  it.scopedLive("leaves other statuses alone", () =>
    Effect.gen(function*() {
      const server = yield* scriptedServer([{ status: 503, headers: { "retry-after": "0" } }, { status: 200 }])
      expect((yield* send(HttpClientRequest.get(`${server.url}/things`))).status).toBe(503)
      expect(server.seen).toHaveLength(1)
    }))
})

describe("RetryPolicy", () => {
  it("reads Retry-After as the server does (its cases are in the api package's RetryAfter test)", () => {
    expect(parseRetryAfter).toBe(Api.parseRetryAfter)
  })

  it("waits as asked, backs off with jitter below a doubling ceiling, and stops at the bound", () => {
    const bounded = { maxAttempts: 4, baseDelay: Duration.millis(100), maxDelay: Duration.seconds(1) }
    expect(retryDelay(bounded, 0, 0.5)).toEqual(Duration.millis(500))
    expect(retryDelay(bounded, 0, 2)).toBeUndefined()
    expect(retryDelay(bounded, 2, undefined, () => 0.999)).toEqual(Duration.millis(399))
    expect(retryDelay(bounded, 2, undefined, () => 0)).toEqual(Duration.millis(0))
    expect(retryDelay(bounded, 3, 0)).toBeUndefined()
    const capped = { ...bounded, maxAttempts: 10 }
    expect(retryDelay(capped, 8, undefined, () => 0.999)).toEqual(Duration.millis(999))
  })
})
