import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSandbox, type Sandbox } from "../src/index.js"
import { basic, json } from "./support.js"

let sb: Sandbox
let hris: Record<string, string>
let lms: Record<string, string>

beforeAll(async () => {
  sb = await startSandbox({ seed: 5 })
  hris = { authorization: basic(sb.hris.apiKey, "x"), accept: "application/json" }
  lms = { authorization: basic(sb.lms.apiKey) }
})
afterAll(async () => {
  await sb.close()
})

describe("HRIS (BambooHR)", () => {
  it("needs the API key as Basic username (any password) and the right company domain", async () => {
    expect((await fetch(`${sb.hris.baseUrl}/employees/directory`, { headers: { accept: "application/json" } })).status).toBe(401)
    expect((await fetch(`${sb.hris.baseUrl}/employees/directory`, { headers: { authorization: basic("nope", "x") } })).status).toBe(401)
    expect((await fetch(`${sb.hris.baseUrl}/employees/directory`, { headers: { ...hris, authorization: basic(sb.hris.apiKey, "anything") } })).status).toBe(200)
    const wrong = await fetch(`${sb.hris.url}/api/gateway.php/othercompany/v1/employees/directory`, { headers: hris })
    expect(wrong.status).toBe(404)
    expect(wrong.headers.get("x-bamboohr-error-message")).toContain("othercompany")
  })

  it("lists the directory as JSON or XML depending on Accept", async () => {
    const res = await fetch(`${sb.hris.baseUrl}/employees/directory`, { headers: hris })
    expect(res.headers.get("content-type")).toContain("application/json")
    const dir = await json<{ fields: Array<{ id: string }>; employees: Array<Record<string, unknown>> }>(res)
    expect(dir.fields.map((f) => f.id)).toContain("displayName")
    expect(dir.employees.length).toBeGreaterThan(20)
    expect(dir.employees.length).toBeLessThanOrEqual(40)
    expect(dir.employees[0]).toMatchObject({ id: "101", firstName: expect.any(String), jobTitle: expect.any(String), workEmail: expect.any(String) })
    const xml = await fetch(`${sb.hris.baseUrl}/employees/directory`, { headers: { authorization: hris["authorization"] as string } })
    expect(xml.headers.get("content-type")).toContain("text/xml")
    expect(await xml.text()).toMatch(/^<\?xml version="1.0"\?>\n<directory><fieldset>/)
  })

  it("gets requested fields, updates by POST and reports the change", async () => {
    const url = `${sb.hris.baseUrl}/employees/105?fields=firstName,lastName,jobTitle,department,hireDate,supervisor,lastChanged`
    const before = await json<Record<string, string | null>>(await fetch(url, { headers: hris }))
    expect(Object.keys(before)).toEqual(["id", "firstName", "lastName", "jobTitle", "department", "hireDate", "supervisor", "lastChanged"])
    expect(before["id"]).toBe("105")
    const upd = await fetch(`${sb.hris.baseUrl}/employees/105`, { method: "POST", headers: { ...hris, "content-type": "application/json" }, body: JSON.stringify({ firstName: "Renamed", mobilePhone: "+1 555 000 0000" }) })
    expect(upd.status).toBe(200)
    const after = await json<Record<string, string | null>>(await fetch(url, { headers: hris }))
    expect(after["firstName"]).toBe("Renamed")
    expect((after["lastChanged"] as string) > (before["lastChanged"] as string)).toBe(true)
    const changed = await json<{ employees: Record<string, { action: string }> }>(await fetch(`${sb.hris.baseUrl}/employees/changed?since=2024-12-31T00:00:00Z`, { headers: hris }))
    expect(changed.employees["105"]?.action).toBe("Updated")
    const bad = await fetch(`${sb.hris.baseUrl}/employees/105`, { method: "POST", headers: { ...hris, "content-type": "application/json" }, body: JSON.stringify({ notAField: "x" }) })
    expect(bad.status).toBe(400)
    expect(bad.headers.get("x-bamboohr-error-message")).toContain("notAField")
    expect((await fetch(`${sb.hris.baseUrl}/employees/9999?fields=firstName`, { headers: hris })).status).toBe(404)
  })

  it("keeps jobInfo history with one current row; adding a row moves the current job", async () => {
    const rows = await json<Array<{ id: string; employeeId: string; date: string; jobTitle: string; reportsTo: string | null }>>(await fetch(`${sb.hris.baseUrl}/employees/106/tables/jobInfo`, { headers: hris }))
    expect(rows.length).toBeGreaterThanOrEqual(1)
    expect(rows.every((r) => r.employeeId === "106")).toBe(true)
    const latest = [...rows].sort((x, y) => (x.date < y.date ? -1 : 1)).pop()
    const emp = await json<{ jobTitle: string }>(await fetch(`${sb.hris.baseUrl}/employees/106?fields=jobTitle`, { headers: hris }))
    expect(emp.jobTitle).toBe(latest?.jobTitle)
    const add = await fetch(`${sb.hris.baseUrl}/employees/106/tables/jobInfo`, {
      method: "POST",
      headers: { ...hris, "content-type": "application/json" },
      body: JSON.stringify({ date: "2024-12-01", jobTitle: "Principal Engineer", department: "Engineering", location: "Remote", division: "Corporate", reportsTo: "101" })
    })
    expect(add.status).toBe(200)
    expect(add.headers.get("location")).toMatch(/\/employees\/106\/tables\/jobInfo\/\d+$/)
    const now = await json<{ jobTitle: string; department: string; supervisorEId: string }>(await fetch(`${sb.hris.baseUrl}/employees/106?fields=jobTitle,department,supervisorEId`, { headers: hris }))
    expect(now).toMatchObject({ jobTitle: "Principal Engineer", department: "Engineering", supervisorEId: "101" })
    const rows2 = await json<Array<{ id: string }>>(await fetch(`${sb.hris.baseUrl}/employees/106/tables/jobInfo`, { headers: hris }))
    expect(rows2.length).toBe(rows.length + 1)
    const rowId = (add.headers.get("location") as string).split("/").pop()
    const upd = await fetch(`${sb.hris.baseUrl}/employees/106/tables/jobInfo/${rowId}`, { method: "POST", headers: { ...hris, "content-type": "application/json" }, body: JSON.stringify({ jobTitle: "Staff Engineer" }) })
    expect(upd.status).toBe(200)
    expect(await json(await fetch(`${sb.hris.baseUrl}/employees/106?fields=jobTitle`, { headers: hris }))).toMatchObject({ jobTitle: "Staff Engineer" })
    expect((await fetch(`${sb.hris.baseUrl}/employees/106/tables/jobInfo`, { method: "POST", headers: { ...hris, "content-type": "application/json" }, body: JSON.stringify({ jobTitle: "No date" }) })).status).toBe(400)
    expect((await fetch(`${sb.hris.baseUrl}/employees/106/tables/nope`, { headers: hris })).status).toBe(404)
  })

  it("adds an employee (201 + Location) who then shows in the directory", async () => {
    const res = await fetch(`${sb.hris.baseUrl}/employees`, { method: "POST", headers: { ...hris, "content-type": "application/json" }, body: JSON.stringify({ firstName: "New", lastName: "Hire", jobTitle: "Analyst", hireDate: "2025-01-01" }) })
    expect(res.status).toBe(201)
    const id = (res.headers.get("location") as string).split("/").pop()
    const dir = await json<{ employees: Array<{ id: string; jobTitle: string }> }>(await fetch(`${sb.hris.baseUrl}/employees/directory`, { headers: hris }))
    expect(dir.employees.find((e) => e.id === id)?.jobTitle).toBe("Analyst")
    expect((await fetch(`${sb.hris.baseUrl}/employees`, { method: "POST", headers: { ...hris, "content-type": "application/json" }, body: JSON.stringify({ firstName: "Only" }) })).status).toBe(400)
  })

  it("answers Get Employee's names (birthDate, marital, jobTitleName, reportsToId) and takes birthDate and marital as writes", async () => {
    const fields = "dateOfBirth,birthDate,maritalStatus,marital,jobTitle,jobTitleName,supervisorEId,reportsToId"
    const before = await json<Record<string, string | null>>(await fetch(`${sb.hris.baseUrl}/employees/107?fields=${fields}`, { headers: hris }))
    expect(before["birthDate"]).toBe(before["dateOfBirth"])
    expect(before["marital"]).toBe(before["maritalStatus"])
    expect(before["jobTitleName"]).toBe(before["jobTitle"])
    expect(before["jobTitleName"]).toEqual(expect.any(String))
    expect(before["reportsToId"]).toBe(before["supervisorEId"])
    const write = (body: unknown) => fetch(`${sb.hris.baseUrl}/employees/107`, { method: "POST", headers: { ...hris, "content-type": "application/json" }, body: JSON.stringify(body) })
    expect((await write({ birthDate: "1990-04-05", marital: "Married" })).status).toBe(200)
    const after = await json<Record<string, string | null>>(await fetch(`${sb.hris.baseUrl}/employees/107?fields=${fields}`, { headers: hris }))
    expect(after).toMatchObject({ dateOfBirth: "1990-04-05", birthDate: "1990-04-05", maritalStatus: "Married", marital: "Married" })
    expect((await write({ birthDate: "April 5th" })).status).toBe(400)
    expect((await write({ jobTitleName: "Boss" })).status).toBe(400)
  })

  it("answers the company's information", async () => {
    const company = await json<Record<string, unknown>>(await fetch(`${sb.hris.baseUrl}/company_information`, { headers: hris }))
    expect(company).toMatchObject({ legalName: expect.any(String), displayName: "Sandbox", address: { city: expect.any(String) }, phone: expect.any(String) })
  })

  it("lists time off types, policies and requests over a date window; requests are filtered as asked", async () => {
    const types = await json<{ timeOffTypes: Array<{ id: number; name: string; units: string }>; defaultHours: Array<unknown> }>(await fetch(`${sb.hris.baseUrl}/meta/time_off/types`, { headers: hris }))
    expect(types.timeOffTypes.map((type) => type.name)).toEqual(["Vacation", "Sick", "Bereavement", "Jury Duty"])
    expect(types.defaultHours).toHaveLength(7)
    const policies = await json<Array<{ id: number; timeOffTypeId: number; name: string; type: string }>>(await fetch(`${sb.hris.baseUrl}/meta/time_off/policies`, { headers: hris }))
    expect(policies.map((policy) => policy.name)).toEqual([...policies.map((policy) => policy.name)].sort())
    expect(new Set(policies.map((policy) => policy.timeOffTypeId))).toEqual(new Set(types.timeOffTypes.map((type) => type.id)))

    expect((await fetch(`${sb.hris.baseUrl}/time_off/requests`, { headers: hris })).status).toBe(400)
    type Request = { id: number; employeeId: number; start: string; end: string; status: { status: string }; type: { id: number }; amount: { unit: string; amount: number }; notes?: unknown }
    const all = await json<Array<Request>>(await fetch(`${sb.hris.baseUrl}/time_off/requests?start=1900-01-01&end=9999-12-31`, { headers: hris }))
    expect(all.length).toBeGreaterThan(10)
    expect(new Set(all.map((request) => request.status.status))).toEqual(new Set(["approved", "requested", "denied", "canceled"]))
    const march = await json<Array<Request>>(await fetch(`${sb.hris.baseUrl}/time_off/requests?start=2024-03-01&end=2024-03-31`, { headers: hris }))
    expect(march.every((request) => request.end >= "2024-03-01" && request.start <= "2024-03-31")).toBe(true)
    expect(march.length).toBe(all.filter((request) => request.end >= "2024-03-01" && request.start <= "2024-03-31").length)
    const first = all[0] as Request
    const one = await json<Array<Request>>(await fetch(`${sb.hris.baseUrl}/time_off/requests?start=1900-01-01&end=9999-12-31&id=${first.id}&employeeId=${first.employeeId}`, { headers: hris }))
    expect(one).toEqual([first])
    expect(await json(await fetch(`${sb.hris.baseUrl}/time_off/requests?start=1900-01-01&end=9999-12-31&id=${first.id}&employeeId=${first.employeeId + 1}`, { headers: hris }))).toEqual([])
    const sick = await json<Array<Request>>(await fetch(`${sb.hris.baseUrl}/time_off/requests?start=1900-01-01&end=9999-12-31&type=65&status=approved,denied&excludeNote=1`, { headers: hris }))
    expect(sick.every((request) => request.type.id === 65 && ["approved", "denied"].includes(request.status.status) && request.amount.unit === "hours" && request.notes === undefined)).toBe(true)
  })

  it("creates a time off request for an employee (201, Location, the request as JSON), changes its status, and counts it in the balance", async () => {
    const base = sb.hris.baseUrl
    const put = (path: string, body: unknown) => fetch(`${base}${path}`, { method: "PUT", headers: { ...hris, "content-type": "application/json" }, body: JSON.stringify(body) })
    const balance = async () =>
      (await json<Array<{ timeOffType: string; balance: string; usedYearToDate: string }>>(await fetch(`${base}/employees/108/time_off/calculator?end=2025-12-31`, { headers: hris })))
        .find((entry) => entry.timeOffType === "64")!
    const before = await balance()

    const created = await put("/employees/108/time_off/request", { status: "approved", start: "2025-03-03", end: "2025-03-07", timeOffTypeId: 64, notes: [{ from: "employee", note: "Spring break" }] })
    expect(created.status).toBe(201)
    const request = await json<{ id: number; employeeId: number; status: { status: string }; amount: { unit: string; amount: number }; notes: Record<string, string> }>(created)
    expect(created.headers.get("location")).toBe(`${base}/time_off/requests/${request.id}`)
    // Monday to Friday, a day each
    expect(request).toMatchObject({ employeeId: 108, status: { status: "approved" }, amount: { unit: "days", amount: 5 }, notes: { employee: "Spring break" } })
    const after = await balance()
    expect(Number(after.usedYearToDate) - Number(before.usedYearToDate)).toBe(5)
    expect(Number(before.balance) - Number(after.balance)).toBe(5)
    const listed = await json<Array<{ id: number }>>(await fetch(`${base}/time_off/requests?start=2025-03-01&end=2025-03-31&employeeId=108`, { headers: hris }))
    expect(listed.map((entry) => entry.id)).toContain(request.id)

    // without Accept: application/json, no body
    const bare = await fetch(`${base}/employees/108/time_off/request`, {
      method: "PUT",
      headers: { authorization: hris["authorization"] as string, "content-type": "application/json" },
      body: JSON.stringify({ status: "requested", start: "2025-04-01", end: "2025-04-01", timeOffTypeId: 65 })
    })
    expect(bare.status).toBe(201)
    expect(await bare.text()).toBe("")

    expect((await put(`/time_off/requests/${request.id}/status`, { status: "canceled", note: "Plans changed" })).status).toBe(200)
    const [canceled] = await json<Array<{ status: { status: string }; notes: Record<string, string> }>>(await fetch(`${base}/time_off/requests?start=1900-01-01&end=9999-12-31&id=${request.id}`, { headers: hris }))
    expect(canceled).toMatchObject({ status: { status: "canceled" }, notes: { employee: "Spring break", manager: "Plans changed" } })
    expect((await balance()).usedYearToDate).toBe(before.usedYearToDate)

    // a new request superseding another
    const again = await json<{ id: number }>(await put("/employees/108/time_off/request", { status: "requested", start: "2025-05-05", end: "2025-05-05", timeOffTypeId: 64 }))
    const replaced = await json<{ id: number }>(await put("/employees/108/time_off/request", { status: "requested", start: "2025-05-06", end: "2025-05-06", timeOffTypeId: 64, previousRequest: again.id }))
    const [superseded] = await json<Array<{ status: { status: string } }>>(await fetch(`${base}/time_off/requests?start=1900-01-01&end=9999-12-31&id=${again.id}`, { headers: hris }))
    expect(superseded?.status.status).toBe("superceded")
    expect(replaced.id).toBeGreaterThan(again.id)

    // BambooHR's refusals
    const refused = async (path: string, body: unknown, status: number) => {
      const answer = await put(path, body)
      expect({ path, body, status: answer.status }).toEqual({ path, body, status })
    }
    await refused("/employees/108/time_off/request", { start: "2025-03-03", end: "2025-03-07", timeOffTypeId: 64 }, 400)
    await refused("/employees/108/time_off/request", { status: "canceled", start: "2025-03-03", end: "2025-03-07", timeOffTypeId: 64 }, 400)
    await refused("/employees/108/time_off/request", { status: "requested", start: "2025-03-07", end: "2025-03-03", timeOffTypeId: 64 }, 400)
    await refused("/employees/108/time_off/request", { status: "requested", start: "2025-03-03", end: "2025-03-07", timeOffTypeId: 9 }, 400)
    await refused("/employees/108/time_off/request", { status: "requested", start: "2025-03-03", end: "2025-03-07", timeOffTypeId: 64, previousRequest: 1 }, 400)
    await refused("/employees/9999/time_off/request", { status: "requested", start: "2025-03-03", end: "2025-03-07", timeOffTypeId: 64 }, 404)
    await refused(`/time_off/requests/${request.id}/status`, { status: "maybe" }, 400)
    await refused("/time_off/requests/1/status", { status: "canceled" }, 404)
    expect((await fetch(`${base}/employees/9999/time_off/calculator`, { headers: hris })).status).toBe(404)
  })
})

