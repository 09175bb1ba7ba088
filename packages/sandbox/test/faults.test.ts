import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { startSandbox, type Sandbox } from "../src/index.js"
import { basic, json } from "./support.js"

let sb: Sandbox
let auth: Record<string, string>

beforeAll(async () => {
  sb = await startSandbox({ seed: 3 })
  auth = { authorization: basic(sb.ats.apiKey) }
})
afterEach(() => {
  sb.faults.clear()
  sb.clearRequests()
})
afterAll(async () => {
  await sb.close()
})

const apps = (headers: Record<string, string> = {}, init: RequestInit = {}): Promise<Response> => fetch(`${sb.ats.baseUrl}/applications?per_page=5`, { ...init, headers: { ...auth, ...headers } })

describe("per-request faults (x-sandbox-fault)", () => {
  it("latency delays the normal answer", async () => {
    const t0 = performance.now()
    const res = await apps({ "x-sandbox-fault": "latency=300" })
    expect(res.status).toBe(200)
    expect(((await res.json()) as Array<unknown>).length).toBe(5)
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290)
  })

  it("status answers 500/503 (with an optional Retry-After)", async () => {
    const r500 = await apps({ "x-sandbox-fault": "status=500" })
    expect(r500.status).toBe(500)
    const r503 = await apps({ "x-sandbox-fault": "status;code=503;retry_after=7" })
    expect(r503.status).toBe(503)
    expect(r503.headers.get("retry-after")).toBe("7")
    expect(await json(r503)).toMatchObject({ sandbox_fault: "status" })
  })

  it("rate_limit answers 429 with Retry-After in seconds or as an HTTP date", async () => {
    const secs = await apps({ "x-sandbox-fault": "rate_limit=3" })
    expect(secs.status).toBe(429)
    expect(secs.headers.get("retry-after")).toBe("3")
    const date = await apps({ "x-sandbox-fault": "rate_limit;retry_after=120;format=http-date" })
    expect(date.status).toBe(429)
    const when = Date.parse(date.headers.get("retry-after") as string)
    expect(Number.isNaN(when)).toBe(false)
    expect(when - Date.now()).toBeGreaterThan(100_000)
    expect((await apps({ "x-sandbox-fault": "rate_limit" })).headers.get("retry-after")).toBe("1")
  })

  it("timeout accepts the request and never answers", async () => {
    const t0 = performance.now()
    await expect(apps({ "x-sandbox-fault": "timeout" }, { signal: AbortSignal.timeout(400) })).rejects.toThrow()
    expect(performance.now() - t0).toBeGreaterThanOrEqual(390)
    expect(sb.requests("ats").map((r) => r.faults)).toEqual([["timeout (header)"]])
    expect((await apps()).status).toBe(200)
  })

  it("reset drops the connection", async () => {
    await expect(apps({ "x-sandbox-fault": "reset" })).rejects.toThrow()
    expect((await apps()).status).toBe(200)
  })

  it("malformed_json answers 200 with a JSON content type and a body that does not parse", async () => {
    const res = await apps({ "x-sandbox-fault": "malformed_json" })
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toContain("application/json")
    await expect(res.json()).rejects.toThrow()
  })

  it("oversized answers N MiB of valid JSON", async () => {
    const res = await apps({ "x-sandbox-fault": "oversized=3" })
    expect(res.status).toBe(200)
    expect(Number(res.headers.get("content-length"))).toBe(3 * 1024 * 1024)
    const body = await res.text()
    expect(body.length).toBe(3 * 1024 * 1024)
    expect((JSON.parse(body) as { padding: string }).padding.length).toBeGreaterThan(3_000_000)
  })

  it("rejects an unknown fault name with 400", async () => {
    const res = await apps({ "x-sandbox-fault": "explode" })
    expect(res.status).toBe(400)
    expect(((await json(res)) as { message: string }).message).toContain("explode")
  })
})

