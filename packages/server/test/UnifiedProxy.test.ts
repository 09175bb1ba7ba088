import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import type { ProxyRequest } from "@switchyard/api"
import { Effect } from "effect"
import { RequestLog } from "../src/features/requestLogs/RequestLog.js"
import { connectorYaml } from "./support/ConnectorYaml.js"
import { clientFor, freshProject, keyFor, otherProject } from "./support/Fixtures.js"
import { SandboxProviders, SandboxServer, sandboxGreenhouseAccount } from "./support/SandboxLayer.js"
import { expectErrorBody, json, send, withKey } from "./support/Wire.js"

/** A project with a Greenhouse account on the sandbox; `proxy` calls the unified proxy through the derived client. */
const setup = Effect.gen(function*() {
  const sandbox = yield* SandboxProviders
  const project = yield* freshProject
  const ats = yield* project.client.accounts.create_account({ payload: sandboxGreenhouseAccount(sandbox) })
  const proxy = (payload: ProxyRequest, accountId = ats.id) =>
    project.client.unified_proxy.proxy_request({ headers: { "x-account-id": accountId }, payload })
  const raw = (payload: unknown, key = project.key, accountId = ats.id) =>
    send(
      HttpClientRequest.post("/unified/proxy").pipe(
        json(payload),
        HttpClientRequest.setHeader("x-account-id", accountId),
        withKey(key)
      )
    )
  sandbox.faults.clear()
  sandbox.clearRequests()
  return { sandbox, project, ats, proxy, raw }
})

const atsRequests = (sandbox: { requests: (provider?: "ats") => ReadonlyArray<{ method: string; path: string; query: Record<string, unknown>; headers: Record<string, unknown>; body?: string }> }) =>
  sandbox.requests("ats")

