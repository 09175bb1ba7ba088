import { Headers, HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { BadRequest, NotFound, PayloadTooLarge, UnsupportedMediaType } from "@switchyard/api"
import { Effect, Option } from "effect"
import { Readable } from "node:stream"
import { verifiedCaller } from "../features/auth/VerifiedCaller.js"
import { routerTarget } from "../platform/metrics/routerTarget.js"
import type { RequestAuthentication } from "./RequestAuthentication.js"
import type { RouteTable } from "./RouteTable.js"
import { noteRoute } from "../platform/metrics/RequestObserver.js"

/*
 * Checks every request once, before routing, so no handler, schema or SQL statement sees
 * text PostgreSQL cannot store (NUL, unpaired UTF-16 surrogates) or a body it cannot read
 * cheaply: path segments, query parameters, headers and JSON bodies alike.
 */

/** Objects and arrays nested deeper than this are refused before parsing. */
export const MAX_JSON_DEPTH = 64
/** A JSON body larger than this is refused (413) as soon as the bytes read pass it. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024

const badCharacter = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** What is wrong with `text` for storage, or undefined when nothing is. */
const characterProblem = (text: string): string | undefined => {
  const found = badCharacter.exec(text)
  if (found === null) return undefined
  const code = found[0].charCodeAt(0)
  return code === 0
    ? "contains a NUL character (U+0000)"
    : `contains an unpaired surrogate (U+${code.toString(16).toUpperCase()})`
}

/** A name safe to quote in a message: offending characters escaped, length bounded. */
const printable = (name: string) => {
  const escaped = name.replace(new RegExp(badCharacter.source, "g"), (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
  return escaped.length > 60 ? `${escaped.slice(0, 60)}…` : escaped
}

/** Whether the JSON text nests objects and arrays deeper than `max` (strings skipped). */
const nestsDeeperThan = (text: string, max: number) => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92) i++
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 123 || c === 91) {
      if (++depth > max) return true
    } else if (c === 125 || c === 93) depth--
  }
  return false
}

/** The first string or key in a parsed JSON value that cannot be stored, with its path. */
const firstBadString = (value: unknown, path: Array<string>): string | undefined => {
  if (typeof value === "string") {
    const problem = characterProblem(value)
    return problem && `${["body", ...path].join(".")}: ${problem}`
  }
  if (typeof value !== "object" || value === null) return undefined
  for (const [key, item] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const name = String(key)
    const keyProblem = characterProblem(name)
    if (keyProblem !== undefined) return `${["body", ...path, printable(name)].join(".")}: the key ${keyProblem}`
    const found = firstBadString(item, [...path, name])
    if (found !== undefined) return found
  }
  return undefined
}

const decodedSegment = (segment: string): string | undefined => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

const segmentProblem = (segment: string) => {
  const decoded = decodedSegment(segment)
  return decoded === undefined ? "is not valid percent-encoded UTF-8" : characterProblem(decoded)
}

/** An id in the path that cannot exist is a 404, naming the parameter when a route matches. */
const checkPath = (match: ReturnType<RouteTable["find"]>, method: string, path: string) => {
  const named = Object.entries(match?.params ?? {}).map(([name, raw]) => [`path parameter ${name}`, raw] as const)
  const segments = named.length > 0 ? named : path.split("/").map((segment) => ["the path", segment] as const)
  for (const [where, segment] of segments) {
    const problem = segmentProblem(segment)
    if (problem !== undefined) {
      return Effect.fail(new NotFound({ message: `No resource at ${method} ${path}: ${where} ${problem}` }))
    }
  }
  return Effect.void
}

const checkTexts = (kind: string, entries: Iterable<readonly [string, string]>) => {
  for (const [name, value] of entries) {
    const problem = characterProblem(name) ?? characterProblem(value)
    if (problem !== undefined) return Effect.fail(new BadRequest({ message: `${kind} ${printable(name)}: ${problem}` }))
  }
  return Effect.void
}

/**
 * URL parsing (as /mcp reads the query) splits the target differently from the router only
 * for an absolute-form target or when a `;` or `#` ends the path: only then is its query checked too.
 */
const urlQueryMayDiffer = (url: string, path: string) =>
  url.charCodeAt(0) !== 47 || (url.length > path.length && url[path.length] !== "?")

const queryOf = (url: string) => {
  try {
    return new URL(url, "http://switchyard").searchParams
  } catch {
    return new URLSearchParams()
  }
}

