import { HttpClient, type HttpClientRequest } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { Data, Effect } from "effect"
import * as Dns from "node:dns"
import type { LookupAddress } from "node:dns"
import type { LookupFunction } from "node:net"
import { Agent, type Dispatcher } from "undici"
import { SwitchyardConfig } from "../Config.js"
import { connectRefusal } from "./OutboundUrlGuard.js"

/**
 * A DNS lookup for outgoing connections that refuses addresses this server does not call
 * unless the allowlist covers them. It judges the very answer the socket connects to, so a
 * name that resolves elsewhere after its URL was vetted (DNS rebinding) reaches nothing private.
 */
export const guardedLookup = (allowlist: ReadonlyArray<string>, lookup: LookupFunction = Dns.lookup): LookupFunction => {
  const refusal = connectRefusal(allowlist)
  return (hostname, options, callback) =>
    lookup(hostname, { ...options, all: true }, (error, answer) => {
      if (error !== null) return callback(error, "")
      const addresses = answer as unknown as ReadonlyArray<LookupAddress>
      const refused = addresses.find(({ address }) => refusal(hostname, address) !== undefined)
      if (refused !== undefined) {
        const failure: NodeJS.ErrnoException = new Error(
          `refused to connect to ${hostname}: it resolves to an address this server does not call (${
            refusal(hostname, refused.address)
          })`
        )
        failure.code = "ERR_OUTBOUND_ADDRESS_REFUSED"
        return callback(failure, "")
      }
      if (options.all === true) return callback(null, addresses as Array<LookupAddress>)
      const [first] = addresses
      return first === undefined
        ? callback(Object.assign(new Error(`cannot resolve ${hostname}: no addresses`), { code: "ENOTFOUND" }), "")
        : callback(null, first.address, first.family)
    })
}

/**
 * The platform's own client spans are off: they record the full URL and every header outside
 * a short list, where connectors put credentials (ProviderHttp spans each call with host and
 * status only). With them go the trace headers, which third parties have no use for.
 */
const untraced = HttpClient.withTracerDisabledWhen(() => true)

/** An answer read whole. */
export interface BufferedAnswer {
  readonly status: number
  /** Lower-case names; repeated headers joined with ", " (as the platform's `Headers` do). */
  readonly headers: Readonly<Record<string, string>>
  readonly bytes: Uint8Array
}

/** Why a buffered request has no answer. `neverConnected`: the request surely never left. */
export class OutboundUnreachable extends Data.TaggedError("OutboundUnreachable")<{
  readonly cause: unknown
  readonly neverConnected: boolean
}> {}
export class OutboundTimeout extends Data.TaggedError("OutboundTimeout")<{}> {}
export class OutboundTooLarge extends Data.TaggedError("OutboundTooLarge")<{ readonly status: number }> {}
export type OutboundFailure = OutboundUnreachable | OutboundTimeout | OutboundTooLarge

export interface BufferedOptions {
  /** The whole exchange, request to last byte of the answer. */
  readonly timeoutMs: number
  /** Answers longer than this fail (before any byte is read when the length is announced). */
  readonly maxBytes: number
}

/** Connection errors that mean the request never left: safe to repeat whatever the method. */
const connectErrorCodes = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"])

/** The string `code`s along a cause chain, outermost first. */
const codesIn = (cause: unknown): ReadonlyArray<string> => {
  const codes: Array<string> = []
  for (let current = cause, depth = 0; typeof current === "object" && current !== null && depth < 5; depth++) {
    const code = (current as { readonly code?: unknown }).code
    if (typeof code === "string") codes.push(code)
    current = (current as { readonly cause?: unknown }).cause
  }
  return codes
}

export const neverConnected = (cause: unknown): boolean => codesIn(cause).some((code) => connectErrorCodes.has(code))

/**
 * The first error code in a cause chain (`ECONNREFUSED`, `ENOTFOUND`, a TLS code, ...): what
 * tells an operator why a connection failed, and holds nothing secret.
 */
export const errorCodeOf = (cause: unknown): string | undefined =>
  codesIn(cause).find((code) => /^[A-Z][A-Z0-9_]{1,63}$/.test(code))

