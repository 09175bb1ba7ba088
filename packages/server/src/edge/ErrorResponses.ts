import { type HttpApi, HttpApiBuilder, HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Api, apiErrorTags, BadRequest, InternalServerError, MethodNotAllowed, NotFound } from "@switchyard/api"
import { Cause, Effect, FiberRef, Layer } from "effect"
import { usesSessionCookie } from "./DashboardCookie.js"
import { RequestAuthentication } from "./RequestAuthentication.js"
import { guardRequest } from "./RequestGuards.js"
import { routerTarget } from "../platform/metrics/routerTarget.js"
import { routeTable } from "./RouteTable.js"

const hasTag = (error: unknown, tags: ReadonlySet<string> | string): error is { readonly _tag: string } =>
  typeof error === "object" && error !== null && "_tag" in error &&
  (typeof tags === "string" ? error._tag === tags : tags.has(String(error._tag)))

interface DecodeIssue {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

/** Values under these keys are secrets: an error message never echoes them. */
const secretKeys = ["credentials", "password", "secret", "token", "api_key"]
const MAX_ECHO = 80

/**
 * Echo the offending value only when it is a short scalar away from any secret: objects
 * and arrays may carry credentials anywhere inside them.
 */
const safeToEcho = (path: ReadonlyArray<PropertyKey>, actual: string) =>
  actual.length <= MAX_ECHO &&
  !/^[[{]/.test(actual) &&
  !path.some((segment) => secretKeys.includes(String(segment))) &&
  !secretKeys.some((key) => actual.includes(key))

const describeIssue = ({ message, path }: DecodeIssue) => {
  const where = path.length > 0 ? `${path.map(String).join(".")}: ` : ""
  const at = message.indexOf(", actual ")
  const echoed = at >= 0 ? message.slice(at + ", actual ".length) : ""
  const text = at >= 0 && !safeToEcho(path, echoed) ? message.slice(0, at) : message
  return where + text.replace(/\s+/g, " ")
}

const within = (inner: DecodeIssue, outer: DecodeIssue) =>
  inner.path.length >= outer.path.length && outer.path.every((segment, i) => segment === inner.path[i])

const samePath = (a: DecodeIssue, b: DecodeIssue) =>
  a.path.length === b.path.length && a.path.every((segment, i) => segment === b.path[i])

const ALTERNATIVE = /^Expected (.+), actual (.+)$/s

/**
 * A union of literals (an enumeration) reports one "Expected X, actual Y" per member at the
 * same path: one issue naming them all says it in one line ("Expected "hour" or "day", actual "week"").
 */
const joinAlternatives = (issues: ReadonlyArray<DecodeIssue>): ReadonlyArray<DecodeIssue> => {
  const runs: Array<{ readonly issue: DecodeIssue; readonly actual?: string; readonly expected: Array<string> }> = []
  for (const issue of issues) {
    const alternative = ALTERNATIVE.exec(issue.message)
    const last = runs[runs.length - 1]
    if (alternative !== null && last?.actual === alternative[2] && samePath(last.issue, issue)) {
      last.expected.push(alternative[1]!)
    } else if (alternative !== null) {
      runs.push({ issue, actual: alternative[2]!, expected: [alternative[1]!] })
    } else {
      runs.push({ issue, expected: [] })
    }
  }
  return runs.map(({ actual, expected, issue }) =>
    expected.length < 2 ? issue : {
      ...issue,
      message: `Expected ${expected.slice(0, -1).join(", ")} or ${expected[expected.length - 1]}, actual ${actual}`
    }
  )
}

/** An optional field reports "Expected undefined" beside the real problem: keep only the latter. */
const decodeMessage = (issues: ReadonlyArray<DecodeIssue>) => {
  const useful = issues.filter((issue) =>
    !(issue.message.startsWith("Expected undefined") && issues.some((other) => other !== issue && within(other, issue)))
  )
  return useful.length === 0 ? "Invalid request" : joinAlternatives(useful).slice(0, 10).map(describeIssue).join("; ")
}

/** A 401 names the scheme that would succeed (RFC 9110 §11.6.1). */
export const challengeBasic = HttpApp.appendPreResponseHandler((_, response) =>
  Effect.succeed(HttpServerResponse.setHeader(response, "www-authenticate", `Basic realm="switchyard"`))
)

/**
 * A browser answers a Basic challenge to a script's request with its own sign-in prompt: the
 * dashboard's requests (its sign-in routes, and those its session cookie authenticates) get
 * their 401 without one, and the dashboard shows its own sign-in.
 */
const isDashboardRequest = (request: HttpServerRequest.HttpServerRequest) =>
  usesSessionCookie(request) || /^\/dashboard(\/|$)/.test(new URL(request.url, "http://switchyard").pathname)

/**
 * Set once a handler has produced its answer: a schema failure after that is the answer
 * failing to encode (our fault, 500), not the request failing to decode (the caller's, 400).
 * The platform reports both as `HttpApiDecodeError`.
 */
const handlerAnswered = FiberRef.unsafeMake(false)

/** Marks the answer as produced; handlers whose answers come from connectors tap it. */
export const markAnswered = FiberRef.set(handlerAnswered, true)

const setHeader = (name: string, value: string) =>
  HttpApp.appendPreResponseHandler((_, response) => Effect.succeed(HttpServerResponse.setHeader(response, name, value)))

/**
 * Every request passes the request guards first. Every failure leaves in the documented
 * `{statusCode, message, timestamp}` shape: decode failures become 400 (answers failing to
 * encode 500), unknown routes 404 (405 when the path exists for other methods), unreadable
 * bodies 400, defects 500.
 * 408 and 429 carry their retry hint as a `Retry-After` header, 405 an `Allow` header,
 * 401 a Basic challenge (except to the dashboard).
 */
export const errorResponses = (
  api: HttpApi.HttpApi.Any,
  authenticate?: RequestAuthentication["caller"]
) => {
  const routes = routeTable(api)
  const guarded = guardRequest(routes, authenticate)
  return HttpApiBuilder.middleware(api as typeof Api, (app) =>
    Effect.catchAllCause(Effect.zipRight(FiberRef.set(handlerAnswered, false), guarded(app)), (cause) =>
      Effect.gen(function*() {
        if (Cause.isInterruptedOnly(cause)) return yield* Effect.failCause(cause)
        const error = Cause.squash(cause)
        if (hasTag(error, apiErrorTags)) {
          if (error._tag === "Unauthorized" && !isDashboardRequest(yield* HttpServerRequest.HttpServerRequest)) {
            yield* challengeBasic
          }
          const allow = (error as { readonly allow?: ReadonlyArray<string> }).allow
          if (allow !== undefined) yield* setHeader("allow", allow.join(", "))
          const retryAfter = (error as { readonly retryAfter?: number }).retryAfter
          if (retryAfter !== undefined) yield* setHeader("retry-after", String(Math.ceil(retryAfter)))
          return yield* Effect.failCause(cause)
        }
        if (hasTag(error, "HttpApiDecodeError")) {
          const message = decodeMessage((error as unknown as { issues: Array<DecodeIssue> }).issues)
          if (yield* FiberRef.get(handlerAnswered)) {
            yield* Effect.logError(`answer does not match its schema: ${message}`)
            return yield* new InternalServerError({ message: `The answer does not match its documented schema: ${message}` })
          }
          return yield* new BadRequest({ message })
        }
        const request = yield* HttpServerRequest.HttpServerRequest
        if (hasTag(error, "RouteNotFound")) {
          const path = new URL(request.url, "http://switchyard").pathname
          const allow = routes.allowedMethods(routerTarget(request.url).path)
          if (allow.length > 0) {
            yield* setHeader("allow", allow.join(", "))
            return yield* new MethodNotAllowed({ message: `${request.method} ${path} is not allowed: use ${allow.join(", ")}` })
          }
          return yield* new NotFound({ message: `No route for ${request.method} ${path}` })
        }
        if (hasTag(error, "RequestError")) {
          const malformed = (error as { readonly cause?: unknown }).cause instanceof SyntaxError
          return yield* new BadRequest({
            message: malformed
              ? "The request body is not valid JSON"
              : "The request body could not be read (bodies are limited to 10 MiB)"
          })
        }
        yield* Effect.logError("unhandled failure", cause)
        return yield* new InternalServerError({ message: "Internal server error" })
      })
    ))
}

export const ErrorResponsesLive = Layer.unwrapEffect(
  Effect.map(RequestAuthentication, ({ caller }) => errorResponses(Api, caller))
).pipe(Layer.provide(RequestAuthentication.Default))
