import { HttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import * as Net from "node:net"

/**
 * Raw HTTP against the test server (the HttpClient that `NodeHttpServer.layerTest`
 * provides already targets it), for what the derived client cannot send or hides:
 * malformed bodies, odd headers, exact status codes, headers and body keys.
 */
export interface WireResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly json: unknown
}

/** A response as the wire carried it, from its status, headers and body text. */
export const wireResponse = (status: number, headers: Readonly<Record<string, string>>, text: string): WireResponse => {
  let json: unknown = undefined
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status, headers, text, json }
}

export const send = (request: HttpClientRequest.HttpClientRequest) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(request)
    return wireResponse(response.status, response.headers, yield* response.text)
  }).pipe(Effect.orDie)

/** HTTP Basic with the API key as username and an empty password (spec, Authentication). */
export const withKey = (key: string) => HttpClientRequest.basicAuth(key, "")

export const withAuthorization = (value: string) => HttpClientRequest.setHeader("authorization", value)

export const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64")

/** A JSON body given as raw text: sent as is, however malformed. */
export const jsonText = (text: string) => HttpClientRequest.bodyText(text, "application/json")

/** A JSON body from any value, with no schema in the way. */
export const json = (value: unknown) => HttpClientRequest.bodyUnsafeJson(value)

export interface ErrorBody {
  readonly statusCode: number
  readonly message: string
  readonly timestamp: string
}

/**
 * The documented error shape (spec, Errors): a JSON body with exactly `statusCode`,
 * `message` and `timestamp`, `statusCode` equal to the HTTP status, a current date-time.
 * With `providerDetails`, a 400 may also carry the failed provider call (`data`, `provider_errors`).
 */
export const expectErrorBody = (
  response: WireResponse,
  status: number,
  options: { readonly providerDetails?: boolean } = {}
): ErrorBody => {
  expect({ status: response.status, body: response.text }).toMatchObject({ status })
  expect(response.headers["content-type"]).toMatch(/^application\/json\b/)
  expect(response.json).toBeTypeOf("object")
  expect(response.json).not.toBeNull()
  const body = response.json as Record<string, unknown>
  const optional = options.providerDetails === true && status === 400 ? ["data", "provider_errors"] : []
  expect(Object.keys(body).filter((key) => !optional.includes(key)).sort()).toEqual(["message", "statusCode", "timestamp"])
  expect(body.statusCode).toBe(status)
  expect(body.message).toBeTypeOf("string")
  expect((body.message as string).length).toBeGreaterThan(0)
  expect(body.timestamp).toBeTypeOf("string")
  const at = Date.parse(body.timestamp as string)
  expect(Number.isNaN(at)).toBe(false)
  expect(new Date(at).toISOString()).toBe(body.timestamp)
  expect(Math.abs(Date.now() - at)).toBeLessThan(60_000)
  return body as unknown as ErrorBody
}

/** The test server's port (the socket that `NodeServerTest` opened). */
export const serverPort = Effect.map(HttpServer.HttpServer, (server) =>
  server.address._tag === "TcpAddress" ? server.address.port : Number.NaN)

/**
 * Raw bytes to the test server over node:net, for requests no HTTP client sends (oversized or
 * invalid headers, no Content-Type): the answer as the server wrote it, read until it closes
 * (send `Connection: close` with a request the server would otherwise keep open).
 */
export const sendRaw = (head: string, body: Uint8Array | string = "") =>
  Effect.flatMap(serverPort, (port) =>
    Effect.async<WireResponse>((resume) => {
      const chunks: Array<Buffer> = []
      // not half-closed: Node's server drops a request whose client ended its side first
      const socket = Net.connect(port, "127.0.0.1", () => {
        socket.write(head)
        socket.write(body)
      })
      socket.on("data", (chunk) => chunks.push(chunk))
      // a write refused once the server has answered and closed is expected; the answer is read
      socket.on("error", () => undefined)
      socket.on("close", () => {
        const text = Buffer.concat(chunks).toString("utf8")
        const split = text.indexOf("\r\n\r\n")
        const lines = text.slice(0, split < 0 ? text.length : split).split("\r\n")
        const status = Number(lines[0]?.split(" ")[1])
        const headers = Object.fromEntries(lines.slice(1).map((line) => {
          const colon = line.indexOf(":")
          return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]
        }))
        resume(Effect.succeed(wireResponse(status, headers, split < 0 ? "" : text.slice(split + 4))))
      })
      return Effect.sync(() => socket.destroy())
    }))