const headerRecord = (headers: Dispatcher.ResponseData["headers"]): Record<string, string> => {
  const record: Record<string, string> = {}
  for (const name in headers) {
    const value = headers[name]
    if (value !== undefined) record[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value
  }
  return record
}

/** A Content-Length header's value, when it is one. */
export const contentLengthOf = (value: string | undefined): number | undefined =>
  value !== undefined && /^\d+$/.test(value.trim()) ? Number(value.trim()) : undefined

/** The body, or OutboundTooLarge past `maxBytes`; the socket is released either way. */
const readBody = async (body: Dispatcher.ResponseData["body"], announced: number | undefined, maxBytes: number) => {
  // the HTTP parser stops at an announced length: one within the bound is read in one go
  if (announced !== undefined && announced <= maxBytes) return new Uint8Array(await body.arrayBuffer())
  if (announced !== undefined) {
    body.destroy()
    return undefined
  }
  const chunks: Array<Buffer> = []
  let size = 0
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxBytes) {
      body.destroy()
      return undefined
    }
    chunks.push(chunk)
  }
  return new Uint8Array(Buffer.concat(chunks, size))
}

/**
 * A request whose answer is read whole, sent on `dispatcher` in one asynchronous step: most
 * provider calls are this, and the platform client's general machinery (a scoped request, a
 * streamed body, a raced timeout) cost more than the call itself. Interruption aborts it.
 */
const sendBuffered = (dispatcher: Dispatcher) =>
(request: HttpClientRequest.HttpClientRequest, options: BufferedOptions) =>
  Effect.async<BufferedAnswer, OutboundFailure>((resume) => {
    const controller = new AbortController()
    let settled = false
    const settle = (outcome: Effect.Effect<BufferedAnswer, OutboundFailure>) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resume(outcome)
    }
    const timer = setTimeout(() => {
      settle(Effect.fail(new OutboundTimeout()))
      controller.abort()
    }, options.timeoutMs)
    let url: URL
    try {
      url = new URL(request.url)
    } catch (cause) {
      settle(Effect.fail(new OutboundUnreachable({ cause, neverConnected: true })))
      return
    }
    const body = request.body._tag === "Uint8Array" ? request.body.body : undefined
    dispatcher.request({
      method: request.method,
      origin: url.origin,
      path: url.pathname + url.search,
      headers: request.headers,
      body: body ?? null,
      signal: controller.signal,
      // the timer above bounds the whole exchange
      headersTimeout: 0,
      bodyTimeout: 0
    }).then(
      async (response: Dispatcher.ResponseData<null>) => {
        const headers = headerRecord(response.headers)
        const bytes = await readBody(response.body, contentLengthOf(headers["content-length"]), options.maxBytes)
        settle(
          bytes === undefined
            ? Effect.fail(new OutboundTooLarge({ status: response.statusCode }))
            : Effect.succeed({ status: response.statusCode, headers, bytes })
        )
      }
    ).catch((cause: unknown) => settle(Effect.fail(new OutboundUnreachable({ cause, neverConnected: neverConnected(cause) }))))
    return Effect.sync(() => {
      settled = true
      clearTimeout(timer)
      controller.abort()
    })
  })

/**
 * Outbound HTTP over two dispatchers: one for URLs the operator or a user configured (the
 * operator's allowlist applies), one for links taken from provider data (public addresses only).
 * Each gives the platform's client and the buffered send.
 */
export const outboundHttpOver = (dispatcher: Dispatcher, foreignDispatcher: Dispatcher) => ({
  client: untraced(NodeHttpClient.makeUndici(dispatcher)) as HttpClient.HttpClient,
  send: sendBuffered(dispatcher),
  foreignClient: untraced(NodeHttpClient.makeUndici(foreignDispatcher)) as HttpClient.HttpClient,
  foreignSend: sendBuffered(foreignDispatcher)
})

const guardedAgent = (allowlist: ReadonlyArray<string>) =>
  Effect.acquireRelease(
    Effect.sync(() => new Agent({ connect: { lookup: guardedLookup(allowlist) } })),
    (agent) => Effect.promise(() => agent.destroy())
  )

/**
 * The HTTP clients for calls to third parties (providers, their token endpoints, MCP servers):
 * undici with keep-alive, every address checked when connecting. Tests may provide their own
 * dispatchers (`outboundHttpOver`).
 */
export class OutboundHttp extends Effect.Service<OutboundHttp>()("Switchyard/OutboundHttp", {
  scoped: Effect.gen(function*() {
    const config = yield* SwitchyardConfig
    return outboundHttpOver(yield* guardedAgent(config.outboundAllowlist), yield* guardedAgent([]))
  })
}) {}
