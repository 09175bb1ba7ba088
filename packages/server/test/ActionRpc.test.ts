import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { LastRequestTracker } from "../src/features/accounts/LastRequestTracker.js"
import { RequestLog } from "../src/features/requestLogs/RequestLog.js"
import { accountBody, clientFor, freshProject, keyFor, otherProject } from "./support/Fixtures.js"
import { SandboxProviders, SandboxServer, sandboxBambooAccount, sandboxGreenhouseAccount } from "./support/SandboxLayer.js"
import { expectErrorBody, json, send, withKey } from "./support/Wire.js"

/**
 * The per-attempt timeout is as long as the deadline, so a busy machine never turns a slow
 * answer into a 408 or an extra attempt; only the server for the hanging provider has a
 * short one.
 */
/** A project with a Greenhouse account on the sandbox (and a BambooHR one). */
const setup = Effect.gen(function*() {
  const sandbox = yield* SandboxProviders
  const project = yield* freshProject
  const ats = yield* project.client.accounts.create_account({
    payload: sandboxGreenhouseAccount(sandbox, { connector_version: "1.1.0" })
  })
  const linkHris = (version: string) =>
    project.client.accounts.create_account({
      payload: sandboxBambooAccount(sandbox, { connector_version: version })
    })
  const hris = yield* linkHris("1.0.0")
  const rpc = (accountId: string, payload: { action: string; query?: Record<string, unknown>; path?: Record<string, unknown>; body?: unknown; raw?: boolean }, idempotencyKey?: string) =>
    project.client.actions.rpc_action({
      headers: { "x-account-id": accountId, ...(idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey }) },
      payload
    })
  sandbox.faults.clear()
  sandbox.clearRequests()
  return { sandbox, project, ats, hris, linkHris, rpc }
})

const attemptsAt = (sandbox: { requests: () => ReadonlyArray<{ path: string }> }, path: string) =>
  sandbox.requests().filter((request) => request.path === path).length

