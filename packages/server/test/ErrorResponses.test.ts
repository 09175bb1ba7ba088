import { HttpApi, HttpApiBuilder, HttpApiClient, HttpApiEndpoint, HttpApiGroup, HttpClient } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { expect, layer } from "@effect/vitest"
import {
  BadRequestBody,
  InternalServerErrorBody,
  NotFoundBody,
  RequestTimeout,
  RequestTimeoutBody,
  TooManyRequests,
  TooManyRequestsBody
} from "@switchyard/api"
import { Effect, Layer, Schema } from "effect"
import { errorResponses, markAnswered } from "../src/edge/ErrorResponses.js"

// A small API that fails in each way the real handlers can, served with the real error middleware.
class Failing extends HttpApiGroup.make("failing")
  .add(HttpApiEndpoint.get("timeout", "/timeout").addSuccess(Schema.String))
  .add(HttpApiEndpoint.get("limited", "/limited").addSuccess(Schema.String))
  .add(HttpApiEndpoint.get("defect", "/defect").addSuccess(Schema.String))
  .add(
    HttpApiEndpoint.get("misshapen", "/misshapen")
      .setUrlParams(Schema.Struct({ size: Schema.optional(Schema.NumberFromString) }))
      .addSuccess(Schema.Struct({ id: Schema.String }))
  )
{}

class FailingApi extends HttpApi.make("failing")
  .add(Failing)
  .addError(BadRequestBody)
  .addError(NotFoundBody)
  .addError(RequestTimeoutBody)
  .addError(TooManyRequestsBody)
  .addError(InternalServerErrorBody)
{}

const FailingLive = HttpApiBuilder.group(FailingApi, "failing", (handlers) =>
  handlers
    .handle("timeout", () => new RequestTimeout({ message: "Provider took too long", retryAfter: 2.2 }))
    .handle("limited", () => new TooManyRequests({ message: "Slow down", retryAfter: 7 }))
    .handle("defect", () => Effect.die(new Error("secret internals")))
    // an answer built from a connector's output that misses a required field
    .handle("misshapen", () => Effect.as(markAnswered, {} as { id: string })))

const Server = HttpApiBuilder.serve().pipe(
  Layer.provide(errorResponses(FailingApi)),
  Layer.provide(HttpApiBuilder.api(FailingApi).pipe(Layer.provide(FailingLive))),
  Layer.provideMerge(NodeHttpServer.layerTest)
)

const raw = (path: string) =>
  Effect.gen(function*() {
    const response = yield* HttpClient.get(path)
    return { status: response.status, headers: response.headers, body: (yield* response.json) as Record<string, unknown> }
  })

layer(Server, { excludeTestServices: true })("error responses", (it) => {
  it.effect("408 and 429 carry Retry-After and the documented body", () =>
    Effect.gen(function*() {
      const timeout = yield* raw("/timeout")
      expect(timeout.status).toBe(408)
      expect(timeout.headers["retry-after"]).toBe("3")
      expect(Object.keys(timeout.body).sort()).toEqual(["message", "statusCode", "timestamp"])
      expect(timeout.body).toMatchObject({ statusCode: 408, message: "Provider took too long" })

      const limited = yield* raw("/limited")
      expect(limited.status).toBe(429)
      expect(limited.headers["retry-after"]).toBe("7")
      expect(Object.keys(limited.body).sort()).toEqual(["message", "statusCode", "timestamp"])
    }))

  it.effect("the derived client decodes them back into tagged errors", () =>
    Effect.gen(function*() {
      const client = yield* HttpApiClient.make(FailingApi)
      const error = yield* client.failing.timeout().pipe(Effect.flip)
      expect(error._tag).toBe("RequestTimeout")
      expect(error.message).toBe("Provider took too long")
    }))

  it.effect("defects answer 500 without leaking internals", () =>
    Effect.gen(function*() {
      const defect = yield* raw("/defect")
      expect(defect.status).toBe(500)
      expect(Object.keys(defect.body).sort()).toEqual(["message", "statusCode", "timestamp"])
      expect(defect.body).toMatchObject({ statusCode: 500, message: "Internal server error" })
      expect(JSON.stringify(defect.body)).not.toContain("secret internals")
    }))

  it.effect("a request failing to decode is 400; an answer failing to encode is 500", () =>
    Effect.gen(function*() {
      const request = yield* raw("/misshapen?size=big")
      expect(request.status).toBe(400)
      expect(request.body.message).toContain("size")
      const answer = yield* raw("/misshapen")
      expect(answer.status).toBe(500)
      expect(answer.body).toMatchObject({ statusCode: 500 })
      expect(answer.body.message).toContain("id: is missing")
    }))

  it.effect("unknown routes answer 404 in the same shape", () =>
    Effect.gen(function*() {
      const missing = yield* raw("/nowhere")
      expect(missing.status).toBe(404)
      expect(missing.body).toMatchObject({ statusCode: 404, message: "No route for GET /nowhere" })
      expect(Object.keys(missing.body).sort()).toEqual(["message", "statusCode", "timestamp"])
    }))
})
