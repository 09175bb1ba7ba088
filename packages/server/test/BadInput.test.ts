import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Stream } from "effect"
import { MAX_JSON_DEPTH } from "../src/edge/RequestGuards.js"
import { accountBody, countAccounts, freshProject } from "./support/Fixtures.js"
import { TestServer } from "./support/TestServer.js"
import { base64, expectErrorBody, json, jsonText, send, sendRaw, withKey } from "./support/Wire.js"

/** A fresh project, its key, and a raw sender authenticated with that key. */
const setup = Effect.gen(function*() {
  const project = yield* freshProject
  const authed = (request: HttpClientRequest.HttpClientRequest) => send(request.pipe(withKey(project.key)))
  return { ...project, authed }
})

const validBody = (): Record<string, unknown> => ({ ...accountBody() })

const without = (key: string) => {
  const body = validBody()
  delete body[key]
  return body
}

layer(TestServer(), { excludeTestServices: true })("bad input", (it) => {
  it.effect("a valid raw POST is accepted: the failures below are about their input alone", () =>
    Effect.gen(function*() {
      const { authed, projectId } = yield* setup
      const response = yield* authed(HttpClientRequest.post("/v2/accounts").pipe(json(validBody())))
      expect(response.status).toBe(201)
      expect(response.json).toMatchObject({ name: "Acme Recruiting" })
      expect(yield* countAccounts(projectId)).toBe(1)
    }))

  it.effect("malformed JSON bodies are 400 and store nothing", () =>
    Effect.gen(function*() {
      const { authed, client, projectId } = yield* setup
      const account = yield* client.accounts.create_account({ payload: accountBody() })
      const before = yield* countAccounts(projectId)
      for (const text of ["{not json", "{\"name\": \"x\",}", "[1, 2", "nul", "{\"connector_key\": \"greenhouse\""]) {
        const created = yield* authed(HttpClientRequest.post("/v2/accounts").pipe(jsonText(text)))
        const body = expectErrorBody(created, 400)
        expect(body.message).toMatch(/JSON/)
        const patched = yield* authed(HttpClientRequest.patch(`/v2/accounts/${account.id}`).pipe(jsonText(text)))
        expectErrorBody(patched, 400)
      }
      expect(yield* countAccounts(projectId)).toBe(before)
      expect(yield* client.accounts.get_account({ path: { id: account.id }, urlParams: {} })).toEqual(account)
    }))

  it.effect("create with a wrong type, a missing field or an unknown property is 400 naming the field", () =>
    Effect.gen(function*() {
      const { authed, projectId } = yield* setup
      const cases: ReadonlyArray<readonly [string, unknown, string]> = [
        ["name is a number", { ...validBody(), name: 5 }, "name"],
        ["owner_id is an array", { ...validBody(), owner_id: ["o"] }, "owner_id"],
        ["settings is a string", { ...validBody(), settings: "subdomain=acme" }, "settings"],
        ["connector_key has capitals and spaces", { ...validBody(), connector_key: "Green House" }, "connector_key"],
        ["name is empty", { ...validBody(), name: "" }, "name"],
        [
          "connector_profile_id is not a UUID",
          { ...validBody(), connector_profile_id: "not-a-uuid" },
          "connector_profile_id"
        ],
        ["name is missing", without("name"), "name"],
        ["owner_id is missing", without("owner_id"), "owner_id"],
        ["connector_key is missing", without("connector_key"), "connector_key"],
        ["credentials are missing", without("credentials"), "credentials"],
        ["an unknown property", { ...validBody(), nickname: "acme" }, "nickname"],
        ["the body is an array", [validBody()], ""],
        ["the body is null", null, ""]
      ]
      for (const [label, payload, field] of cases) {
        const response = yield* authed(HttpClientRequest.post("/v2/accounts").pipe(json(payload)))
        expect({ label, status: response.status }).toEqual({ label, status: 400 })
        const body = expectErrorBody(response, 400)
        if (field.length > 0) {
          expect({ label, message: body.message }).toEqual({ label, message: expect.stringContaining(field) })
        }
      }
      expect(yield* countAccounts(projectId)).toBe(0)
    }))

  it.effect("a credentials value of the wrong type is 400 and never echoed back", () =>
    Effect.gen(function*() {
      const { authed, projectId } = yield* setup
      const secret = "my-secret-string-value"
      for (
        const credentials of [secret, [secret], [{ api_key: secret }], `${secret} ${"x".repeat(200)}`, 123456789]
      ) {
        const request = HttpClientRequest.post("/v2/accounts").pipe(json({ ...validBody(), credentials }))
        const response = yield* authed(request)
        const body = expectErrorBody(response, 400)
        expect(body.message).toContain("credentials")
        expect(response.text).not.toContain(secret)
        expect(response.text).not.toContain("123456789")
      }
      expect(yield* countAccounts(projectId)).toBe(0)
    }))

  it.effect("a value under a credentials key is never echoed, wherever it sits in a rejected body", () =>
    Effect.gen(function*() {
      const { authed, projectId } = yield* setup
      const secret = "my-secret-string-value"
      const bodies: ReadonlyArray<readonly [string, unknown]> = [
        ["a long array body", [{ ...validBody(), credentials: { api_key: secret } }]],
        ["a short array body", [{ credentials: { api_key: secret } }]],
        ["credentials nested under an unknown property", { account: { credentials: { api_key: secret } } }],
        ["credentials nested under a wrongly typed field", { ...validBody(), name: { credentials: secret } }]
      ]
      const leaks: Array<string> = []
      for (const [label, payload] of bodies) {
        const response = yield* authed(HttpClientRequest.post("/v2/accounts").pipe(json(payload)))
        expectErrorBody(response, 400)
        if (response.text.includes(secret)) leaks.push(`${label}: ${response.text}`)
      }
      expect(leaks).toEqual([])
      expect(yield* countAccounts(projectId)).toBe(0)
    }))

  it.effect("patch with an invalid status, wrong types or an unknown property is 400 naming the field", () =>
    Effect.gen(function*() {
      const { authed, client } = yield* setup
      const account = yield* client.accounts.create_account({ payload: accountBody() })
      const cases: ReadonlyArray<readonly [string, unknown, string]> = [
        ["unknown status", { status: "bogus" }, "status"],
        ["status is a number", { status: 1 }, "status"],
        ["status_reasons is an object", { status_reasons: { code: "x", description: "y" } }, "status_reasons"],
        ["a reason without code", { status_reasons: [{ description: "y" }] }, "code"],
        ["a reason with an empty code", { status_reasons: [{ code: "", description: "y" }] }, "code"],
        [
          "a reason with a bad timestamp",
          { status_reasons: [{ code: "c", description: "d", timestamp: "yesterday" }] },
          "timestamp"
        ],
        ["an unknown property", { status: "active", colour: "blue" }, "colour"]
      ]
      for (const [label, payload, field] of cases) {
        const response = yield* authed(HttpClientRequest.patch(`/v2/accounts/${account.id}`).pipe(json(payload)))
        expect({ label, status: response.status }).toEqual({ label, status: 400 })
        const body = expectErrorBody(response, 400)
        expect({ label, message: body.message }).toEqual({ label, message: expect.stringContaining(field) })
      }
      // Nothing was applied: not even the valid `status` beside the unknown property.
      expect(yield* client.accounts.get_account({ path: { id: account.id }, urlParams: {} })).toEqual(account)
    }))

  it.effect("an empty PATCH body is 422", () =>
    Effect.gen(function*() {
      const { authed, client } = yield* setup
      const account = yield* client.accounts.create_account({ payload: accountBody() })
      const response = yield* authed(HttpClientRequest.patch(`/v2/accounts/${account.id}`).pipe(json({})))
      const body = expectErrorBody(response, 422)
      expect(body.message).toMatch(/status/)
      expect(yield* client.accounts.get_account({ path: { id: account.id }, urlParams: {} })).toEqual(account)
    }))

  it.effect("out-of-range or non-numeric page and page_size are 400 naming the parameter", () =>
    Effect.gen(function*() {
      const { authed, client } = yield* setup
      yield* client.accounts.create_account({ payload: accountBody() })
      const cases: ReadonlyArray<readonly [string, RegExp]> = [
        ["page=0", /\bpage\b/],
        ["page=-1", /\bpage\b/],
        ["page=abc", /\bpage\b/],
        ["page=1.5", /\bpage\b/],
        ["page_size=0", /\bpage_size\b/],
        ["page_size=101", /\bpage_size\b/],
        ["page_size=abc", /\bpage_size\b/],
        ["page=1&page_size=1000", /\bpage_size\b/]
      ]
      for (const [query, mentions] of cases) {
        const response = yield* authed(HttpClientRequest.get(`/v2/accounts?${query}`))
        expect({ query, status: response.status }).toEqual({ query, status: 400 })
        const body = expectErrorBody(response, 400)
        expect({ query, message: body.message }).toEqual({ query, message: expect.stringMatching(mentions) })
      }
      // The limits themselves are accepted.
      for (const query of ["page=1", "page_size=1", "page_size=100"]) {
        expect({ query, status: (yield* authed(HttpClientRequest.get(`/v2/accounts?${query}`))).status })
          .toEqual({ query, status: 200 })
      }
    }))

  it.effect("a connector_profile_id filter that is not a UUID is 400", () =>
    Effect.gen(function*() {
      const { authed } = yield* setup
      for (const query of ["connector_profile_id=not-a-uuid", `connector_profile_id=${crypto.randomUUID()},nope`]) {
        const body = expectErrorBody(yield* authed(HttpClientRequest.get(`/v2/accounts?${query}`)), 400)
        expect(body.message).toContain("connector_profile_id")
      }
      const ok = yield* authed(HttpClientRequest.get(`/v2/accounts?connector_profile_id=${crypto.randomUUID()}`))
      expect(ok.status).toBe(200)
      expect(ok.json).toEqual([])
    }))

  it.effect("an unknown expand value is 400 on list, get and patch", () =>
    Effect.gen(function*() {
      const { authed, client } = yield* setup
      const account = yield* client.accounts.create_account({ payload: accountBody() })
      const requests = [
        HttpClientRequest.get("/v2/accounts?expand=bogus"),
        HttpClientRequest.get("/v2/accounts?expand=connector,bogus"),
        HttpClientRequest.get(`/v2/accounts/${account.id}?expand=bogus`),
        HttpClientRequest.patch(`/v2/accounts/${account.id}?expand=bogus`).pipe(json({ status: "inactive" }))
      ]
      for (const request of requests) {
        const body = expectErrorBody(yield* authed(request), 400)
        expect(body.message).toContain("expand")
      }
      // The PATCH with a bad expand was not applied.
      expect((yield* client.accounts.get_account({ path: { id: account.id }, urlParams: {} })).status).toBe("active")
      const ok = yield* authed(HttpClientRequest.get(`/v2/accounts/${account.id}?expand=connector,last_request`))
      expect(ok.status).toBe(200)
    }))

  it.effect("an unknown route is 404 in the error shape", () =>
    Effect.gen(function*() {
      const { authed } = yield* setup
      for (
        const request of [
          HttpClientRequest.get("/v2/nope"),
          HttpClientRequest.get("/v3/accounts"),
          HttpClientRequest.get("/v2/accounts/a/b")
        ]
      ) {
        const body = expectErrorBody(yield* authed(request), 404)
        expect(body.message).toContain(new URL(request.url, "http://x").pathname)
      }
      expectErrorBody(yield* send(HttpClientRequest.get("/nothing-here")), 404)
    }))

  it.effect("a method the path does not allow is 405 in the error shape, with Allow", () =>
    Effect.gen(function*() {
      const { authed, key } = yield* setup
      const cases: ReadonlyArray<readonly [HttpClientRequest.HttpClientRequest, string]> = [
        [HttpClientRequest.put("/v2/accounts/some-id").pipe(json({ status: "active" })), "GET, PATCH, DELETE"],
        [HttpClientRequest.del("/v2/accounts"), "GET, POST"],
        // the router reads /v2/accounts/filters as an account id too
        [HttpClientRequest.post("/v2/accounts/filters"), "GET, PATCH, DELETE"],
        [HttpClientRequest.get("/mcp").pipe(HttpClientRequest.setHeader("x-account-id", "any")), "POST"]
      ]
      for (const [request, allow] of cases) {
        const response = yield* send(request.pipe(withKey(key)))
        const body = expectErrorBody(response, 405)
        expect({ url: request.url, allow: response.headers.allow }).toEqual({ url: request.url, allow })
        expect(body.message).toContain(new URL(request.url, "http://x").pathname)
      }
      expect((yield* authed(HttpClientRequest.get("/v2/accounts"))).status).toBe(200)
    }))

  it.effect("an unknown account id is 404 in the error shape", () =>
    Effect.gen(function*() {
      const { authed } = yield* setup
      for (
        const request of [
          HttpClientRequest.get("/v2/accounts/no-such-account"),
          HttpClientRequest.patch("/v2/accounts/no-such-account").pipe(json({ status: "active" })),
          HttpClientRequest.del("/v2/accounts/no-such-account")
        ]
      ) {
        const body = expectErrorBody(yield* authed(request), 404)
        expect(body.message).toContain("no-such-account")
      }
    }))

  it.effect("NUL and unpaired surrogates never reach storage: 404 in a path id, 400 naming the parameter or body path", () =>
    Effect.gen(function*() {
      const { authed, client, projectId } = yield* setup
      const account = yield* client.accounts.create_account({ payload: accountBody() })
      for (const path of ["/v2/accounts/%E2%80%AE%00", "/v2/connectors/%00/versions", "/v2/accounts/%ED%A0%80", "/v2/accounts/%E2%80"]) {
        const body = expectErrorBody(yield* authed(HttpClientRequest.get(path)), 404)
        expect({ path, message: body.message }).toEqual({ path, message: expect.stringContaining("path parameter id") })
      }
      const queries: ReadonlyArray<readonly [string, string]> = [
        ["/v2/accounts?search=a%00b", "query parameter search"],
        ["/v2/connectors?key=%00", "query parameter key"],
        [`/v2/accounts/${account.id}?expand=%00`, "query parameter expand"],
        // the router also ends the path at `;`
        ["/v2/accounts;search=%00", "query parameter search"]
      ]
      for (const [path, where] of queries) {
        const body = expectErrorBody(yield* authed(HttpClientRequest.get(path)), 400)
        expect({ path, message: body.message }).toEqual({ path, message: expect.stringContaining(where) })
      }
      const writes: ReadonlyArray<readonly [HttpClientRequest.HttpClientRequest, string]> = [
        [HttpClientRequest.post("/v2/accounts").pipe(json({ ...validBody(), name: "a\u0000b" })), "body.name: contains a NUL"],
        [HttpClientRequest.post("/v2/accounts").pipe(json({ ...validBody(), owner_name: "x\ud800" })), "body.owner_name: contains an unpaired surrogate (U+D800)"],
        [HttpClientRequest.post("/v2/accounts").pipe(json({ ...validBody(), settings: { "k\u0000": "v" } })), "body.settings.k\\u0000: the key contains a NUL"],
        [HttpClientRequest.post("/v2/connectors").pipe(json({ yaml: "key: nul\u0000\nversion: 1.0.0\n" })), "body.yaml: contains a NUL"],
        [HttpClientRequest.post("/v2/connectors").pipe(json({ yaml: "key: lone\ud800\nversion: 1.0.0\n" })), "body.yaml: contains an unpaired surrogate"],
        [
          HttpClientRequest.patch(`/v2/accounts/${account.id}`).pipe(
            json({ status_reasons: [{ code: "c", description: "\udc00 alone" }] })
          ),
          "body.status_reasons.0.description"
        ],
        [HttpClientRequest.post("/v2/connector_profiles").pipe(json({ connector_key: "greenhouse", label: "\u0000" })), "body.label"]
      ]
      for (const [request, where] of writes) {
        const body = expectErrorBody(yield* authed(request), 400)
        expect({ url: request.url, message: body.message }).toEqual({ url: request.url, message: expect.stringContaining(where) })
      }
      // without a key, the key is what is wrong: nothing is learnt from the guards
      expectErrorBody(yield* send(HttpClientRequest.get("/v2/accounts/%00")), 401)
      expectErrorBody(yield* send(HttpClientRequest.post("/v2/accounts").pipe(json({ ...validBody(), name: "\u0000" }))), 401)
      // a pair of surrogates is one character, not a problem
      const emoji = yield* authed(HttpClientRequest.post("/v2/accounts").pipe(json({ ...validBody(), name: "Acme \ud83d\ude00" })))
      expect(emoji.status).toBe(201)
      expect(yield* countAccounts(projectId)).toBe(2)
      expect(yield* client.accounts.get_account({ path: { id: account.id }, urlParams: {} })).toEqual(account)
    }))

  it.effect("a body that is not JSON is 415 on every JSON endpoint; +json and a missing Content-Type are read as JSON", () =>
    Effect.gen(function*() {
      const { authed, client, key, projectId } = yield* setup
      const account = yield* client.accounts.create_account({ payload: accountBody() })
      const headers = { "x-account-id": account.id }
      const targets: ReadonlyArray<HttpClientRequest.HttpClientRequest> = [
        HttpClientRequest.post("/v2/accounts"),
        HttpClientRequest.patch(`/v2/accounts/${account.id}`),
        HttpClientRequest.post("/v2/connectors"),
        HttpClientRequest.post("/v2/connector_profiles"),
        HttpClientRequest.post("/actions/rpc").pipe(HttpClientRequest.setHeaders(headers)),
        HttpClientRequest.post("/unified/ats/candidates").pipe(HttpClientRequest.setHeaders(headers)),
        HttpClientRequest.post("/unified/ats/applications/1/documents/upload").pipe(HttpClientRequest.setHeaders(headers))
      ]
      const form = new FormData()
      form.append("name", "Acme")
      const bodies: ReadonlyArray<(request: HttpClientRequest.HttpClientRequest) => HttpClientRequest.HttpClientRequest> = [
        HttpClientRequest.bodyFormData(form),
        HttpClientRequest.bodyText(JSON.stringify(validBody()), "multipart/form-data"),
        HttpClientRequest.bodyText(JSON.stringify(validBody()), "text/plain"),
        HttpClientRequest.bodyText("name=Acme", "application/x-www-form-urlencoded")
      ]
      for (const target of targets) {
        for (const withBody of bodies) {
          const request = withBody(target)
          const response = yield* authed(request)
          const body = expectErrorBody(response, 415)
          expect({ url: request.url, message: body.message }).toEqual({
            url: request.url,
            message: expect.stringContaining("application/json")
          })
        }
      }
      // a dot segment is an id to the router, not a step up (HTTP clients normalize it away: sent raw)
      const dotted = yield* sendRaw(
        `POST /unified/ats/applications/%2E%2E/move HTTP/1.1\r\nHost: x\r\nAuthorization: Basic ${base64(`${key}:`)}\r\n` +
          `x-account-id: ${account.id}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 4\r\n` +
          "Connection: close\r\n\r\n",
        "--b-"
      )
      expectErrorBody(dotted, 415)
      expect(yield* countAccounts(projectId)).toBe(1)
      expectErrorBody(yield* send(bodies[0]!(targets[0]!)), 401)
      const merged = yield* authed(
        HttpClientRequest.post("/v2/accounts").pipe(HttpClientRequest.bodyText(JSON.stringify(validBody()), "application/vnd.switchyard+json"))
      )
      expect(merged.status).toBe(201)
      const text = JSON.stringify(validBody())
      const bare = yield* sendRaw(
        `POST /v2/accounts HTTP/1.1\r\nHost: x\r\nAuthorization: Basic ${base64(`${key}:`)}\r\n` +
          `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n`,
        text
      )
      expect({ status: bare.status, body: bare.text }).toMatchObject({ status: 201 })
      expect(yield* countAccounts(projectId)).toBe(3)
    }))

  it.effect(`JSON nested deeper than ${MAX_JSON_DEPTH} levels is 400 before it is parsed`, () =>
    Effect.gen(function*() {
      const { authed, client, projectId } = yield* setup
      const account = yield* client.accounts.create_account({ payload: accountBody() })
      const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`
      for (const depth of [MAX_JSON_DEPTH + 1, 100_000]) {
        const requests = [
          HttpClientRequest.post("/v2/accounts").pipe(jsonText(`{"name": ${nested(depth)}}`)),
          HttpClientRequest.post("/actions/rpc").pipe(
            HttpClientRequest.setHeader("x-account-id", account.id),
            jsonText(`{"action": "x", "query": {"q": ${nested(depth)}}}`)
          ),
          // unterminated: refused by depth alone, never parsed
          HttpClientRequest.post("/v2/connectors").pipe(jsonText(`{"yaml": ${"{\"a\":".repeat(depth)}`))
        ]
        for (const request of requests) {
          const body = expectErrorBody(yield* authed(request), 400)
          expect(body.message).toContain(`deeper than ${MAX_JSON_DEPTH}`)
        }
      }
      // brackets inside strings do not count, and the limit itself reaches the schema
      const inString = yield* authed(HttpClientRequest.post("/v2/accounts").pipe(json({ ...validBody(), name: "[{".repeat(90) })))
      expect(inString.status).toBe(201)
      const atLimit = JSON.stringify({ ...validBody(), name: "NAME" }).replace("\"NAME\"", nested(MAX_JSON_DEPTH - 1))
      const decoded = yield* authed(HttpClientRequest.post("/v2/accounts").pipe(jsonText(atLimit)))
      expect(expectErrorBody(decoded, 400).message).toMatch(/^name: Expected string/)
      expect(yield* countAccounts(projectId)).toBe(2)
    }))

  it.effect("a body over 10 MiB is 413, with or without Content-Length, and stores nothing", () =>
    Effect.gen(function*() {
      const { authed, projectId } = yield* setup
      const big = JSON.stringify({ ...validBody(), name: "x".repeat(10 * 1024 * 1024) })
      const sized = yield* authed(HttpClientRequest.post("/v2/accounts").pipe(jsonText(big)))
      expect(expectErrorBody(sized, 413).message).toContain("10 MiB")
      const streamed = yield* authed(
        HttpClientRequest.post("/v2/accounts").pipe(
          HttpClientRequest.bodyStream(Stream.make(new TextEncoder().encode(big)), { contentType: "application/json" })
        )
      )
      expect(expectErrorBody(streamed, 413).message).toContain("10 MiB")
      expect(yield* countAccounts(projectId)).toBe(0)
    }))

  it.effect("what Node's parser refuses still answers in the error shape: 431 past 16 KiB of headers or URL, 400 for bad HTTP", () =>
    Effect.gen(function*() {
      const longHeader = yield* sendRaw(`GET /v2/accounts HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20 * 1024)}\r\n\r\n`)
      expect(expectErrorBody(longHeader, 431).message).toContain("16 KiB")
      const longUrl = yield* sendRaw(`GET /v2/accounts?search=${"a".repeat(20 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`)
      expectErrorBody(longUrl, 431)
      for (const head of ["NOT HTTP AT ALL\r\n\r\n", "GET /v2/accounts HTTP/1.1\r\nHost: x\r\nX-Account-Id: a\u0000b\r\n\r\n"]) {
        expectErrorBody(yield* sendRaw(head), 400)
      }
    }))
})