describe("LMS (TalentLMS)", () => {
  it("needs the API key as Basic username", async () => {
    const res = await fetch(`${sb.lms.baseUrl}/users`)
    expect(res.status).toBe(401)
    expect(await json(res)).toMatchObject({ error: { type: "authentication_error" } })
    expect((await fetch(`${sb.lms.baseUrl}/users`, { headers: { authorization: basic("bad") } })).status).toBe(401)
  })

  it("lists users and courses; a user carries course completion, a course its users", async () => {
    const users = await json<Array<{ id: string; email: string; user_type: string }>>(await fetch(`${sb.lms.baseUrl}/users`, { headers: lms }))
    expect(users.length).toBe(60)
    expect(users[0]).toMatchObject({ id: "1", user_type: "SuperAdmin" })
    const courses = await json<Array<{ id: string; name: string }>>(await fetch(`${sb.lms.baseUrl}/courses`, { headers: lms }))
    expect(courses.length).toBe(20)
    const details = await Promise.all(users.slice(1, 15).map(async (u) => json<{ id: string; courses: Array<{ id: string; completion_status: string; completion_percentage: string; completed_on: string }> }>(await fetch(`${sb.lms.baseUrl}/users/id:${u.id}`, { headers: lms }))))
    const withCourses = details.find((d) => d.courses.some((c) => c.completion_status === "completed"))
    expect(withCourses).toBeDefined()
    const done = withCourses?.courses.find((c) => c.completion_status === "completed")
    expect(done?.completion_percentage).toBe("100")
    expect(done?.completed_on).toMatch(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}$/)
    const course = await json<{ users: Array<{ id: string; completion_percentage: string }>; units: Array<unknown> }>(await fetch(`${sb.lms.baseUrl}/courses/id:${done?.id}`, { headers: lms }))
    expect(course.users.find((u) => u.id === withCourses?.id)?.completion_percentage).toBe("100")
    expect(course.units.length).toBeGreaterThan(2)
    const byEmail = await json<{ id: string }>(await fetch(`${sb.lms.baseUrl}/users/email:${users[3]?.email}`, { headers: lms }))
    expect(byEmail.id).toBe(users[3]?.id)
    expect((await fetch(`${sb.lms.baseUrl}/users/id:9999`, { headers: lms })).status).toBe(404)
  })

  it("lists categories; one category carries the courses filed under it, an unknown one is 404", async () => {
    const categories = await json<Array<{ id: string; name: string }>>(await fetch(`${sb.lms.baseUrl}/categories`, { headers: lms }))
    expect(categories.length).toBeGreaterThan(1)
    const courses = await json<Array<{ id: string; category_id: string }>>(await fetch(`${sb.lms.baseUrl}/courses`, { headers: lms }))
    for (const category of categories) {
      const one = await json<{ id: string; name: string; courses: Array<{ id: string; category_id: string }> }>(await fetch(`${sb.lms.baseUrl}/categories/id:${category.id}`, { headers: lms }))
      expect(one).toMatchObject({ id: category.id, name: category.name })
      expect(one.courses.map((course) => course.id)).toEqual(courses.filter((course) => course.category_id === category.id).map((course) => course.id))
    }
    const unknown = await fetch(`${sb.lms.baseUrl}/categories/id:9999`, { headers: lms })
    expect(unknown.status).toBe(404)
    expect(await json(unknown)).toMatchObject({ error: { type: "invalid_request_error" } })
    expect((await fetch(`${sb.lms.baseUrl}/categories/id:1`)).status).toBe(401)
  })

  it("enrolls with POST /addusertocourse (JSON or form); the enrollment shows on both sides", async () => {
    const courses = await json<Array<{ id: string }>>(await fetch(`${sb.lms.baseUrl}/courses`, { headers: lms }))
    const user = await json<{ id: string; courses: Array<{ id: string }>; last_updated_timestamp: string }>(await fetch(`${sb.lms.baseUrl}/users/id:12`, { headers: lms }))
    const free = courses.filter((c) => !user.courses.some((x) => x.id === c.id))
    const [c1, c2] = free as [{ id: string }, { id: string }]
    const res = await fetch(`${sb.lms.baseUrl}/addusertocourse`, { method: "POST", headers: { ...lms, "content-type": "application/json" }, body: JSON.stringify({ user_id: 12, course_id: Number(c1.id) }) })
    expect(res.status).toBe(200)
    expect(await json(res)).toEqual([{ user_id: "12", course_id: c1.id, role: "learner" }])
    const form = await fetch(`${sb.lms.baseUrl}/addusertocourse`, { method: "POST", headers: { ...lms, "content-type": "application/x-www-form-urlencoded" }, body: `user_id=12&course_id=${c2.id}&role=instructor` })
    expect(await json(form)).toEqual([{ user_id: "12", course_id: c2.id, role: "instructor" }])
    const after = await json<{ courses: Array<{ id: string; role: string; completion_status: string }>; last_updated_timestamp: string }>(await fetch(`${sb.lms.baseUrl}/users/id:12`, { headers: lms }))
    expect(after.courses.find((c) => c.id === c1.id)).toMatchObject({ role: "learner", completion_status: "not_attempted" })
    expect(Number(after.last_updated_timestamp)).toBeGreaterThan(Number(user.last_updated_timestamp))
    const course = await json<{ users: Array<{ id: string }> }>(await fetch(`${sb.lms.baseUrl}/courses/id:${c1.id}`, { headers: lms }))
    expect(course.users.map((u) => u.id)).toContain("12")
    const status = await json<{ completion_status: string; units: Array<unknown> }>(await fetch(`${sb.lms.baseUrl}/getuserstatusincourse/course_id:${c1.id},user_id:12`, { headers: lms }))
    expect(status.completion_status).toBe("not_attempted")
    const dup = await fetch(`${sb.lms.baseUrl}/addusertocourse`, { method: "POST", headers: { ...lms, "content-type": "application/json" }, body: JSON.stringify({ user_id: 12, course_id: Number(c1.id) }) })
    expect(dup.status).toBe(400)
    expect(await json(dup)).toMatchObject({ error: { type: "invalid_request_error" } })
    const missing = await fetch(`${sb.lms.baseUrl}/addusertocourse`, { method: "POST", headers: { ...lms, "content-type": "application/json" }, body: JSON.stringify({ user_id: 12 }) })
    expect(missing.status).toBe(400)
  })
})