export const mediaTypeOf = (request: HttpServerRequest.HttpServerRequest) =>
  (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase()

/** JSON bodies come as application/json or a `+json` type; without a Content-Type they are read as JSON. */
export const isJsonMediaType = (mediaType: string) =>
  mediaType === "" || mediaType === "application/json" || /^application\/[^/\s]+\+json$/.test(mediaType)

const hasBody = (request: HttpServerRequest.HttpServerRequest) =>
  Number(request.headers["content-length"] ?? 0) > 0 || request.headers["transfer-encoding"] !== undefined

const tooLarge = () =>
  new PayloadTooLarge({ message: `The request body is larger than the limit of ${MAX_BODY_BYTES / (1024 * 1024)} MiB` })

const unreadable = () => new BadRequest({ message: "The request body could not be read" })

/**
 * The body as text, reading no more than the limit. Past it, reading stops without destroying
 * the request (as the platform's reader does, which takes the socket and so the answer with it):
 * Node discards the rest once the 413 is sent.
 */
const readBounded = (request: HttpServerRequest.HttpServerRequest) => {
  const source = request.source
  if (!(source instanceof Readable)) {
    return Effect.flatMap(Effect.mapError(request.text, unreadable), (text) =>
      Buffer.byteLength(text) > MAX_BODY_BYTES ? Effect.fail(tooLarge()) : Effect.succeed(text))
  }
  return Effect.async<string, BadRequest | PayloadTooLarge>((resume) => {
    const chunks: Array<Buffer> = []
    let size = 0
    let done = false
    const finish = (result: Effect.Effect<string, BadRequest | PayloadTooLarge>) => {
      if (done) return
      done = true
      source.off("data", onData).off("end", onEnd).off("error", onFailure).off("close", onFailure)
      source.pause()
      resume(result)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength
      if (size > MAX_BODY_BYTES) finish(Effect.fail(tooLarge()))
      else chunks.push(chunk)
    }
    const onEnd = () => finish(Effect.succeed(Buffer.concat(chunks).toString("utf8")))
    const onFailure = () => finish(Effect.fail(unreadable()))
    source.on("data", onData).once("end", onEnd).once("error", onFailure).once("close", onFailure)
    return Effect.sync(() => finish(Effect.fail(unreadable())))
  })
}

/** Reads the body once and vets it as JSON: the text, or the refusal. */
const checkedJsonBody = (request: HttpServerRequest.HttpServerRequest, operation: string) =>
  Effect.gen(function*() {
    const mediaType = mediaTypeOf(request)
    if (!isJsonMediaType(mediaType)) {
      return yield* new UnsupportedMediaType({
        message: `${operation} reads a JSON body: Content-Type ${mediaType} is not accepted, send application/json`
      })
    }
    if (Number(request.headers["content-length"] ?? 0) > MAX_BODY_BYTES) return yield* tooLarge()
    const text = yield* readBounded(request)
    if (text === "") return text
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      return yield* new BadRequest({ message: `The request body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels` })
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      return yield* new BadRequest({ message: "The request body is not valid JSON" })
    }
    const problem = firstBadString(parsed, [])
    if (problem !== undefined) return yield* new BadRequest({ message: problem })
    return text
  })

/**
 * The request the handler decodes: the same one, seen with the body already read and as
 * `application/json` (the platform parses only that type as JSON, and cannot read a body twice).
 */
const withJsonBody = (request: HttpServerRequest.HttpServerRequest, text: string): HttpServerRequest.HttpServerRequest =>
  Object.create(request, {
    text: { value: Effect.succeed(text) },
    headers: { value: Headers.set(request.headers, "content-type", "application/json") }
  })

/**
 * Runs `app` only for a request that passed the guards: 404 for a path that cannot name a
 * resource, 400 for bad text in a query parameter, header or JSON body (naming where) or for
 * JSON nested too deep, 415 for a body that is not JSON, 413 past the body limit.
 * On an operation that needs a key, the caller (API key or dashboard session) and its scope
 * are checked first, and handed on to the Authentication middleware (`verifiedCaller`): a
 * caller without them learns nothing from the guards, and no body is read for them.
 */
export const guardRequest = (routes: RouteTable, authenticate?: RequestAuthentication["caller"]) =>
<E, R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const target = routerTarget(request.url)
    const match = routes.find(request.method, target.path)
    if (match !== undefined) yield* noteRoute(match.route.path)
    const caller = authenticate !== undefined && match?.route.authenticated === true
      ? Option.some(yield* authenticate)
      : Option.none()
    yield* checkPath(match, request.method, target.path)
    yield* checkTexts("query parameter", new URLSearchParams(target.query))
    if (urlQueryMayDiffer(request.url, target.path)) yield* checkTexts("query parameter", queryOf(request.url))
    yield* checkTexts("header", Object.entries(request.headers))
    // the Authentication middleware takes the caller checked above instead of checking again
    const handled = Effect.locally(app, verifiedCaller, caller)
    if (match === undefined || !match.route.readsBody || !hasBody(request)) return yield* handled
    const text = yield* checkedJsonBody(request, `${match.route.method} ${match.route.path}`)
    return yield* Effect.provideService(handled, HttpServerRequest.HttpServerRequest, withJsonBody(request, text))
  })
