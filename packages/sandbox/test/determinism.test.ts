import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSandbox, type Sandbox } from "../src/index.js"
import { basic, json } from "./support.js"

let one: Sandbox
let same: Sandbox
let other: Sandbox

beforeAll(async () => {
  ;[one, same, other] = await Promise.all([startSandbox({ seed: 7 }), startSandbox({ seed: 7 }), startSandbox({ seed: 8 })])
})
afterAll(async () => {
  await Promise.all([one.close(), same.close(), other.close()])
})

/** Everything a client can list, as text, with the origin (ports differ) taken out. */
const snapshot = async (sb: Sandbox): Promise<string> => {
  const ats = { authorization: basic(sb.ats.apiKey) }
  const hris = { authorization: basic(sb.hris.apiKey, "x"), accept: "application/json" }
  const lms = { authorization: basic(sb.lms.apiKey) }
  const parts = await Promise.all([
    fetch(`${sb.ats.baseUrl}/applications?per_page=500`, { headers: ats }).then((r) => r.text()),
    fetch(`${sb.ats.baseUrl}/candidates?per_page=500`, { headers: ats }).then((r) => r.text()),
    fetch(`${sb.ats.baseUrl}/scorecards?per_page=500`, { headers: ats }).then((r) => r.text()),
    fetch(`${sb.ats.baseUrl}/offers?per_page=500`, { headers: ats }).then((r) => r.text()),
    fetch(`${sb.hris.baseUrl}/employees/directory`, { headers: hris }).then((r) => r.text()),
    fetch(`${sb.hris.baseUrl}/employees/all/tables/jobInfo`, { headers: hris }).then((r) => r.text()),
    fetch(`${sb.hris.baseUrl}/time_off/requests?start=1900-01-01&end=9999-12-31`, { headers: hris }).then((r) => r.text()),
    fetch(`${sb.lms.baseUrl}/users`, { headers: lms }).then((r) => r.text()),
    fetch(`${sb.lms.baseUrl}/courses/id:3`, { headers: lms }).then((r) => r.text())
  ])
  return parts.join("\n").split(sb.ats.url).join("ORIGIN").split(sb.hris.url).join("ORIGIN")
}

describe("determinism", () => {
  it("gives the same data and keys for the same seed", async () => {
    expect(one.ats.apiKey).toBe(same.ats.apiKey)
    expect(one.hris.apiKey).toBe(same.hris.apiKey)
    expect(one.mcp.token).toBe(same.mcp.token)
    const [x, y] = await Promise.all([snapshot(one), snapshot(same)])
    expect(x.length).toBeGreaterThan(100000)
    expect(x).toBe(y)
  })

  it("gives different data for a different seed", async () => {
    expect(other.ats.apiKey).not.toBe(one.ats.apiKey)
    const [x, z] = await Promise.all([snapshot(one), snapshot(other)])
    expect(x).not.toBe(z)
    const names = async (sb: Sandbox): Promise<Array<string>> =>
      (await json<Array<{ first_name: string; last_name: string }>>(await fetch(`${sb.ats.baseUrl}/candidates?per_page=20`, { headers: { authorization: basic(sb.ats.apiKey) } }))).map((c) => `${c.first_name} ${c.last_name}`)
    expect(await names(one)).not.toEqual(await names(other))
  })

  it("stamps times relative to a fixed epoch, not the wall clock", async () => {
    const apps = await json<Array<{ applied_at: string; last_activity_at: string }>>(await fetch(`${one.ats.baseUrl}/applications?per_page=500`, { headers: { authorization: basic(one.ats.apiKey) } }))
    expect(apps.every((a) => a.applied_at >= "2024-01-01" && a.last_activity_at < "2025-01-01")).toBe(true)
  })

  it("reset() and POST /_sandbox/reset restore the seed's data after writes", async () => {
    const before = await snapshot(one)
    const auth = { authorization: basic(one.ats.apiKey), "content-type": "application/json", "on-behalf-of": String(one.ats.onBehalfOf) }
    const res = await fetch(`${one.ats.baseUrl}/candidates`, { method: "POST", headers: auth, body: JSON.stringify({ first_name: "Temp", last_name: "Person", applications: [{ job_id: 3001 }] }) })
    expect(res.status).toBe(201)
    await fetch(`${one.hris.baseUrl}/employees/101`, { method: "POST", headers: { authorization: basic(one.hris.apiKey, "x"), "content-type": "application/json" }, body: JSON.stringify({ firstName: "Changed" }) })
    expect(await snapshot(one)).not.toBe(before)
    one.reset()
    expect(await snapshot(one)).toBe(before)

    const timeOff = await fetch(`${one.hris.baseUrl}/employees/102/time_off/request`, {
      method: "PUT",
      headers: { authorization: basic(one.hris.apiKey, "x"), "content-type": "application/json" },
      body: JSON.stringify({ status: "requested", start: "2025-02-03", end: "2025-02-04", timeOffTypeId: 64 })
    })
    expect(timeOff.status).toBe(201)
    expect(await snapshot(one)).not.toBe(before)
    one.reset()
    expect(await snapshot(one)).toBe(before)

    await fetch(`${one.lms.baseUrl}/addusertocourse`, { method: "POST", headers: { authorization: basic(one.lms.apiKey), "content-type": "application/json" }, body: JSON.stringify({ user_id: 2, course_id: 3 }) })
    expect(await snapshot(one)).not.toBe(before)
    const reset = await fetch(`${one.lms.url}/_sandbox/reset`, { method: "POST" })
    expect(reset.status).toBe(200)
    expect(await snapshot(one)).toBe(before)
  })

  it("honours counts", async () => {
    const small = await startSandbox({ seed: 7, counts: { applications: 12, candidates: 5, employees: 3, users: 4, courses: 2 } })
    try {
      const apps = await json<Array<unknown>>(await fetch(`${small.ats.baseUrl}/applications`, { headers: { authorization: basic(small.ats.apiKey) } }))
      expect(apps.length).toBe(12)
      const dir = await json<{ employees: Array<unknown> }>(await fetch(`${small.hris.baseUrl}/employees/directory`, { headers: { authorization: basic(small.hris.apiKey, "x"), accept: "application/json" } }))
      expect(dir.employees.length).toBeLessThanOrEqual(3)
      const users = await json<Array<unknown>>(await fetch(`${small.lms.baseUrl}/users`, { headers: { authorization: basic(small.lms.apiKey) } }))
      expect(users.length).toBe(4)
    } finally {
      await small.close()
    }
  })
})