describe("fault plans (POST /_sandbox/faults)", () => {
  it("fails the first N matching requests, then lets them through; the request log counts attempts", async () => {
    const add = await fetch(`${sb.ats.url}/_sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ match: { path: "/v1/applications" }, fault: "status", status: 503, times: 2 })
    })
    expect(add.status).toBe(201)
    const [plan] = await json<Array<{ id: string }>>(add)
    expect(plan?.id).toMatch(/^fault_/)
    expect((await apps()).status).toBe(503)
    expect((await apps()).status).toBe(503)
    expect((await apps()).status).toBe(200)
    // Other paths are not matched.
    expect((await fetch(`${sb.ats.baseUrl}/jobs`, { headers: auth })).status).toBe(200)
    const seen = await json<Array<{ method: string; path: string; query: Record<string, string>; headers: Record<string, string>; faults: Array<string> }>>(await fetch(`${sb.ats.url}/_sandbox/requests`))
    const attempts = seen.filter((r) => r.path === "/v1/applications")
    expect(attempts.length).toBe(3)
    expect(attempts[0]).toMatchObject({ method: "GET", query: { per_page: "5" } })
    expect(attempts[0]?.headers["authorization"]).toBeUndefined()
    expect(attempts.map((r) => r.faults.length)).toEqual([1, 1, 0])
    const listed = await json<Array<{ id: string; fired: number; matched: number }>>(await fetch(`${sb.ats.url}/_sandbox/faults`))
    expect(listed[0]).toMatchObject({ fired: 2, matched: 3 })
  })

  it("supports after, globs, method and provider matching, and DELETE clears", async () => {
    sb.faults.add([
      { match: { path: "/v1/applications/*", method: "GET" }, fault: "rate_limit", retryAfter: 2, after: 1, times: 1 },
      { match: { provider: "lms" }, fault: "status", status: 500 }
    ])
    const one = (): Promise<Response> => fetch(`${sb.ats.baseUrl}/applications/500001`, { headers: auth })
    expect((await one()).status).toBe(200)
    const limited = await one()
    expect(limited.status).toBe(429)
    expect(limited.headers.get("retry-after")).toBe("2")
    expect((await one()).status).toBe(200)
    expect((await fetch(`${sb.lms.baseUrl}/users`, { headers: { authorization: basic(sb.lms.apiKey) } })).status).toBe(500)
    expect((await fetch(`${sb.hris.url}/_sandbox/faults`, { method: "DELETE" })).status).toBe(200)
    expect(sb.faults.list()).toEqual([])
    expect((await fetch(`${sb.lms.baseUrl}/users`, { headers: { authorization: basic(sb.lms.apiKey) } })).status).toBe(200)
  })

  it("applies latency plans before the normal answer and rejects invalid plans", async () => {
    sb.faults.add({ match: { pathPrefix: "/v1/jobs" }, fault: "latency", latencyMs: 250, times: 1 })
    const t0 = performance.now()
    expect((await fetch(`${sb.ats.baseUrl}/jobs`, { headers: auth })).status).toBe(200)
    expect(performance.now() - t0).toBeGreaterThanOrEqual(240)
    const bad = await fetch(`${sb.ats.url}/_sandbox/faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ fault: "meltdown" }) })
    expect(bad.status).toBe(400)
    expect(() => sb.faults.add({ fault: "status", status: 42 })).toThrow()
  })

  it("reports requests per provider and keeps admin calls out of the log", async () => {
    await fetch(`${sb.hris.baseUrl}/employees/directory`, { headers: { authorization: basic(sb.hris.apiKey, "x") } })
    await fetch(`${sb.lms.baseUrl}/users`, { headers: { authorization: basic(sb.lms.apiKey) } })
    await fetch(`${sb.ats.url}/_sandbox`)
    expect(sb.requests("hris").length).toBe(1)
    expect(sb.requests("lms").length).toBe(1)
    expect(sb.requests().length).toBe(2)
    const all = await json<Array<{ provider: string }>>(await fetch(`${sb.ats.url}/_sandbox/requests?provider=all`))
    expect(all.map((r) => r.provider)).toEqual(["hris", "lms"])
    const info = await json<{ seed: number; ats: { apiKey: string } }>(await fetch(`${sb.mcp.origin}/_sandbox`))
    expect(info).toMatchObject({ seed: 3, ats: { apiKey: sb.ats.apiKey } })
  })
})