layer(SandboxServer(4000), { excludeTestServices: true })("action RPC", (it) => {
  it.effect("runs a list action against the provider and maps its records", () =>
    Effect.gen(function*() {
      const { ats, rpc, sandbox } = yield* setup
      const result = yield* rpc(ats.id, { action: "ats_list_applications", query: { page_size: 5 } })
      const data = result.data as ReadonlyArray<Record<string, unknown>>
      expect(data).toHaveLength(5)
      expect(data[0]).toMatchObject({ id: expect.any(String), remote_id: expect.any(String), candidate_id: expect.any(String) })
      expect(data[0]!.status).toMatchObject({ source_value: expect.any(String) })
      const seen = sandbox.requests().filter((request) => request.path === "/v1/applications")
      expect(seen).toHaveLength(1)
      expect(seen[0]!.query).toMatchObject({ per_page: "5" })
      const one = yield* rpc(ats.id, { action: "ats_get_application", path: { id: data[0]!.id } })
      expect((one.data as Record<string, unknown>).id).toBe(data[0]!.id)
    }))

  it.effect("raw=true shows the provider calls with every undeclared credential redacted", () =>
    Effect.gen(function*() {
      const { hris, rpc, sandbox } = yield* setup
      const plain = yield* rpc(hris.id, { action: "hris_update_employee", path: { id: "101" }, body: { first_name: "Ada" } })
      expect(plain.raw).toBeUndefined()
      const result = yield* rpc(hris.id, {
        action: "hris_update_employee",
        path: { id: "101" },
        body: { first_name: "Ada" },
        raw: true
      })
      expect(result.raw).toHaveLength(1)
      const [call] = result.raw!
      expect(call).toMatchObject({ method: "POST", body: { firstName: "Ada" }, response: { status: 200 } })
      const text = JSON.stringify(result.raw)
      expect(text).not.toContain(sandbox.hris.apiKey)
      // bamboohr 1.0.0 does not declare the company domain `secret: false`: it stays secret, even in the URL.
      expect(call!.url).toContain("[REDACTED]")
      expect(call!.url).not.toContain(`/${sandbox.hris.companyDomain}/`)
    }))

  it.effect("a credential declared secret: false shows in raw, errors and the request log; the API key in no form", () =>
    Effect.gen(function*() {
      const { linkHris, project, sandbox } = yield* setup
      // bamboohr 1.2.0 declares the subdomain `secret: false`; the API key is `secret: true`
      const hris = yield* linkHris("1.2.0")
      const { apiKey, companyDomain } = sandbox.hris
      const keyForms = [
        apiKey,
        encodeURIComponent(apiKey),
        new URLSearchParams({ s: apiKey }).toString().slice(2),
        Buffer.from(apiKey).toString("base64"),
        Buffer.from(`${apiKey}:x`).toString("base64")
      ]
      const rpcRaw = send(
        HttpClientRequest.post("/actions/rpc").pipe(
          json({ action: "hris_update_employee", path: { id: "101" }, body: { first_name: "Ada" }, raw: true }),
          HttpClientRequest.setHeader("x-account-id", hris.id),
          withKey(project.key)
        )
      )

      const ok = yield* rpcRaw
      expect(ok.status).toBe(200)
      const [call] = (ok.json as { raw: ReadonlyArray<{ url: string }> }).raw
      expect(call!.url).toContain(`/api/gateway.php/${companyDomain}/v1/employees/101`)
      expect(call!.url).not.toContain("[REDACTED]")

      sandbox.faults.add({ match: { path: `/api/gateway.php/${companyDomain}/v1/employees/101` }, fault: "status", status: 400, times: 1 })
      const failed = yield* rpcRaw
      expect(failed.status).toBe(400)
      expect(failed.json).toMatchObject({
        provider_errors: [{ status: 400, url: expect.stringContaining(`/api/gateway.php/${companyDomain}/v1/employees/101`) }]
      })

      const logs = yield* RequestLog
      yield* logs.flush
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ text: string }>`SELECT row_to_json(r)::text AS text FROM request_logs r WHERE account_id = ${hris.id}`
      expect(rows).toHaveLength(2)
      for (const row of rows) expect(row.text).toContain(`/api/gateway.php/${companyDomain}/v1/employees/101`)
      for (const [where, text] of [["success", ok.text], ["provider 400", failed.text], ...rows.map((row) => ["log", row.text])]) {
        for (const form of keyForms) expect({ where, leaked: text!.includes(form) }).toEqual({ where, leaked: false })
      }
    }))

  it.effect("applies the account rules: 404, 412 and 403", () =>
    Effect.gen(function*() {
      const { ats, project, rpc } = yield* setup
      const tag = (effect: Effect.Effect<unknown, { _tag: string }>) => Effect.map(Effect.flip(effect), (e) => e._tag)
      expect(yield* tag(rpc("no-such-account", { action: "ats_list_applications" }))).toBe("NotFound")
      expect(yield* tag(rpc(ats.id, { action: "no_such_action" }))).toBe("NotFound")
      const other = yield* otherProject
      const foreign = yield* clientFor(other.key)
      expect(yield* tag(foreign.actions.rpc_action({ headers: { "x-account-id": ats.id }, payload: { action: "ats_list_applications" } })))
        .toBe("NotFound")
      for (const status of ["suspended", "expired", "disabled"] as const) {
        yield* project.client.accounts.patch_account({ path: { id: ats.id }, urlParams: {}, payload: { status } })
        expect(yield* tag(rpc(ats.id, { action: "ats_list_applications" }))).toBe("PreconditionFailed")
      }
      yield* project.client.accounts.patch_account({ path: { id: ats.id }, urlParams: {}, payload: { status: "active" } })

      const profile = yield* project.client.connector_profiles.create_connector_profile({
        urlParams: {},
        payload: { connector_key: "greenhouse", label: "Apps", version: "1.1.0", enabled_actions: ["ats_get_application"] }
      })
      const sandbox = yield* SandboxProviders
      const linked = yield* project.client.accounts.create_account({
        payload: accountBody({
          connector_key: "greenhouse",
          connector_profile_id: profile.id,
          credentials: { apiKey: sandbox.ats.apiKey },
          settings: { base_url: sandbox.ats.baseUrl }
        })
      })
      expect(yield* tag(rpc(linked.id, { action: "ats_list_applications" }))).toBe("Forbidden")
      yield* project.client.connector_profiles.update_connector_profile({
        path: { id: profile.id },
        urlParams: {},
        payload: { active: false }
      })
      expect(yield* tag(rpc(linked.id, { action: "ats_get_application", path: { id: "1" } }))).toBe("PreconditionFailed")
    }))

  it.effect("needs the Actions or Full Access scope and an x-account-id", () =>
    Effect.gen(function*() {
      const { ats, project } = yield* setup
      const body = { action: "ats_list_applications", query: { page_size: 1 } }
      for (const [scope, status] of [["actions", 200], ["read_only", 403], ["accounts", 403]] as const) {
        const { key } = yield* keyFor(project.projectId, scope)
        const response = yield* send(
          HttpClientRequest.post("/actions/rpc").pipe(json(body), HttpClientRequest.setHeader("x-account-id", ats.id), withKey(key))
        )
        expect({ scope, status: response.status }).toEqual({ scope, status })
      }
      const missing = yield* send(HttpClientRequest.post("/actions/rpc").pipe(json(body), withKey(project.key)))
      expectErrorBody(missing, 400)
      expect(missing.json).toMatchObject({ message: expect.stringContaining("x-account-id") })
    }))

  it.effect("maps provider failures: 4xx to 400 with provider_errors, 5xx to 502, never leaking the key", () =>
    Effect.gen(function*() {
      const { ats, project, rpc, sandbox } = yield* setup
      const notFound = yield* rpc(ats.id, { action: "ats_get_application", path: { id: "999999999" } }).pipe(Effect.flip)
      expect(notFound._tag).toBe("BadRequest")
      if (notFound._tag !== "BadRequest") return
      expect(notFound.data?.statusCode).toBe(404)
      expect(notFound.provider_errors?.[0]).toMatchObject({ status: 404, url: expect.stringContaining("/v1/applications/999999999") })

      const wrongKey = yield* project.client.accounts.create_account({
        payload: accountBody({
          connector_key: "greenhouse",
          connector_version: "1.1.0",
          credentials: { apiKey: "definitely-wrong-secret-key" },
          settings: { base_url: sandbox.ats.baseUrl }
        })
      })
      const response = yield* send(
        HttpClientRequest.post("/actions/rpc").pipe(
          json({ action: "ats_list_applications" }),
          HttpClientRequest.setHeader("x-account-id", wrongKey.id),
          withKey(project.key)
        )
      )
      expect(response.status).toBe(400)
      expect(response.text).not.toContain("definitely-wrong-secret-key")
      expect(response.text).not.toContain(Buffer.from("definitely-wrong-secret-key:").toString("base64"))
      expect(response.json).toMatchObject({ provider_errors: [{ status: 401 }] })

      sandbox.clearRequests()
      sandbox.faults.add({ match: { path: "/v1/applications" }, fault: "status", status: 500, times: 10 })
      const broken = yield* rpc(ats.id, { action: "ats_list_applications" }).pipe(Effect.flip)
      expect(broken._tag).toBe("BadGateway")
      expect(attemptsAt(sandbox, "/v1/applications")).toBe(3)

      const logs = yield* RequestLog
      yield* logs.flush
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ text: string }>`SELECT row_to_json(r)::text AS text FROM request_logs r WHERE account_id = ${wrongKey.id}`
      expect(rows).toHaveLength(1)
      expect(rows[0]!.text).not.toContain("definitely-wrong-secret-key")
      expect(rows[0]!.text).toContain("\"status\":400")
    }))

  it.effect("retries 503 and 429 with Retry-After and then succeeds", () =>
    Effect.gen(function*() {
      const { ats, rpc, sandbox } = yield* setup
      sandbox.faults.add({ match: { path: "/v1/applications" }, fault: "status", status: 503, times: 2 })
      yield* rpc(ats.id, { action: "ats_list_applications", query: { page_size: 2 } })
      expect(attemptsAt(sandbox, "/v1/applications")).toBe(3)

      sandbox.clearRequests()
      sandbox.faults.add({ match: { path: "/v1/applications" }, fault: "rate_limit", retryAfter: 1, times: 1 })
      const started = Date.now()
      yield* rpc(ats.id, { action: "ats_list_applications", query: { page_size: 2 } })
      expect(attemptsAt(sandbox, "/v1/applications")).toBe(2)
      expect(Date.now() - started).toBeGreaterThanOrEqual(900)

      sandbox.clearRequests()
      sandbox.faults.add({ match: { path: "/v1/applications" }, fault: "rate_limit", retryAfter: 30, times: 5 })
      const limited = yield* rpc(ats.id, { action: "ats_list_applications" }).pipe(Effect.flip)
      expect(limited._tag).toBe("TooManyRequests")
      expect(attemptsAt(sandbox, "/v1/applications")).toBe(1)
      sandbox.faults.clear()
    }))

  it.effect("an Idempotency-Key makes a retried write return the first result without running again", () =>
    Effect.gen(function*() {
      const { hris, rpc, sandbox } = yield* setup
      const write = (key: string, firstName: string) =>
        rpc(hris.id, { action: "hris_update_employee", path: { id: "101" }, body: { first_name: firstName } }, key)
      const first = yield* write("key-1", "Ada")
      const again = yield* write("key-1", "Ada")
      expect(again).toEqual(first)
      const posts = () => sandbox.requests().filter((r) => r.method === "POST" && r.path.endsWith("/employees/101")).length
      expect(posts()).toBe(1)
      const mismatch = yield* write("key-1", "Grace").pipe(Effect.flip)
      expect(mismatch._tag).toBe("UnprocessableEntity")
      yield* write("key-2", "Grace")
      expect(posts()).toBe(2)
      // Without a key every call runs.
      yield* rpc(hris.id, { action: "hris_update_employee", path: { id: "101" }, body: { first_name: "Linus" } })
      yield* rpc(hris.id, { action: "hris_update_employee", path: { id: "101" }, body: { first_name: "Linus" } })
      expect(posts()).toBe(4)
    }))

  it.effect("runs update last_request and the request log", () =>
    Effect.gen(function*() {
      const { ats, project, rpc } = yield* setup
      yield* rpc(ats.id, { action: "ats_list_applications", query: { page_size: 1 } })
      const read = yield* project.client.accounts.get_account({ path: { id: ats.id }, urlParams: { expand: ["last_request"] } })
      expect(read.last_request).not.toBeNull()
      const tracker = yield* LastRequestTracker
      yield* tracker.flush
      const logs = yield* RequestLog
      yield* logs.flush
      const sql = yield* SqlClient.SqlClient
      const [log] = yield* sql<{ action: string; status: number; kind: string; provider_calls: ReadonlyArray<{ status: number }> }>`
        SELECT action, status, kind, provider_calls FROM request_logs WHERE account_id = ${ats.id}`
      expect(log).toMatchObject({ action: "ats_list_applications", status: 200, kind: "rpc" })
      expect(log!.provider_calls.map((call) => call.status)).toEqual([200])
    }))
})

layer(SandboxServer(400), { excludeTestServices: true })("action RPC, hanging provider", (it) => {
  it.effect("answers 408 with Retry-After when the provider does not answer in time", () =>
    Effect.gen(function*() {
      const { ats, project, sandbox } = yield* setup
      sandbox.faults.add({ match: { path: "/v1/applications" }, fault: "timeout", times: 10 })
      const response = yield* send(
        HttpClientRequest.post("/actions/rpc").pipe(
          json({ action: "ats_list_applications" }),
          HttpClientRequest.setHeader("x-account-id", ats.id),
          withKey(project.key)
        )
      )
      expectErrorBody(response, 408)
      expect(Number(response.headers["retry-after"])).toBeGreaterThan(0)
      expect(attemptsAt(sandbox, "/v1/applications")).toBe(3)
      sandbox.faults.clear()
    }))
})