layer(SandboxServer(4000), { excludeTestServices: true })("unified proxy", (it) => {
  it.effect("sends the caller's request with the account's authentication and answers the provider's status, headers and body", () =>
    Effect.gen(function*() {
      const { proxy, raw, sandbox } = yield* setup
      const answer = yield* proxy({ path: "/candidates?per_page=2", method: "GET" })
      expect(answer.status).toBe(200)
      expect(answer.body).toBeInstanceOf(Array)
      expect(answer.body as ReadonlyArray<unknown>).toHaveLength(2)
      expect(answer.headers["content-type"]).toMatch(/json/)
      const [seen] = atsRequests(sandbox)
      expect(seen).toMatchObject({ method: "GET", path: "/v1/candidates", query: { per_page: "2" } })
      // the sandbox answers 401 without Basic auth: the 200 is the account's authentication at work
      const text = JSON.stringify(answer)
      expect(text).not.toContain(sandbox.ats.apiKey)
      expect(text).not.toContain(Buffer.from(`${sandbox.ats.apiKey}:`).toString("base64"))

      // an absolute url under the base URL, the method in lower case as StackOne writes it
      const byUrl = yield* raw({ url: `${sandbox.ats.baseUrl}/candidates`, path: "?per_page=1", method: "get" })
      expect(byUrl.status).toBe(200)
      expect((byUrl.json as { body: ReadonlyArray<unknown> }).body).toHaveLength(1)
    }))

  it.effect("writes with the caller's method, headers and JSON body; caller credentials headers are dropped", () =>
    Effect.gen(function*() {
      const { proxy, sandbox } = yield* setup
      const candidates = (yield* proxy({ path: "/candidates?per_page=1" })).body as ReadonlyArray<{ id: number }>
      const id = candidates[0]!.id
      sandbox.clearRequests()
      const answer = yield* proxy({
        path: `/candidates/${id}`,
        method: "PATCH",
        headers: { "On-Behalf-Of": String(sandbox.ats.onBehalfOf), authorization: "Basic bm90LXRoZS1hY2NvdW50Og==", cookie: "a=b" },
        body: { first_name: "Ada" }
      })
      expect(answer.status).toBe(200)
      expect((answer.body as { first_name: string }).first_name).toBe("Ada")
      const [seen] = atsRequests(sandbox)
      expect(seen).toMatchObject({ method: "PATCH", path: `/v1/candidates/${id}` })
      expect(JSON.parse(seen!.body!)).toEqual({ first_name: "Ada" })
      expect(seen!.headers["on-behalf-of"]).toBe(String(sandbox.ats.onBehalfOf))
    }))

  it.effect("a provider 4xx is answered in the envelope, without authentication or cookie headers", () =>
    Effect.gen(function*() {
      const { project, proxy, sandbox } = yield* setup
      const missing = yield* proxy({ path: "/candidates/999999999" })
      expect(missing.status).toBe(404)
      // a wrong key: the provider's 401 and its www-authenticate challenge stay the provider's
      const wrong = yield* project.client.accounts.create_account({
        payload: sandboxGreenhouseAccount(sandbox, { credentials: { apiKey: "definitely-wrong-secret-key" } })
      })
      const refused = yield* proxy({ path: "/candidates" }, wrong.id)
      expect(refused.status).toBe(401)
      expect(Object.keys(refused.headers)).not.toContain("www-authenticate")
      expect(Object.keys(refused.headers)).not.toContain("set-cookie")
      expect(JSON.stringify(refused)).not.toContain("definitely-wrong-secret-key")
    }))

  it.effect("refuses targets outside the connector's base URL with a 400 naming url or path, sending nothing", () =>
    Effect.gen(function*() {
      const { raw, sandbox } = yield* setup
      const refusals: ReadonlyArray<readonly [unknown, string]> = [
        [{ url: "https://example.com/v1/candidates" }, "url"],
        [{ url: `${sandbox.ats.url}/admin` }, "url"],
        [{ url: `${sandbox.ats.baseUrl.replace("127.0.0.1", "localhost")}/candidates` }, "url"],
        [{ url: sandbox.ats.baseUrl.replace("http://", "http://user:pw@") }, "url"],
        [{ path: "../admin" }, "path"],
        [{ path: "/candidates/../../admin" }, "path"],
        [{ path: "/%2e%2e/admin" }, "path"],
        [{ path: "/%252e%252e/admin" }, "path"],
        [{ path: "/candidates%2f..%2fadmin" }, "path"],
        [{ path: "/..\\admin" }, "path"],
        [{ path: "//example.com/v1" }, "path"],
        [{ path: "https://example.com/v1" }, "path"],
        [{ url: `${sandbox.ats.baseUrl}/../admin` }, "url"]
      ]
      for (const [payload, field] of refusals) {
        const response = yield* raw({ method: "GET", ...(payload as object) })
        const body = expectErrorBody(response, 400)
        expect({ payload, message: body.message }).toMatchObject({ message: expect.stringContaining(field) })
        expect(response.text).not.toContain(sandbox.ats.apiKey)
      }
      expect(atsRequests(sandbox)).toHaveLength(0)
    }))

  it.effect("bad input is a 400 naming the field; a body over the bound too", () =>
    Effect.gen(function*() {
      const { raw } = yield* setup
      const cases: ReadonlyArray<readonly [unknown, string]> = [
        [{ method: "fetch", path: "/candidates" }, "method"],
        [{ method: "GET", path: 5 }, "path"],
        [{ method: "GET", path: "/candidates", surprise: true }, "surprise"],
        [{ method: "POST", path: "/candidates", body: "x".repeat(1024 * 1024 + 10) }, "body"],
        [{ method: "GET", path: "/candidates", body: { a: 1 } }, "body"],
        [{ method: "GET", headers: { a: 1 } }, "headers"]
      ]
      for (const [payload, field] of cases) {
        const body = expectErrorBody(yield* raw(payload), 400)
        expect({ payload: JSON.stringify(payload).slice(0, 80), message: body.message }).toMatchObject({
          message: expect.stringContaining(field)
        })
      }
    }))

  it.effect("the provider's 429 and 5xx answer 429 and 502 after the same retries as actions", () =>
    Effect.gen(function*() {
      const { proxy, sandbox } = yield* setup
      sandbox.faults.add({ match: { path: "/v1/candidates" }, fault: "status", status: 503, times: 2 })
      const recovered = yield* proxy({ path: "/candidates?per_page=1" })
      expect(recovered.status).toBe(200)
      expect(atsRequests(sandbox).filter((r) => r.path === "/v1/candidates")).toHaveLength(3)

      sandbox.clearRequests()
      sandbox.faults.add({ match: { path: "/v1/candidates" }, fault: "status", status: 500, times: 10 })
      const broken = yield* proxy({ path: "/candidates" }).pipe(Effect.flip)
      expect(broken._tag).toBe("BadGateway")
      expect(atsRequests(sandbox).filter((r) => r.path === "/v1/candidates")).toHaveLength(3)
      sandbox.faults.clear()

      // a POST is not repeated on a 500: still a 502
      sandbox.faults.add({ match: { path: "/v1/candidates", method: "POST" }, fault: "status", status: 500, times: 1 })
      const failedWrite = yield* proxy({ path: "/candidates", method: "POST", body: { first_name: "X" } }).pipe(Effect.flip)
      expect(failedWrite._tag).toBe("BadGateway")
      sandbox.faults.clear()

      sandbox.faults.add({ match: { path: "/v1/candidates" }, fault: "rate_limit", retryAfter: 30, times: 5 })
      const limited = yield* proxy({ path: "/candidates" }).pipe(Effect.flip)
      expect(limited._tag).toBe("TooManyRequests")
      sandbox.faults.clear()
    }))

  it.effect("writes a request log entry and honours Prefer: heartbeat", () =>
    Effect.gen(function*() {
      const { ats, project, proxy, sandbox } = yield* setup
      yield* proxy({ path: "/candidates?per_page=1" })
      const logs = yield* RequestLog
      yield* logs.flush
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ action: string; kind: string; status: number; text: string; provider_calls: ReadonlyArray<{ status: number; url: string }> }>`
        SELECT action, kind, status, provider_calls, row_to_json(r)::text AS text FROM request_logs r WHERE account_id = ${ats.id}`
      expect(rows).toHaveLength(1)
      expect(rows[0]).toMatchObject({ action: "proxy", kind: "unified", status: 200 })
      expect(rows[0]!.provider_calls).toMatchObject([{ status: 200, url: expect.stringContaining("/v1/candidates") }])
      expect(rows[0]!.text).not.toContain(sandbox.ats.apiKey)

      sandbox.faults.add({ match: { path: "/v1/candidates" }, fault: "latency", latencyMs: 2500, times: 1 })
      const response = yield* send(
        HttpClientRequest.post("/unified/proxy").pipe(
          json({ path: "/candidates?per_page=2" }),
          HttpClientRequest.setHeader("x-account-id", ats.id),
          HttpClientRequest.setHeader("prefer", "heartbeat"),
          withKey(project.key)
        )
      )
      expect(response.status).toBe(200)
      expect(response.headers["preference-applied"]).toBe("heartbeat")
      expect(response.text).toMatch(/^\n+\{/)
      expect(JSON.parse(response.text.trim())).toMatchObject({ status: 200, body: expect.any(Array) })
    }))

  it.effect("a connector without a base URL answers 501, and a suspended account 412, sending nothing", () =>
    Effect.gen(function*() {
      const { ats, project, proxy, raw, sandbox } = yield* setup
      yield* project.client.connectors.create_connector({
        urlParams: {},
        payload: { yaml: connectorYaml({ key: "no-base", version: "1.0.0" }).replace("baseUrl: https://api.example.com/v1\n", "") }
      })
      const account = yield* project.client.accounts.create_account({
        payload: { connector_key: "no-base", name: "No base", owner_id: "owner-1", credentials: { token: "token-123456" } }
      })
      const response = yield* raw({ path: "/things" }, project.key, account.id)
      const body = expectErrorBody(response, 501)
      expect(body.message).toContain("no base URL")

      yield* project.client.accounts.patch_account({ path: { id: ats.id }, urlParams: {}, payload: { status: "suspended" } })
      const suspended = yield* proxy({ path: "/candidates" }).pipe(Effect.flip)
      expect(suspended._tag).toBe("PreconditionFailed")
      expect(atsRequests(sandbox)).toHaveLength(0)
    }))

  it.effect("tenancy and scopes: another project's account is 404; a Read Only key is 403, an Actions key may proxy", () =>
    Effect.gen(function*() {
      const { ats, project, raw, sandbox } = yield* setup
      const other = yield* otherProject
      const foreign = yield* (yield* clientFor(other.key)).unified_proxy.proxy_request({
        headers: { "x-account-id": ats.id },
        payload: { path: "/candidates", method: "GET" }
      }).pipe(Effect.flip)
      expect(foreign._tag).toBe("NotFound")
      const readOnly = yield* keyFor(project.projectId, "read_only")
      expectErrorBody(yield* raw({ path: "/candidates" }, readOnly.key), 403)
      const actions = yield* keyFor(project.projectId, "actions")
      expect((yield* raw({ path: "/candidates?per_page=1" }, actions.key)).status).toBe(200)
      expect(atsRequests(sandbox).filter((r) => r.path === "/v1/candidates")).toHaveLength(1)
    }))
})

layer(SandboxServer(400), { excludeTestServices: true })("unified proxy, hanging provider", (it) => {
  it.effect("answers 408 with Retry-After when the provider does not answer in time", () =>
    Effect.gen(function*() {
      const { raw, sandbox } = yield* setup
      sandbox.faults.add({ match: { path: "/v1/candidates" }, fault: "timeout", times: 10 })
      const response = yield* raw({ path: "/candidates" })
      expectErrorBody(response, 408)
      expect(Number(response.headers["retry-after"])).toBeGreaterThan(0)
      sandbox.faults.clear()
    }))
})
