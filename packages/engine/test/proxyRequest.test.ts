import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { type ProxyCall, type RunContext, sendProxyRequest } from "../src/index.js"
import { proxyTarget } from "../src/proxyRequest.js"
import { connector, connectorYaml, type FakeHandler, fakeTransport, json } from "./support/fakeTransport.js"

const credentials = { subdomain: "acme", apiKey: "key-123456", token: "tok-abcdef" }

const basic = connector(connectorYaml({
  baseUrl: "https://${credentials.subdomain}.example.com/api/v1",
  authentication: [
    "  - basic_auth:",
    "      type: custom",
    "      authorization:",
    "        type: basic",
    "        username: $.credentials.apiKey",
    "        password: x"
  ].join("\n"),
  actions: "  []"
}))

const queryKey = connector(connectorYaml({
  baseUrl: "https://api.example.com",
  authentication: [
    "  - key:",
    "      type: custom",
    "      authorization:",
    "        type: apiKey",
    "        in: query",
    "        key: api_key",
    "        value: $.credentials.token"
  ].join("\n"),
  actions: "  []"
}))

const send = (parsed = basic, call: ProxyCall, handler: FakeHandler, context: Partial<RunContext> = {}) => {
  const transport = fakeTransport(handler)
  const effect = sendProxyRequest(parsed, call, { credentials, ...context }).pipe(Effect.provide(transport.layer))
  return { effect, requests: transport.requests }
}

describe("proxy requests", () => {
  it.effect("apply the connector's authentication over the caller's, and hide credentials and cookies in the answer", () =>
    Effect.gen(function*() {
      const token = Buffer.from(`${credentials.apiKey}:x`).toString("base64")
      const { effect, requests } = send(basic, {
        method: "POST",
        path: "/employees?x=1",
        headers: { Authorization: "Bearer caller", "X-Trace": "t1", Host: "evil.example", Cookie: "s=1" },
        body: { name: "Ada" }
      }, (request) =>
        json({ echoed: request.headers.authorization, key: credentials.apiKey }, 201, {
          "set-cookie": "session=1",
          "www-authenticate": "Basic",
          "x-request-id": `r-${credentials.apiKey}`
        }))
      const answer = yield* effect
      expect(requests).toHaveLength(1)
      const [request] = requests
      expect(request).toMatchObject({ method: "POST", url: "https://acme.example.com/api/v1/employees?x=1", body: { _tag: "Json", value: { name: "Ada" } } })
      expect(request!.headers).toEqual({ authorization: `Basic ${token}`, "x-trace": "t1" })
      expect(answer.status).toBe(201)
      expect(answer.headers).toEqual({ "content-type": "application/json", "x-request-id": "r-[REDACTED]" })
      expect(JSON.stringify(answer.body)).not.toContain(credentials.apiKey)
      expect(JSON.stringify(answer.body)).not.toContain(token)
    }))

  it.effect("keep a query credential the connector's: the caller's value of its parameter is dropped", () =>
    Effect.gen(function*() {
      const { effect, requests } = send(queryKey, { method: "GET", path: "/items?api_key=mine&page=2" }, () => json([]))
      yield* effect
      const url = new URL(requests[0]!.url)
      expect(url.searchParams.getAll("api_key")).toEqual([credentials.token])
      expect(url.searchParams.get("page")).toBe("2")
    }))

  it.effect("fail a provider 429 or 5xx as the transport would; refuse a body on GET and headers HTTP cannot carry", () =>
    Effect.gen(function*() {
      const limited = yield* Effect.flip(send(basic, { method: "GET", path: "/x" }, () => json({}, 429, { "retry-after": "7" })).effect)
      expect(limited).toMatchObject({ _tag: "ProviderTransportError", reason: "rate_limited", retryAfter: 7 })
      const broken = yield* Effect.flip(send(basic, { method: "DELETE", path: "/x" }, () => json({}, 500)).effect)
      expect(broken).toMatchObject({ _tag: "ProviderTransportError", reason: "unavailable" })
      const bodyOnGet = send(basic, { method: "GET", path: "/x", body: { a: 1 } }, () => json({}))
      expect(yield* Effect.flip(bodyOnGet.effect)).toMatchObject({ _tag: "ActionInputError", issues: [{ input: "body" }] })
      expect(bodyOnGet.requests).toHaveLength(0)
      for (const headers of [{ "x-a": "1\r\nx-b: 2" }, { "bad name": "1" }, { "x-a\n": "1" }]) {
        const refused = send(basic, { method: "GET", path: "/x", headers }, () => json({}))
        expect(yield* Effect.flip(refused.effect)).toMatchObject({ _tag: "ActionInputError", issues: [{ input: "headers" }] })
        expect(refused.requests).toHaveLength(0)
      }
    }))
})

describe("proxy targets", () => {
  const base = "https://api.example.com/v1"
  const target = (call: { url?: string; path?: string }) =>
    Either.match(proxyTarget(base, call), { onLeft: (error) => `refused ${error.issues[0]!.input}`, onRight: (url) => url.toString() })

  it("stay under the base URL's origin and path", () => {
    expect(target({})).toBe("https://api.example.com/v1")
    expect(target({ path: "/users?page=2" })).toBe("https://api.example.com/v1/users?page=2")
    expect(target({ path: "users" })).toBe("https://api.example.com/v1/users")
    expect(target({ url: "https://api.example.com/v1/users", path: "/1" })).toBe("https://api.example.com/v1/users/1")
    expect(target({ path: "/a%20b/%C3%A9" })).toBe("https://api.example.com/v1/a%20b/%C3%A9")
    expect(target({ url: "https://api.example.com/v10/users" })).toBe("refused url")
    expect(target({ url: "https://api.example.com/" })).toBe("refused url")
    expect(target({ url: "http://api.example.com/v1" })).toBe("refused url")
    expect(target({ url: "https://api.example.com.evil.io/v1" })).toBe("refused url")
    expect(target({ url: "https://u:p@api.example.com/v1" })).toBe("refused url")
    expect(target({ url: "/v1/users" })).toBe("refused url")
    for (const path of ["..", "../x", "/x/../../y", "/%2e%2e/x", "/%2E./x", "/%252e%252e/x", "/a%2fb", "/a%5cb", "/a\\b", "//evil.io/x", "https://evil.io", "/a b", "/%zz"]) {
      expect({ path, target: target({ path }) }).toEqual({ path, target: "refused path" })
    }
  })
})
