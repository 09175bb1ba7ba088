import { ymd } from "../clock.js"
import type { Route } from "../router.js"
import { addRow, currentRow, EMPLOYEE_FIELDS, EMPLOYEE_ID_BASE, JOB_INFO_FIELDS, type Fields } from "./data.js"
import { asString, bambooTime, employeeFields } from "./employeeFields.js"
import { bambooError } from "./errors.js"
import { cleanValue, fieldsBody } from "./fieldsBody.js"
import type { HrisContext } from "./hrisContext.js"
import { fieldXml, sendJsonOrXml } from "./jsonOrXml.js"

/** Employees: changes since a time, create, read chosen fields, update. */

/** Derived or system fields a client can read but not write. */
const READ_ONLY = new Set(["id", "displayName", "fullName1", "fullName2", "fullName3", "fullName4", "fullName5", "age", "lastChanged", "supervisor", "supervisorId", "supervisorEId", "supervisorEmail", "photoUrl", "canUploadPhoto", "employmentHistoryStatus", "jobTitleName", "reportsToId", "reportsToName"])

/** Get Employee's names of two stored fields (birthDate, marital), written as the fields they read. */
const WRITE_ALIASES: Readonly<Record<string, string>> = { birthDate: "dateOfBirth", marital: "maritalStatus" }
const storedName = (field: string): string => WRITE_ALIASES[field] ?? field

/** Job fields live in the jobInfo table; writes to them go to a row there, not to the employee. */
const isJobInfoField = (field: string): boolean => (JOB_INFO_FIELDS as ReadonlyArray<string>).includes(field)
const isEmployeeField = (field: string): boolean => (EMPLOYEE_FIELDS as ReadonlyArray<string>).includes(field)

/** A jobInfo row with every field empty, for `...fields` to fill. */
const emptyJobRow = (date: string | null): Fields => ({ date, location: null, department: null, division: null, jobTitle: null, reportsTo: null })

export const employeeRoutes = (context: HrisContext): ReadonlyArray<Route> => [
  context.route("GET", "/employees/changed", (ctx) => {
    const sinceRaw = ctx.query.get("since")
    if (sinceRaw === null) throw bambooError(400, "since is required (ISO 8601)")
    const since = Date.parse(sinceRaw)
    if (Number.isNaN(since)) throw bambooError(400, "since must be an ISO 8601 timestamp")
    const type = ctx.query.get("type")
    const employees: Record<string, { id: string; action: string; lastChanged: string }> = {}
    for (const employee of context.state.employees.values()) {
      if (employee.lastChanged < since) continue
      const action = employee.createdAt >= since ? "Inserted" : "Updated"
      if (type !== null && type.toLowerCase() !== action.toLowerCase()) continue
      employees[String(employee.id)] = { id: String(employee.id), action, lastChanged: bambooTime(employee.lastChanged) }
    }
    const latest = Math.max(0, ...[...context.state.employees.values()].map((employee) => employee.lastChanged))
    sendJsonOrXml(ctx, { latest: bambooTime(latest), employees }, () =>
      `<employees latest="${bambooTime(latest)}">${Object.values(employees)
        .map((change) => `<employee id="${change.id}" action="${change.action}" lastChanged="${change.lastChanged}"/>`)
        .join("")}</employees>`
    )
  }),
  context.route("POST", "/employees", (ctx) => {
    const body = fieldsBody(ctx)
    const first = body["firstName"]
    const last = body["lastName"]
    if (typeof first !== "string" || first.trim() === "" || typeof last !== "string" || last.trim() === "") throw bambooError(400, "firstName and lastName are required")
    const state = context.state
    const fields: Fields = Object.fromEntries(EMPLOYEE_FIELDS.map((field) => [field, null]))
    const job: Fields = {}
    for (const [written, value] of Object.entries(body)) {
      const field = storedName(written)
      if (isJobInfoField(field)) job[field] = cleanValue(field, value)
      else if (isEmployeeField(field)) fields[field] = cleanValue(field, value)
      else throw bambooError(400, `Unknown or read-only field ${written}`)
    }
    const at = context.tick()
    fields["status"] = fields["status"] ?? "Active"
    fields["photoUploaded"] = "false"
    const id = state.next.employee++
    fields["employeeNumber"] = fields["employeeNumber"] ?? String(1000 + id - EMPLOYEE_ID_BASE)
    state.employees.set(id, { id, fields, createdAt: at, lastChanged: at, files: [] })
    if (Object.keys(job).length > 0) addRow(state, "jobInfo", id, { ...emptyJobRow(fields["hireDate"] ?? ymd(at)), ...job })
    // BambooHR answers a create with an empty body and the new employee's URL.
    ctx.res.writeHead(201, { location: `${context.apiBase(ctx.origin)}/employees/${id}`, "content-length": "0" })
    ctx.res.end()
  }),
  context.route("GET", "/employees/:id", (ctx, params) => {
    const employee = context.employee(params["id"])
    const wanted = (ctx.query.get("fields") ?? "firstName,lastName").split(",").map((name) => name.trim()).filter((name) => name.length > 0)
    const all = employeeFields(context, employee, ctx.query.get("onlyCurrent") !== "false", ctx.origin)
    const answer: Record<string, unknown> = { id: String(employee.id) }
    for (const name of wanted) answer[name] = name === "photoUploaded" || name === "canUploadPhoto" ? all[name] : asString(all[name])
    sendJsonOrXml(ctx, answer, () => `<employee id="${employee.id}">${wanted.map((name) => fieldXml(name, answer[name])).join("")}</employee>`)
  }),
  context.route("POST", "/employees/:id", (ctx, params) => {
    const employee = context.employee(params["id"])
    const body = fieldsBody(ctx)
    if (Object.keys(body).length === 0) throw bambooError(400, "No fields to update")
    const changes: Fields = {}
    const job: Fields = {}
    for (const [written, value] of Object.entries(body)) {
      if (READ_ONLY.has(written)) throw bambooError(400, `Field ${written} is read-only`)
      const field = storedName(written)
      if (isJobInfoField(field)) job[field] = cleanValue(field, value)
      else if (isEmployeeField(field)) changes[field] = cleanValue(field, value)
      else throw bambooError(400, `Unknown field ${written}`)
    }
    const at = context.tick()
    Object.assign(employee.fields, changes)
    if (Object.keys(job).length > 0) {
      // Job fields change the row in force; an employee without one gets a row dated today.
      const current = currentRow(context.rows("jobInfo", employee.id), "date", context.now())
      if (current !== undefined) Object.assign(current.fields, job)
      else addRow(context.state, "jobInfo", employee.id, { ...emptyJobRow(ymd(at)), ...job })
    }
    employee.lastChanged = at
    ctx.res.writeHead(200, { "content-length": "0" })
    ctx.res.end()
  })
]
